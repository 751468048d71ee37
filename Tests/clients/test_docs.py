"""The documentation's links: every relative link of README.md and docs/*.md names a file of the repository, and
every `#anchor` a heading of the page it points at (as GitHub makes anchors of headings). A link out of docs/ is
written from the repository's root (`/config/default.yaml`, as GitHub resolves it), never with `../`."""
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
