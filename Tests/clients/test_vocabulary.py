"""The error vocabulary is finished: every error code the server sends is a case of `OAuthError.Code` (and every
`suberror` one of `OAuthError.Suberror`), its wire name spelled once, as the raw value, in the catalog
(Sources/MockIDPCore/Errors/). Anywhere else in Sources/, a string literal that is one of those wire names, an
`error:`/`suberror:` argument or `"error":` member written as a code-shaped literal, or an `invalid_…` literal is
reported: name the enum's case instead, or add the code to the catalog."""
import os
import re

import pytest

from documentation import REPOSITORY

CATALOG = "Sources/MockIDPCore/Errors/"
VOCABULARY = ("Sources/MockIDPCore/Errors/OAuthError+Code.swift", "Sources/MockIDPCore/Errors/OAuthError+Suberror.swift")

RAW_VALUE = re.compile(r"^\s*case (\w+) = \"([^\"]+)\"", re.M)
LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")
CODE_SHAPED = r"[A-Za-z]+(?:_[A-Za-z]+)*"
# A code passed or stored as a literal, even one the catalog does not have yet.
LABELLED = re.compile(r"(?:\b(?:error|suberror):|\"(?:error|suberror)\":)\s*\"(%s)\"" % CODE_SHAPED)
INVALID = re.compile(r"invalid_\w+")
# The pages' template names (templates/not_found.mustache) are file names that happen to read like codes.
TEMPLATES = {os.path.splitext(n)[0] for n in os.listdir(os.path.join(REPOSITORY, "templates")) if n.endswith(".mustache")}


def wire_names():
    """The raw values of `OAuthError.Code` and `OAuthError.Suberror`, read from the catalog."""
    names = set()
    for path in VOCABULARY:
        with open(os.path.join(REPOSITORY, path), encoding="utf-8") as f:
            names |= {raw for _, raw in RAW_VALUE.findall(f.read())}
    return names


def code_part(line):
    """The line without its `//` comment (a `//` inside a string literal, as in a URL, is not one)."""
    quoted, escaped = False, False
    for i, c in enumerate(line):
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = quoted
        elif c == '"':
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i]
    return line


def literal_codes(text, names):
    """(line number, what) for each error-code literal in a Swift file's text."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        code = code_part(line)
        labelled = set(LABELLED.findall(code))
        for literal in LITERAL.findall(code):
            if literal in TEMPLATES and ("render(" in code or "PackageResources." in code):
                continue
            if literal in names or literal in labelled or INVALID.fullmatch(literal):
                found.append((number, '"%s"' % literal))
    return found


def swift_files_outside_the_catalog():
    for root, dirs, files in os.walk(os.path.join(REPOSITORY, "Sources")):
        dirs.sort()
        for name in sorted(files):
            path = os.path.relpath(os.path.join(root, name), REPOSITORY)
            if name.endswith(".swift") and not path.startswith(CATALOG):
                yield path


def test_the_catalog_holds_the_vocabulary():
    names = wire_names()
    assert {"invalid_request", "invalid_grant", "not_found", "InvalidAuthenticationToken", "basic_action"} <= names, names


def test_no_error_code_literal_outside_the_catalog():
    names, scanned, found = wire_names(), 0, []
    for path in swift_files_outside_the_catalog():
        scanned += 1
        with open(os.path.join(REPOSITORY, path), encoding="utf-8") as f:
            found += ["%s:%d: %s" % (path, n, what) for n, what in literal_codes(f.read(), names)]
    assert scanned > 100, "found only %d Swift files: the scan lost its files" % scanned
    assert not found, "error codes spelled outside the catalog (use OAuthError.Code / OAuthError.Suberror):\n" + "\n".join(found)


@pytest.mark.parametrize("line", [
    'throw OAuthError(error: "server_error", message: "The token could not be signed.", status: 500)',
    'response = EndpointHandlers.jsonError(status: .notFound, error: "not_found", description: "No endpoint.")',
    'return controlError(.notFound, "tenant_not_found", "No configured tenant.", reason: why)',
    '50076: ("invalid_grant", 400, "basic_action", "Due to a configuration change…"),',
    '#expect(error.error == "Request_BadRequest")',
    'let body: JSONValue = ["error": "access_denied_now", "error_description": "…"]',
    'OAuthError(code: .invalidRequest, message: "m", suberror: "needs_a_case")',
    'if code == "invalid_something_new" { return nil }',
])
def test_a_code_literal_is_reported(line):
    assert literal_codes(line, wire_names()), line


@pytest.mark.parametrize("line", [
    'throw OAuthError(code: .serverError, message: "The token could not be signed.", status: 500)',
    '// Entra answers "invalid_grant" here (a comment may name a code)',
    'let url = "https://login.microsoftonline.com/error" // "invalid_grant" in a trailing comment',
    'response = HTTPResponse.html(pages.render("not_found", [:]), status: .notFound)',
    'return page("devicecode", ["error": "That code didn\'t work. Check the code and try again."], hidden: [])',
    'let grantType = try parameters.required("grant_type")',
])
def test_what_is_not_a_code_literal_is_not_reported(line):
    assert literal_codes(line, wire_names()) == [], line
