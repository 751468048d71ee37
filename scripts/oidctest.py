"""Runs the OpenID Foundation's OP test tool (oidctest) against mockidp: the static-client Basic profile (C.F.T.F).

Started by scripts/oidctest, in the tool's own Python (3.8 or 3.9: its `oic` and `otest` predate 3.10). It starts
mockidp with a confidential app whose redirect URI is the tool's callback, starts the tool's op_test_tool.py from a
copy of the openid-certification/oidctest checkout's test_tool/cp/test_op, and plays the browser the tool expects:
it follows the tool's "Note" pages (clearing mockidp's cookies where a note asks for it, as a tester would), signs
in on mockidp's sign-in page, and reads each flow's verdict from the tool's own log. It prints a table and exits 1
when a verdict is not the one expected below (Entra's own behaviour, see docs/fidelity.md), so it cannot pass by
accident.

    python scripts/oidctest.py --binary .build/debug/mockidp --oidctest <oidctest checkout> [FLOW ...]
"""
import argparse
import html as htmlmod
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

import requests
import urllib3

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "clients"))
from html_forms import forms  # noqa: E402

urllib3.disable_warnings()

TENANT = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
CLIENT_ID = "0d1c2b3a-4f5e-4a6b-8c7d-9e0f1a2b3c4d"
CLIENT_SECRET = "oidctest-secret"
USER, PASSWORD = "alice@contoso.onmicrosoft.com", "alice-password"
PROFILE = "C.F.T.F"  # response type code, no WebFinger, discovery, static registration

MOCKIDP_CONFIG = """\
tenants:
  - id: %s
    apps:
      - clientId: %s
        name: OpenID conformance tool
        type: confidential
        secret: %s
        redirectUris: [http://localhost/authz_cb]
""" % (TENANT, CLIENT_ID, CLIENT_SECRET)

# Every flow of the Basic static profile passes but these, which Entra fails the same way (docs/fidelity.md,
# "The OpenID Foundation's OP test tool").
EXPECTED = {
    "OP-UserInfo-Body": ("PARTIAL RESULT", "UserInfo is a Microsoft Graph API: the token only in the Authorization header"),
    "OP-scope-address": ("PARTIAL RESULT", "no address scope (scopes_supported: openid profile email offline_access)"),
    "OP-scope-phone": ("PARTIAL RESULT", "no phone scope"),
    "OP-scope-All": ("PARTIAL RESULT", "asks for address and phone"),
    "OP-scope-email": ("WARNING", "UserInfo has no email_verified"),
    "OP-scope-profile": ("WARNING", "UserInfo has only name, given_name, family_name, picture of the profile claims"),
    "OP-claims-essential": ("WARNING", "no claims request for UserInfo: name only with the profile scope"),
    "OP-Req-acr_values": ("WARNING", "acr_values ignored; v2.0 ID tokens carry no acr"),
    "OP-OAuth-2nd-Revokes": ("WARNING", "a replayed code is refused (AADSTS54005) but access tokens cannot be revoked"),
    "OP-redirect_uri-NotReg": ("PARTIAL RESULT", "AADSTS50011 on the error page, never a redirect: the tool then asks "
                                                 "for a screenshot (an accepted outcome)"),
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(path_or_url, process, what, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit("%s exited with %s" % (what, process.returncode))
        if path_or_url.startswith("http"):
            try:
                requests.get(path_or_url, timeout=2)
                return
            except requests.ConnectionError:
                pass
        elif os.path.exists(path_or_url):
            return
        time.sleep(0.1)
    raise SystemExit("%s did not start" % what)


class Browser:
    """A browser without JavaScript: the tool's pages and mockidp's sign-in page."""

    def __init__(self, tool):
        self.tool = tool
        self.s = requests.Session()

    def get(self, url):
        return self.s.get(url, allow_redirects=False, verify=False, timeout=120)

    def run(self, flow):
        resp = self.get(self.tool + "run?test=" + urllib.parse.quote(flow))
        for _ in range(30):
            if resp.is_redirect:
                resp = self.get(urllib.parse.urljoin(resp.url, resp.headers["Location"]))
            elif resp.url.startswith(self.tool):
                link = re.search(r'href="(' + re.escape(self.tool) + r'continue\?[^"]*)"', resp.text)
                if not link:
                    return resp
                if "remove any cookies" in resp.text:  # the note asks the tester to sign out of the OP
                    for c in list(self.s.cookies):
                        if c.name.startswith("mockidp"):
                            self.s.cookies.clear(c.domain, c.path, c.name)
                resp = self.get(htmlmod.unescape(link.group(1)))
            else:
                page = forms(resp.text) if "html" in resp.headers.get("Content-Type", "") else []
                if not page:
                    return resp  # an error page shown to the user
                form = next((f for f in page if any(k == "password" for k, _ in f["fields"])), page[0])
                data = dict(form["fields"])
                if "password" in data:
                    data.update(username=USER, password=PASSWORD)
                elif form["buttons"]:
                    data.update([form["buttons"][0]])
                action = urllib.parse.urljoin(resp.url, htmlmod.unescape(form["action"] or resp.url))
                resp = self.s.post(action, data=data, allow_redirects=False, verify=False, timeout=120)
        return resp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--oidctest", required=True, help="a checkout of openid-certification/oidctest")
    ap.add_argument("--keep", action="store_true", help="keep the working directory (logs per flow)")
    ap.add_argument("flows", nargs="*")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="oidctest-")
    procs = []
    try:
        with open(os.path.join(work, "mockidp.yaml"), "w") as f:
            f.write(MOCKIDP_CONFIG)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        ready = os.path.join(work, "ready")
        mockidp = subprocess.Popen(
            [args.binary, "serve", "--config", os.path.join(root, "config", "default.yaml"),
             "--config", os.path.join(work, "mockidp.yaml"), "--state-dir", os.path.join(work, "state"),
             "--port", "0", "--ready-file", ready],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "mockidp.log"), "w"))
        procs.append(mockidp)
        wait_for(ready, mockidp, "mockidp")
        port = open(ready).read().strip().rsplit(":", 1)[1]
        issuer = "https://localhost:%s/%s/v2.0" % (port, TENANT)

        tool_dir = os.path.join(work, "tool")
        shutil.copytree(os.path.join(args.oidctest, "test_tool", "cp", "test_op"), tool_dir)
        for d in ("keys", "jwks", "export", "requests", "log", "server_log"):
            os.makedirs(os.path.join(tool_dir, d), exist_ok=True)
        tool_port = free_port()
        tool = "http://localhost:%d/" % tool_port
        entity = os.path.join(tool_dir, "entities", urllib.parse.quote_plus(issuer))
        os.makedirs(entity)
        with open(os.path.join(entity, "default"), "w") as f:
            json.dump({"tool": {"issuer": issuer, "tag": "default", "profile": PROFILE, "insecure": True,
                                "login_hint": USER, "acr_values": []},
                       "client": {"registration_response": {
                           "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
                           "redirect_uris": [tool + "authz_cb"],
                           "token_endpoint_auth_method": "client_secret_basic"}}}, f)
        with open(os.path.join(tool_dir, "tt_config.py"), "w") as f:
            f.write("BASE = 'http://localhost'\nENT_PATH = 'entities'\nENT_INFO = 'entity_info'\n"
                    "PRE_HTML = 'html/tt'\nKEYS = [\n"
                    "    {'key': 'keys/enc.key', 'type': 'RSA', 'use': ['enc']},\n"
                    "    {'key': 'keys/sig.key', 'type': 'RSA', 'use': ['sig']},\n"
                    "    {'crv': 'P-256', 'type': 'EC', 'use': ['sig']},\n"
                    "    {'crv': 'P-256', 'type': 'EC', 'use': ['enc']}]\n"
                    "SESSION_CHANGE_URL = '{}session_change'\nSESSION_UNCHANGE_URL = '{}session_unchange'\n"
                    "SESSION_MAX_CHECKS = 3\n")
        tool_proc = subprocess.Popen(
            [sys.executable, "op_test_tool.py", "-k", "-i", issuer, "-t", "default", "-p", str(tool_port),
             "-f", "flows", "-H", "html/tt", "tt_config"],
            cwd=tool_dir, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "tool.log"), "w"))
        procs.append(tool_proc)
        wait_for(tool, tool_proc, "op_test_tool.py")

        listed = re.findall(r"\((OP-[^)]+)\)", re.sub("<[^>]*>", "", requests.get(tool).text))
        flows = args.flows or listed
        browser = Browser(tool)
        logs = None
        failures = 0
        print("%-34s %-15s %-15s %s" % ("flow", "verdict", "expected", "why"))
        for flow in flows:
            browser.run(flow)
            if logs is None:
                found = [d for d, _, files in os.walk(os.path.join(tool_dir, "log")) if d.endswith(PROFILE)]
                logs = found[0] if found else os.path.join(tool_dir, "log")
            try:
                text = open(os.path.join(logs, flow + ".txt")).read()
                verdict = re.search(r"^RESULT: (.*)$", text, re.M).group(1).strip()
            except (OSError, AttributeError):
                verdict = "NO RESULT"
            expected, why = EXPECTED.get(flow, ("PASSED", ""))
            mark = "" if verdict == expected else "  <-- differs"
            failures += verdict != expected
            print("%-34s %-15s %-15s %s%s" % (flow, verdict, expected, why, mark))
        print("%d flows, %d as expected" % (len(flows), len(flows) - failures))
        if args.keep:
            print("logs in", logs)
        return 1 if failures else 0
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
