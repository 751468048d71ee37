"""The shape issue 40 gave the core, kept as features land (External ID, SAML): `IdentityProvider` is a thin façade
that at most three files extend and none of whose files takes a lock; Core takes the directory snapshot in two places
only (a request's scope and the inspector's); the request scope's dialect and directory are never optional; the
client-credentials template cache (a speed shortcut) stays at the edge, out of Core."""
import os
import re

from documentation import REPOSITORY

CORE = os.path.join(REPOSITORY, "Sources", "MockIDPCore")
SOURCES = os.path.join(REPOSITORY, "Sources")


def swift_files(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, REPOSITORY), f.read()


def code(text):
    """The text without `//` comments and doc comments (string literals may keep a `//`)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def identity_provider_files():
    """The files that declare or extend `IdentityProvider`."""
    return [(path, text) for path, text in swift_files(SOURCES)
            if re.search(r"^(?:public |package )?(?:final class|extension) IdentityProvider\b(?!\w)", code(text), re.M)]


def test_at_most_three_files_extend_identity_provider():
    extending = [path for path, text in identity_provider_files()
                 if re.search(r"^extension IdentityProvider\b(?![\w.])", code(text), re.M)]
    assert len(extending) <= 3, "IdentityProvider is a façade: put the feature's logic in a value in its folder, not in " + ", ".join(extending)


def test_no_lock_in_identity_provider_files():
    locking = [path for path, text in identity_provider_files() if re.search(r"\b(?:withLock|Mutex|NSLock|os_unfair_lock)\b", code(text))]
    assert not locking, "stores lock themselves; IdentityProvider's files take no lock: " + ", ".join(locking)


def test_core_takes_the_snapshot_in_two_places():
    calls = [(path, line) for path, text in swift_files(CORE) for line in code(text).splitlines()
             if re.search(r"\bsnapshot\(\)", line) and not re.search(r"\bfunc snapshot\(\)", line)
             and not path.endswith("Directory/ServedDirectory.swift")]
    assert len(calls) <= 2, "a request reads its scope's directory; Core takes a snapshot only for the scope and the inspector: %r" % calls


def test_request_scope_is_never_partial():
    text = code(open(os.path.join(CORE, "Protocol", "RequestScope.swift"), encoding="utf-8").read())
    for member in ("directory", "dialect"):
        declared = re.search(r"\b(?:let|var) %s: ([\w.]+\??)" % member, text)
        assert declared and not declared.group(1).endswith("?"), "RequestScope.%s must not be optional" % member


def test_no_template_cache_in_core():
    cached = [path for path, text in swift_files(CORE) if re.search(r"\b(?:AppTokenTemplate|TokenRequestKey)\b", code(text))]
    assert not cached, "speed shortcuts live at the edge (Sources/MockIDP/Speed/), not in Core: " + ", ".join(cached)
