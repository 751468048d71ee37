"""The build stage of docker/Dockerfile, run without a Docker engine.

No registry is reachable where this project is tested, so the stage's base image is made here as its Dockerfile
makes it: `swift:<version>-bookworm` is swiftlang/swift-docker's `<version>/debian/12/Dockerfile`, that is Debian
bookworm (a minbase root, which is what the `debian` images are), the packages below, and the Swift toolchain
unpacked to a folder of its own (the image's SWIFT_PREFIX) with its bin/ linked into /usr/bin. debootstrap makes the
Debian part (cached under .build-build-stage/, keyed on the suite, the packages and the mirror); the toolchain is this
machine's own, found where `swift` runs from and bound read-only at the same folder in the root (the Dockerfile
reaches it only through /usr/bin, so its folder does not matter to the build). On that root, an overlay keeps the cached root pristine, and the stage's own
instructions run exactly as the Dockerfile says: each `RUN` with `/bin/sh -c` in a `chroot` (its `apt-get` too, from
this machine's Debian mirror), `WORKDIR`, `ENV`, and `COPY . .` honouring .dockerignore. Swift packages come the way
this machine's git reaches them (its `url.<base>.insteadOf` rules, their folders bound read-only): the build needs
no other network than Docker's would. The binary it makes is the one the runtime-stage test runs.
"""

import fcntl
import shutil
import subprocess
import time
from pathlib import Path

from stages import (CONTAINER_PATH, ROOT, apt_packages, bind_read_only, build_stage_output, cached_base,
                    copy_context, debian_source, env_pairs, mount_kernel_filesystems, remove_tree, report, stage)

SCRATCH = ROOT / ".build-build-stage"
# The `apt-get install` of swift-docker's 6.3/debian/12/Dockerfile, which swift:6.3-bookworm is built from.
SWIFT_IMAGE_PACKAGES = ["binutils", "libicu-dev", "libcurl4-openssl-dev", "libedit-dev", "libsqlite3-dev", "libncurses-dev",
                        "libpython3-dev", "libxml2-dev", "pkg-config", "uuid-dev", "tzdata", "git", "gcc", "libstdc++-12-dev"]
# How long the stage's RUN lines may take: the release build from nothing, on two shared cores.
RUN_TIMEOUT = 45 * 60


class BuildStage:
    """The build stage, read: its base image's Swift version and Debian suite, and its instructions."""

    def __init__(self, text):
        steps = stage(text, "build")
        words = steps[0][1].split()
        assert len(words) == 3 and words[1].upper() == "AS", f"unsupported FROM: {steps[0][1]}"
        image, _, tag = words[0].partition(":")
        version, _, suite = tag.partition("-")
        assert image == "swift" and version and suite, f"the build stage must start FROM swift:<version>-<suite>, not {words[0]}"
        self.swift_version, self.suite = version, suite
        self.steps = steps[1:]
        self.output = build_stage_output(text)
        self.packages = None
        for keyword, rest in self.steps:
            assert keyword in ("RUN", "WORKDIR", "COPY", "ENV"), \
                f"the build-stage test does not know {keyword}: teach it (Tests/docker/build_stage.py)"
            if keyword == "RUN" and apt_packages(rest) is not None:
                assert self.packages is None, "the build stage must install its packages in one apt-get line"
                self.packages = apt_packages(rest)
            if keyword == "COPY":
                assert rest.split()[0] == ".", f"the build stage copies the context only, not: COPY {rest}"


def swift_toolchain():
    """The folder holding this machine's toolchain (its usr/bin/swift), as the image unpacks it."""
    swift = shutil.which("swift")
    assert swift, "swift is not on PATH"
    toolchain = Path(swift).parents[2]
    assert toolchain != Path("/") and (toolchain / "usr" / "lib" / "swift" / "linux").is_dir(), \
        f"{swift} is not in a toolchain folder of its own (<folder>/usr/bin/swift), which the image's layout needs"
    return toolchain


def swift_version_line():
    return subprocess.run(["swift", "--version"], capture_output=True, text=True, check=True).stdout


def git_url_rewrites():
    """(base, instead of) for each `url.<base>.insteadOf` of this machine's git configuration."""
    listed = subprocess.run(["git", "config", "--get-regexp", r"^url\..*\.insteadof$"], capture_output=True, text=True).stdout
    rewrites = []
    for line in listed.splitlines():
        key, _, original = line.partition(" ")
        rewrites.append((key[len("url."):-len(".insteadof")], original))
    return rewrites


def apt_acquire_settings():
    """This machine's `Acquire::Check-*` apt settings, which its Debian mirror may need (a dated snapshot)."""
    dump = subprocess.run(["apt-config", "dump"], capture_output=True, text=True, check=True).stdout
    return [line for line in dump.splitlines() if line.startswith("Acquire::Check-")]


class BuildRoot:
    """The build stage's root: an overlay on the cached Debian root, the image's own layer, then the stage's steps."""

    def __init__(self, build, base, toolchain):
        self.build = build
        self.root, self.upper, self.work = SCRATCH / "root", SCRATCH / "upper", SCRATCH / "work"
        # One build root per checkout: a second run would unmount and delete the root the first one builds in.
        SCRATCH.mkdir(exist_ok=True)
        self.lock = open(SCRATCH / ".lock", "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.lock.close()
            raise AssertionError(f"another run builds in {SCRATCH.name}/ now: wait for it") from None
        self.prefix = str(toolchain)
        try:
            self.clear()
            for folder in (self.root, self.upper, self.work):
                folder.mkdir(parents=True)
            subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                            f"lowerdir={base},upperdir={self.upper},workdir={self.work}", str(self.root)], check=True)
            self.image_layer(toolchain)
            mount_kernel_filesystems(self.root)
            bind_read_only(toolchain, self.inside(self.prefix))
            self.network()
        except BaseException:
            self.close()
            raise
        self.env = {"PATH": f"{self.prefix}/usr/bin:{CONTAINER_PATH}", "LD_LIBRARY_PATH": f"{self.prefix}/usr/lib/swift/linux",
                    "SWIFT_PREFIX": self.prefix, "HOME": "/root"}
        self.workdir = "/"
        self.copied = None

    def inside(self, path):
        return self.root / path.lstrip("/")

    def image_layer(self, toolchain):
        """What swift-docker's Dockerfile does after installing its packages: the toolchain at SWIFT_PREFIX (bound in
        by the caller) and `ln -sf $SWIFT_PREFIX/usr/bin/* /usr/bin/`."""
        self.inside(self.prefix).mkdir(parents=True, exist_ok=True)
        for tool in sorted((toolchain / "usr" / "bin").iterdir()):
            link = self.inside("/usr/bin") / tool.name
            link.unlink(missing_ok=True)
            link.symlink_to(f"{self.prefix}/usr/bin/{tool.name}")

    def network(self):
        """What a Docker build reaches over the network, from this machine: its DNS resolver, its Debian sources (the
        `debian` images carry deb.debian.org in a deb822 file, as this machine does) with its apt settings for them,
        and the Swift packages where this machine's git finds them."""
        shutil.copy(Path("/etc/resolv.conf").resolve(), self.inside("/etc/resolv.conf"))
        _, sources = debian_source(self.build.suite)
        self.inside("/etc/apt/sources.list").unlink(missing_ok=True)
        target = "/etc/apt/sources.list" if sources.suffix == ".list" and sources.name == "sources.list" else f"/etc/apt/sources.list.d/{sources.name}"
        shutil.copy(sources, self.inside(target))
        settings = apt_acquire_settings()
        if settings:
            self.inside("/etc/apt/apt.conf.d/99machine-mirror").write_text("\n".join(settings) + "\n")
        rules = []
        for base, original in git_url_rewrites():
            rules.append(f'[url "{base}"]\n\tinsteadOf = {original}\n')
            if base.startswith("/") and Path(base).is_dir() and not self.inside(base).is_mount():
                bind_read_only(Path(base), self.inside(base))
        if rules:
            self.inside("/etc/gitconfig").write_text("".join(rules))

    def run(self, command, log):
        """A RUN line: `/bin/sh -c` as root in the current WORKDIR with the image's and the stage's ENV."""
        argv = (["chroot", str(self.root), "/usr/bin/env", "-i", f"--chdir={self.workdir}"]
                + [f"{k}={v}" for k, v in self.env.items()] + ["/bin/sh", "-c", command])
        log.write(f"\n$ RUN {command}\n")
        log.flush()
        return subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, timeout=RUN_TIMEOUT).returncode

    def execute(self):
        """The stage's steps in order; the binary it makes is copied out to .build-build-stage/mockidp."""
        with open(SCRATCH / "build.log", "w") as log:
            for keyword, rest in self.build.steps:
                started = time.monotonic()
                if keyword == "WORKDIR":
                    self.workdir = rest if rest.startswith("/") else f"{self.workdir.rstrip('/')}/{rest}"
                    self.inside(self.workdir).mkdir(parents=True, exist_ok=True)
                elif keyword == "ENV":
                    self.env.update(env_pairs(rest))
                elif keyword == "COPY":
                    destination = rest.split()[-1]
                    target = self.inside(destination if destination.startswith("/") else f"{self.workdir}/{destination}")
                    copy_context(ROOT, target)
                    self.copied = sorted(p.name for p in target.iterdir())
                elif keyword == "RUN":
                    code = self.run(rest, log)
                    if code != 0:
                        log.flush()
                        tail = (SCRATCH / "build.log").read_text()[-6000:]
                        raise AssertionError(f"RUN {rest} failed in the build root (exit {code}):\n{tail}")
                report(f"build stage {keyword} {rest[:60]}{'…' if len(rest) > 60 else ''}: {time.monotonic() - started:.1f} s")
        made = self.inside(self.build.output)
        assert made.is_file(), f"the build stage made no {self.build.output}"
        self.binary = SCRATCH / "mockidp"
        shutil.copy2(made, self.binary)

    def clear(self):
        remove_tree(self.root)
        for folder in (self.upper, self.work):
            shutil.rmtree(folder, ignore_errors=True)

    def close(self):
        self.clear()
        if self.lock:
            self.lock.close()
            self.lock = None


def run_build_stage(text):
    """The build stage, from its cached base to the binary; the BuildRoot stays mounted until closed."""
    build = BuildStage(text)
    toolchain = swift_toolchain()
    base = cached_base(SCRATCH, build.suite, SWIFT_IMAGE_PACKAGES, debian_source(build.suite)[0])
    started = time.monotonic()
    made = BuildRoot(build, base, toolchain)
    try:
        made.execute()
    except BaseException:
        made.close()
        raise
    report(f"build stage, all steps: {time.monotonic() - started:.1f} s")
    return made
