"""The documentation's text (README.md and docs/*.md) for the tests that run its examples as written."""
import glob
import os
import re

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def files():
    """README.md, then every page of docs/, as repository-relative paths."""
    pages = sorted(os.path.relpath(p, REPOSITORY) for p in glob.glob(os.path.join(REPOSITORY, "docs", "*.md")))
    return ["README.md"] + pages


def read(path):
    with open(os.path.join(REPOSITORY, path), encoding="utf-8") as f:
        return f.read()


def section(title):
    """The text under the `## title` heading, wherever in the documentation it is, up to the next `#` or `##` heading
    (lines in code blocks, such as a shell's comments, are not headings)."""
    for path in files():
        lines = read(path).split("\n")
        if "## " + title not in lines:
            continue
        start = lines.index("## " + title)
        body, fence = [], False
        for line in lines[start:]:
            if line.startswith("```"):
                fence = not fence
            elif not fence and body and re.match(r"^#{1,2} ", line):
                break
            body.append(line)
        return "\n" + "\n".join(body) + "\n"
    raise AssertionError("no section %r in README.md or docs/" % title)


def blocks(title, language):
    """The code blocks of `language` (e.g. "python", "sh", "" for a bare fence) in the section titled `title`."""
    found = re.findall(r"^```%s\n(.*?)^```$" % re.escape(language), section(title), flags=re.S | re.M)
    assert found, "no %r block under %r in the documentation" % (language, title)
    return found
