"""The build stage of docker/Dockerfile, proven without a Docker engine (how: build_stage.py).

It runs as the image build would, from a Debian root that stands for `swift:<version>-<suite>`; the binary it makes
is the one test_runtime_stage.py starts in the runtime stage, so the two together prove the whole image. Needs root
(debootstrap, chroot, mount); skipped otherwise, and when MOCKIDP_RELEASE_BINARY names a binary made on this machine.
"""

import re
import subprocess
from pathlib import Path

from build_stage import SWIFT_IMAGE_PACKAGES, BuildStage, swift_version_line
from stages import CONTAINER_PATH, DOCKERFILE, ROOT, dockerignore_rules, ignored
from test_runtime_stage import RuntimeStage


def test_the_build_stage_builds_for_the_runtime_stage_with_this_toolchain():
    text = DOCKERFILE.read_text()
    build = BuildStage(text)
    # The same Debian release in both stages: the binary links the build stage's glibc, OpenSSL and libmicrohttpd
    # and runs on the runtime stage's.
    assert build.suite == RuntimeStage(text).suite == "bookworm"
    # The toolchain bound into the build root stands for the image's, so its version must be the tag's.
    assert re.search(rf"Swift version {re.escape(build.swift_version)}(\.\d+)? ", swift_version_line()), \
        f"this machine's Swift is not the {build.swift_version} of FROM swift:{build.swift_version}-{build.suite}"
    # Every system library Package.swift names is installed by the stage's apt-get line (or by the swift image).
    providers = re.findall(r"\.apt\(\[([^]]*)\]\)", (ROOT / "Package.swift").read_text())
    needed = {name.strip().strip('"') for group in providers for name in group.split(",")}
    assert needed and needed <= set(build.packages) | set(SWIFT_IMAGE_PACKAGES), \
        f"the build stage does not install {sorted(needed - set(build.packages))}"


def test_dockerignore_leaves_out_what_docker_leaves_out():
    rules = dockerignore_rules(ROOT)
    for path in [".git", ".build", ".build/debug/mockidp", ".build-release", ".build_asan/x", ".venv/bin/python",
                 ".mockidp/ca.pem", "Tests/clients/__pycache__/x.pyc", "__pycache__", "bench/results/run.json",
                 "Examples/MockIDPExample/.build/debug.yaml", ".build-runtime-stage/container/etc/passwd"]:
        assert ignored(path, rules), f".dockerignore sends {path} to the build"
    for path in ["Package.swift", "Sources/MockIDP/Resources/consent.mustache", "scripts/build-release", "docker/Dockerfile",
                 "Examples/MockIDPExample/Package.swift", "templates/consent.mustache", "bench/run"]:
        assert not ignored(path, rules), f".dockerignore leaves out {path}"
    # Docker's matching: `*` stays within a path element, `**` crosses them, the last matching rule decides.
    rules = [(False, "docs/*.md"), (False, "**/*.log"), (True, "keep/*.log"), (False, "a?c")]
    assert ignored("docs/x.md", rules) and not ignored("docs/sub/x.md", rules)
    assert ignored("x.log", rules) and ignored("deep/down/x.log", rules) and not ignored("keep/x.log", rules)
    assert ignored("abc/d", rules) and not ignored("abbc", rules)


def test_copy_sends_the_context_without_what_dockerignore_leaves_out(build_root):
    rules = dockerignore_rules(ROOT)
    expected = sorted(p.name for p in ROOT.iterdir() if not ignored(p.name, rules))
    assert build_root.copied == expected
    assert not {".git", ".build", ".venv"} & set(build_root.copied)
    # The templates compiled into the binary are symbolic links in Sources/; COPY keeps them links.
    links = [line.split("\t")[1] for line in subprocess.run(["git", "-C", str(ROOT), "ls-files", "-s"], capture_output=True,
                                                                 text=True, check=True).stdout.splitlines() if line.startswith("120000 ")]
    assert links
    for link in links:
        copied = build_root.inside("/src") / link
        assert copied.is_symlink() and copied.readlink() == (ROOT / link).readlink(), f"{link} is not a link in the build root"


def elf_header(path):
    header = Path(path).read_bytes()[:20]
    assert header[:4] == b"\x7fELF"
    return int.from_bytes(header[16:18], "little"), int.from_bytes(header[18:20], "little")


def test_the_build_stage_makes_the_release_binary_with_the_swift_runtime_inside(build_root):
    kind, machine = elf_header(build_root.binary)
    assert kind == 2, "the binary must be a non-PIE executable (ET_EXEC), as scripts/build-release links it"
    assert machine == elf_header("/bin/sh")[1], "the binary is not for this machine's architecture"
    dynamic = subprocess.run(["readelf", "-d", str(build_root.binary)], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", dynamic)
    assert any(n.startswith("libmicrohttpd") for n in needed) and any(n.startswith("libcrypto") for n in needed)
    swift = [n for n in needed if re.match(r"lib(swift|Foundation|dispatch|BlocksRuntime)", n)]
    assert not swift, f"the Swift runtime must be linked in statically, but the binary needs {swift}"
    # It runs in the build root with no LD_LIBRARY_PATH (the image's points at the toolchain's libraries).
    version = subprocess.run(["chroot", str(build_root.root), "/usr/bin/env", "-i", f"PATH={CONTAINER_PATH}",
                              build_root.build.output, "--version"],
                             capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and re.match(r"\d+\.\d+", version.stdout.strip()), version.stdout + version.stderr
