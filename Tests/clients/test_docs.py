"""The documentation's links: every relative link of README.md and docs/*.md names a file of the repository, and
every `#anchor` a heading of the page it points at (as GitHub makes anchors of headings). A link out of docs/ is
written from the repository's root (`/config/default.yaml`, as GitHub resolves it), never with `../`.

And the comments' citations: what a comment in the code cites is in the repository or is a public URL, so that a
clone can follow it. A repository path a comment names exists; a `docs/….md` page cited with a section title
(`docs/entra-behaviour.md, "Signing keys"`) or an `#anchor` has that heading; a Markdown file named alone is one of
the repository's; documents kept outside it (the protocol reference, INTERFACE.md, DESIGN.md) and bare section
numbers of them (`(§6)`) are never cited."""
import os
import re

import pytest

from documentation import REPOSITORY, files, read

LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")


def anchors(path):
    """The anchors GitHub gives the headings of a Markdown page: lower case, punctuation dropped, spaces as '-'."""
    found, fence = set(), False
    for line in read(path).split("\n"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{1,6} (.*)$", line)
        if m:
            found.add(re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-"))
    return found


def links(path):
    """The link targets of a page, outside code blocks and inline code."""
    out, fence = [], False
    for line in read(path).split("\n"):
        if line.startswith("```"):
            fence = not fence
            continue
        if not fence:
            out += LINK.findall(re.sub(r"`[^`]*`", "", line))
    return out


@pytest.mark.parametrize("page", files())
def test_every_relative_link_and_anchor_resolves(page):
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto:: not a file of the repository
        path, _, anchor = target.partition("#")
        if path.startswith("../"):
            broken.append("%s: a link out of the page's folder is written from the root (/…), not with ../" % target)
            continue
        if path.startswith("/"):
            resolved = os.path.normpath(path.lstrip("/"))
        else:
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if resolved.startswith(".."):
            broken.append("%s leaves the repository" % target)
        elif not os.path.exists(os.path.join(REPOSITORY, resolved)):
            broken.append("%s: no file %s" % (target, resolved))
        elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
            broken.append("%s: no heading #%s in %s" % (target, anchor, resolved))
    assert not broken, "%s: %s" % (page, "; ".join(broken))


def test_the_readme_is_short_and_every_topic_page_is_in_the_table_of_contents():
    assert len(read("README.md").split("\n")) <= 200
    table = read("docs/README.md")
    pages = [p for p in files() if p.startswith("docs/") and p != "docs/README.md"]
    assert pages, "docs/ has no topic pages"
    for page in pages:
        assert "](%s)" % os.path.basename(page) in table, "docs/README.md does not list %s" % page


# The folders whose files carry comments, and how each kind of file writes a comment.
CODE_FOLDERS = ("Sources", "Tests", "scripts", "bench", "templates", "config", "Examples", "docker")
SKIPPED = {os.path.join("Tests", "fuzz", "corpus")}   # seed inputs, not text with comments
SLASH = (".swift", ".c", ".h", ".modulemap", ".mustache")
HASH = (".py", ".yaml", ".yml", ".txt", "")           # "": scripts, the Dockerfile
LINE_COMMENT = {"slash": re.compile(r"(?:^|\s)//(.*)$"), "hash": re.compile(r"(?:^|\s)#(.*)$")}
BLOCK = [(re.compile(r"/\*"), re.compile(r"\*/")), (re.compile(r"<!--"), re.compile(r"-->"))]

URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
FOLDERS = "|".join(CODE_FOLDERS + ("docs",))
REPOSITORY_PATH = re.compile(r"(?<![\w/.-])((?:%s)/[\w.+/-]*[\w+])" % FOLDERS)
DOCS_CITATION = re.compile(r"(?<![\w/.-])(docs/[\w.-]+\.md)(#[\w-]+)?((?:(?:,| and) \"[^\"]+\")*)")
MARKDOWN_NAME = re.compile(r"(?<![\w/.-])([\w.-]+\.md)\b")
OUTSIDE = re.compile(r"entra-protocol|\bINTERFACE\.md|\bDESIGN\.md|\breference/|\breference §|\(§")


def code_files():
    """The text files of the code folders, repository-relative, with the comment style of each."""
    for folder in CODE_FOLDERS:
        for root, dirs, names in os.walk(os.path.join(REPOSITORY, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                             and os.path.relpath(os.path.join(root, d), REPOSITORY) not in SKIPPED)
            for name in sorted(names):
                ext = os.path.splitext(name)[1]
                style = "slash" if ext in SLASH else "hash" if ext in HASH else None
                if style:
                    yield os.path.relpath(os.path.join(root, name), REPOSITORY), style


def comments(path, style):
    """(line number, text) of each comment line of a file: line comments, and lines of /* … */ and <!-- … --> blocks."""
    try:
        text = read(path)
    except UnicodeDecodeError:
        return
    closing = None
    for number, line in enumerate(text.split("\n"), 1):
        if closing:
            yield number, line
            if closing.search(line):
                closing = None
            continue
        found = LINE_COMMENT[style].search(line)
        if found:
            yield number, found.group(1)
        if style == "slash":
            for opening, end in BLOCK:
                start = opening.search(line)
                if start and not end.search(line, start.end()):
                    yield number, line[start.end():]
                    closing = end


def headings(page):
    """The titles of a page's headings, as written and with inline code marks dropped."""
    titles = set()
    for line in read(page).split("\n"):
        m = re.match(r"^#{1,6} (.*)$", line)
        if m:
            titles |= {m.group(1).strip(), m.group(1).strip().replace("`", "")}
    return titles


def dangling_citations(path, text):
    """What a comment's text cites that a clone of the repository cannot follow."""
    problems = []
    text = URL.sub(" ", text)
    if OUTSIDE.search(text):
        problems.append("cites a document kept outside the repository (%s); cite a public URL or a page of docs/"
                        % OUTSIDE.search(text).group(0))
    for cited in REPOSITORY_PATH.findall(text):
        parent, last = os.path.split(cited)
        placeholder = last.isupper() and "." not in last   # Tests/fuzz/corpus/HARNESS: one folder per harness
        if not os.path.exists(os.path.join(REPOSITORY, parent if placeholder else cited)):
            problems.append("names %s, which the repository does not have" % cited)
    for page, anchor, titles in DOCS_CITATION.findall(text):
        if not os.path.exists(os.path.join(REPOSITORY, page)):
            continue   # reported above
        if anchor and anchor[1:] not in anchors(page):
            problems.append("cites %s%s: no such heading" % (page, anchor))
        for title in re.findall(r"\"([^\"]+)\"", titles):
            if title not in headings(page):
                problems.append("cites %s, \"%s\": no heading of that title" % (page, title))
    for name in MARKDOWN_NAME.findall(text):
        if OUTSIDE.search(name):
            continue   # reported above
        if not any(os.path.exists(os.path.join(REPOSITORY, where, name))
                   for where in ("", "docs", os.path.dirname(path))):
            problems.append("names %s, which the repository does not have" % name)
    return problems


def test_every_citation_in_a_comment_resolves_in_a_clone():
    broken, scanned = [], 0
    for path, style in code_files():
        for number, text in comments(path, style):
            scanned += 1
            broken += ["%s:%d: %s" % (path, number, p) for p in dangling_citations(path, text)]
    assert scanned > 1000, "found only %d comment lines: the scan lost its files" % scanned
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("comment, problem", [
    ("Entra's order (reference/entra-protocol.md §7).", "outside the repository"),
    ("the control API (`/_mockidp/…`, INTERFACE.md)", "outside the repository"),
    ("as DESIGN.md asks", "outside the repository"),
    ("with B2C's trailing slash (§1.3).", "outside the repository"),
    ("(docs/no-such-page.md)", "does not have"),
    ('(docs/entra-behaviour.md, "No such section")', "no heading of that title"),
    ('(docs/entra-behaviour.md, "Grants" and "No such section")', "no heading of that title"),
    ("(docs/sign-in.md#no-such-anchor)", "no such heading"),
    ("see config/examples/no-such.yaml", "does not have"),
    ("the design notes in NOTES.md", "does not have"),
])
def test_a_dangling_citation_is_reported(comment, problem):
    problems = dangling_citations("Sources/MockIDPCore/Example.swift", comment)
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize("comment", [
    'Sources: docs/sovereign-clouds.md, "Sovereign clouds", and docs/entra-behaviour.md, "Clouds and instance discovery".',
    '(docs/entra-behaviour.md, "Sign-in decisions"; OpenID Connect Core §3.1.2.6)',
    "(docs/sign-in.md#consent), config/examples/b2c.yaml, README.md, RFC 9112 §6.3",
    "(https://learn.microsoft.com/azure/active-directory-b2c/error-codes)",
    "seeds in Tests/fuzz/corpus/HARNESS",
])
def test_a_citation_a_clone_can_follow_is_not_reported(comment):
    assert dangling_citations("Sources/MockIDPCore/Example.swift", comment) == []
