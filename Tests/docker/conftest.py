import sys


def pytest_terminal_summary(terminalreporter):
    """Prints how long the runtime-stage test spent where (debootstrap, the release build, start-up)."""
    module = sys.modules.get("test_runtime_stage")
    for line in getattr(module, "TIMINGS", []):
        terminalreporter.write_line(f"runtime stage: {line}")
