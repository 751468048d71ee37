import os
from pathlib import Path

import pytest

import stages


def pytest_terminal_summary(terminalreporter):
    """Prints how long the stage tests spent where (debootstrap, apt, the release build, start-up)."""
    for line in stages.TIMINGS:
        terminalreporter.write_line(f"docker stages: {line}")


@pytest.fixture(scope="session")
def build_root():
    """The Dockerfile's build stage run in a chroot (Tests/docker/build_stage.py), mounted until the tests end."""
    stages.needs_root()
    if os.environ.get("MOCKIDP_RELEASE_BINARY"):
        pytest.skip("MOCKIDP_RELEASE_BINARY names the binary: the build stage does not run")
    from build_stage import run_build_stage
    made = run_build_stage(stages.DOCKERFILE.read_text())
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(scope="session")
def stage_binary(request):
    """What `COPY --from=build` copies into the runtime stage: the build stage's binary, or the release binary that
    MOCKIDP_RELEASE_BINARY names (made on this machine by scripts/build-release, when the build stage is not wanted)."""
    given = os.environ.get("MOCKIDP_RELEASE_BINARY")
    if given:
        stages.report(f"runtime stage: the binary given, {given}")
        return Path(given)
    return request.getfixturevalue("build_root").binary
