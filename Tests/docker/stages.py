"""What both stage tests share: reading docker/Dockerfile, debootstrapped Debian roots cached between runs, mounts,
and the timings conftest.py prints after the tests."""

import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "docker" / "Dockerfile"
# Docker's default PATH for a container without ENV PATH.
CONTAINER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

TIMINGS = []


def report(line):
    """Kept for the summary that conftest.py prints after the tests (pytest captures output while they run)."""
    TIMINGS.append(line)


# ----------------------------------------------------------------------------------------------------------------
# Reading the Dockerfile


def instructions(text):
    """(KEYWORD, arguments) for each instruction: continuation lines joined, comments dropped."""
    result, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#") or (not line and not current):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        keyword, _, rest = current.strip().partition(" ")
        result.append((keyword.upper(), rest.strip()))
        current = ""
    return result


def stage(text, name):
    """The instructions of the stage `FROM … AS name`, its FROM first."""
    found, inside = [], False
    for keyword, rest in instructions(text):
        if keyword == "FROM":
            inside = rest.lower().endswith(f" as {name}")
        if inside:
            found.append((keyword, rest))
    assert found, f"docker/Dockerfile has no stage named {name}"
    return found


def apt_packages(command):
    """The packages of an `apt-get install` RUN line; None when the line installs nothing."""
    if "apt-get install" not in command:
        return None
    for part in command.split("&&"):
        words = shlex.split(part)
        if "install" in words and "apt-get" in words:
            after = words[words.index("install") + 1:]
            return [w for w in after if not w.startswith("-")]
    return None


def env_pairs(arguments):
    """The KEY=value pairs of an ENV instruction."""
    return dict(pair.partition("=")[::2] for pair in shlex.split(arguments))


def build_stage_output(text):
    """The path the build stage installs the scripts/build-release binary to."""
    for keyword, rest in stage(text, "build"):
        if keyword == "RUN" and "scripts/build-release" in rest:
            return shlex.split(rest)[-1]
    raise AssertionError("the build stage must install the binary made by scripts/build-release")


# ----------------------------------------------------------------------------------------------------------------
# The build context: .dockerignore as Docker reads it


def dockerignore_rules(context):
    """(negated, pattern) for each line of the context's .dockerignore, cleaned as Docker cleans them."""
    path = context / ".dockerignore"
    rules = []
    for line in path.read_text().splitlines() if path.exists() else []:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        pattern = os.path.normpath(line[1:].strip() if negated else line).lstrip("/")
        rules.append((negated, pattern))
    return rules


def _pattern_regex(pattern):
    """Go's filepath.Match with Docker's `**` (any number of path elements) as a regular expression."""
    out, i = "", 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
            continue
        if pattern.startswith("**", i):
            out, i = out + ".*", i + 2
            continue
        if c == "*":
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "[" and "]" in pattern[i + 1:]:
            end = pattern.index("]", i + 2 if pattern[i + 1:i + 2] in ("!", "^") else i + 1)
            body = pattern[i + 1:end]
            out += "[" + ("^" + body[1:] if body[:1] in ("!", "^") else body) + "]"
            i = end
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out += re.escape(pattern[i])
        else:
            out += re.escape(c)
        i += 1
    return re.compile(out + r"\Z")


def ignored(relative, rules):
    """Whether Docker leaves `relative` (a path in the context) out: the last rule that matches it or one of its
    parent folders decides."""
    parts = relative.split("/")
    verdict = False
    for negated, pattern in rules:
        regex = _pattern_regex(pattern)
        if any(regex.match("/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            verdict = not negated
    return verdict


def copy_context(context, destination):
    """`COPY . <destination>`: the context without what .dockerignore leaves out, symbolic links kept as links."""
    rules = dockerignore_rules(context)
    reincludes = any(negated for negated, _ in rules)

    def leave_out(folder, names):
        relative = os.path.relpath(folder, context)
        prefix = "" if relative == "." else relative + "/"
        # A folder that is left out is not entered, unless a `!` rule may bring back something inside it.
        return {n for n in names if ignored(prefix + n, rules) and not (reincludes and os.path.isdir(os.path.join(folder, n)))}

    shutil.copytree(context, destination, symlinks=True, ignore=leave_out, dirs_exist_ok=True)


# ----------------------------------------------------------------------------------------------------------------
# The machine


def needs_root():
    if os.geteuid() != 0:
        pytest.skip("needs root: debootstrap, chroot and mount (CI runs as root)")
    if not shutil.which("debootstrap"):
        pytest.fail("debootstrap is not installed: run scripts/setup")


def debian_source(suite):
    """(URI, the file naming it) of the first apt source of this machine that serves `suite` (deb822 .sources or
    one-line lists)."""
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for paragraph in Path(path).read_text().split("\n\n"):
            fields = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", paragraph, re.MULTILINE))
            if "deb" in fields.get("Types", "").split() and suite in fields.get("Suites", "").split():
                return fields["URIs"].split()[0], Path(path)
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        if os.path.exists(path):
            for line in Path(path).read_text().splitlines():
                words = re.sub(r"\[[^]]*\]", "", line).split()
                if len(words) >= 3 and words[0] == "deb" and words[2] == suite:
                    return words[1], Path(path)
    pytest.fail(f"no apt source of this machine serves Debian {suite}; debootstrap needs one")


def debian_mirror(suite):
    return debian_source(suite)[0]


def mounts_below(path):
    prefix = str(path).rstrip("/") + "/"
    with open("/proc/self/mounts") as f:
        return [m for m in (line.split()[1] for line in f) if m.startswith(prefix) or m == prefix.rstrip("/")]


def unmount_below(path):
    for mount in sorted(mounts_below(path), reverse=True):
        subprocess.run(["umount", "--lazy", mount], check=False)


def remove_tree(path):
    """Deletes a root only when nothing is mounted inside it (a bound /dev must never be deleted through)."""
    unmount_below(path)
    assert not mounts_below(path), f"still mounted below {path}: refusing to delete it"
    shutil.rmtree(path, ignore_errors=True)


def cached_base(scratch, suite, packages, mirror):
    """A pristine debootstrapped minbase root of `suite` with `packages`, built once under `scratch` and kept, keyed
    on the suite, the packages and the mirror."""
    key = hashlib.sha256(f"{suite} minbase {' '.join(sorted(packages))} {mirror}".encode()).hexdigest()[:16]
    base = scratch / f"base-{suite}-{key}"
    if (base / ".complete").exists():
        report(f"reusing the cached Debian root {scratch.name}/{base.name} ({len(packages)} packages)")
        return base
    remove_tree(base)
    partial = scratch / f"partial-{key}"
    remove_tree(partial)
    scratch.mkdir(exist_ok=True)
    started = time.monotonic()
    result = subprocess.run(["debootstrap", "--variant=minbase", f"--include={','.join(packages)}", suite, str(partial), mirror],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"debootstrap failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    (partial / ".complete").write_text(" ".join(packages) + "\n")
    partial.rename(base)
    report(f"debootstrap {suite} minbase + {len(packages)} packages ({', '.join(packages)}): {time.monotonic() - started:.1f} s")
    return base


def mount_kernel_filesystems(root):
    """/proc and the host's /dev, as a container has them."""
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
    subprocess.run(["mount", "--rbind", "/dev", str(root / "dev")], check=True)
    subprocess.run(["mount", "--make-rslave", str(root / "dev")], check=True)


def bind_read_only(source, target):
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "--bind", str(source), str(target)], check=True)
    subprocess.run(["mount", "-o", "remount,bind,ro", str(target)], check=True)


def user_ids(root, user):
    """(uid, gid) of `user` (a name or a number) in the root's /etc/passwd."""
    for line in (root / "etc" / "passwd").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == user or fields[2] == user:
            return int(fields[2]), int(fields[3])
    raise AssertionError(f"USER {user} does not exist in the root: the stage's RUN lines must create it")
