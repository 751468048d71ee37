"""The README's examples, run as they are written, so they cannot rot.

Each test takes fenced code blocks out of a README section and runs them unchanged: the Python snippets of "Five
minutes with mockidp" and the ADAL snippet (at https://localhost:8443, with port 443 for MSAL's user-realm call, inside
a private namespace so no port of the machine is taken), the control API's curl session, the `mockidp token` example,
and the "Running clients at real host names" shell recipe with its `my_client.py`. (The Swift examples, the compose
file and the CI example are checked by READMEExamplesTests and Tests/docker.)
"""
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

from conftest import binary
from documentation import blocks
from namespace import run_at_real_hosts

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))


def jwt_claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


# --- Five minutes with mockidp, and ADAL: Python snippets at https://localhost:8443 ---------------------------------

def five_minutes(server):
    snippets = blocks("Five minutes with mockidp", "python")
    assert len(snippets) == 4
    scope = {}
    for snippet in snippets:
        exec(compile(snippet, "README.md (Five minutes)", "exec"), scope)
    assert "access_token" in scope["result"], scope["result"]
    assert scope["result"]["id_token_claims"]["preferred_username"] == "alice@contoso.onmicrosoft.com"
    assert scope["claims"]["roles"] == ["Reader", "Writer"]


def adal_snippet(server):
    (snippet,) = blocks("ADAL and the v1 endpoints", "python")
    scope = {}
    exec(compile(snippet, "README.md (ADAL)", "exec"), scope)
    claims = jwt_claims(scope["token"]["accessToken"])
    assert claims["aud"] == "https://graph.microsoft.com" and claims["ver"] == "1.0"


def graph_snippet(server):
    (snippet,) = blocks("Microsoft Graph", "python")
    scope = {}
    exec(compile(snippet, "README.md (Microsoft Graph)", "exec"), scope)
    assert [u.user_principal_name for u in scope["users"].value] == ["alice@contoso.onmicrosoft.com", "bob@contoso.onmicrosoft.com"]
    assert (scope["alice"].display_name, scope["alice"].job_title, scope["alice"].id) == \
        ("Alice Adams", "Buyer", "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a")


def test_graph_snippet_runs_as_written():
    run_at_real_hosts(__file__, "graph_snippet", hosts=[], ports=("8443",))


def test_five_minutes_snippets_run_as_written():
    run_at_real_hosts(__file__, "five_minutes", hosts=[], ports=("8443", "443"))


def test_adal_snippet_runs_as_written():
    run_at_real_hosts(__file__, "adal_snippet", hosts=[], ports=("8443",))


# --- Control API: the curl session --------------------------------------------------------------------------------

def control_session(server):
    (script,) = [b for b in blocks("Control API", "sh") if "_mockidp/faults" in b]
    work = tempfile.mkdtemp(prefix="mockidp-readme-")
    try:
        os.symlink(server.state_dir, os.path.join(work, ".mockidp"))
        # Every call must succeed (--fail-with-body); a 4xx from a stale example fails the test.
        prelude = 'curl() { command curl --fail-with-body -sS --max-time 10 "$@"; echo; }\n'
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", prelude + script], cwd=work, capture_output=True, text=True,
                             timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        answers = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        assert answers[0]["username"] == "bob@contoso.onmicrosoft.com"
        assert any("kid" in a and "previous" in a for a in answers)
        assert any(isinstance(a, dict) and isinstance(a.get("requests"), list) for a in answers)
    finally:
        shutil.rmtree(work)


def test_control_api_curl_session_runs_as_written():
    if not shutil.which("curl"):
        pytest.skip("curl is not installed")
    run_at_real_hosts(__file__, "control_session", hosts=[], ports=("8443",))


# --- mockidp token --------------------------------------------------------------------------------------------------

def test_mockidp_token_example_runs_as_written():
    (command,) = [b for b in blocks("Minting tokens offline: `mockidp token`", "") if b.startswith("mockidp token --client 3f6c")]
    work = tempfile.mkdtemp(prefix="mockidp-readme-")
    try:
        os.symlink(binary(), os.path.join(work, "mockidp"))
        env = dict(os.environ, PATH=work + os.pathsep + os.environ["PATH"])
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=work, env=env, capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        claims = jwt_claims(run.stdout.strip())
        assert claims["department"] == "Research" and claims["scp"] == "access_as_user"
        assert claims["exp"] - claims["iat"] == 600
    finally:
        shutil.rmtree(work)


# --- Running clients at real host names: the shell recipe and my_client.py -------------------------------------------

def test_real_host_names_recipe_runs_as_written():
    from namespace import unshare_refusal
    refusal = unshare_refusal()
    if refusal:
        pytest.skip(refusal)
    (recipe,) = blocks("Running clients at real host names", "sh")
    (client,) = blocks("Running clients at real host names", "python")
    work = tempfile.mkdtemp(prefix="mockidp-readme-")
    try:
        # The recipe runs from the repository (config/examples/…) with `swift build --show-bin-path` naming the binary
        # and ./.mockidp as the state directory; here a scratch copy of what it reads stands in for the repository.
        shutil.copytree(os.path.join(REPOSITORY, "config"), os.path.join(work, "config"))
        with open(os.path.join(work, "my_client.py"), "w") as f:
            f.write(client)
        shims = os.path.join(work, "bin")
        os.mkdir(shims)
        # The recipe runs `<bin path>/mockidp`, whatever the binary under test is called.
        products = os.path.join(work, "products")
        os.mkdir(products)
        os.symlink(os.path.abspath(binary()), os.path.join(products, "mockidp"))
        with open(os.path.join(shims, "swift"), "w") as f:
            f.write('#!/bin/sh\n[ "$*" = "build --show-bin-path" ] && exec echo %s\nexit 64\n' % products)
        os.chmod(os.path.join(shims, "swift"), 0o755)
        # python3 is the test's own interpreter, which has msal.
        with open(os.path.join(shims, "python3"), "w") as f:
            f.write('#!/bin/sh\nexec %s "$@"\n' % sys.executable)
        os.chmod(os.path.join(shims, "python3"), 0o755)
        env = dict(os.environ, PATH=shims + os.pathsep + os.environ["PATH"])
        env.pop("REQUESTS_CA_BUNDLE", None)
        # In a session of its own: the recipe waits in a loop for the server, so when the server does not start, the
        # timeout must end the whole group (subprocess.run would kill bash alone and then wait on the loop's pipes).
        recipe_run = subprocess.Popen(["bash", "-euo", "pipefail", "-c", recipe], cwd=work, env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            stdout, stderr = recipe_run.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(recipe_run.pid, signal.SIGKILL)
            stdout, stderr = recipe_run.communicate()
            pytest.fail("the recipe did not finish in 120 s:\n" + stdout + stderr)
        run = subprocess.CompletedProcess(recipe_run.args, recipe_run.returncode, stdout, stderr)
        assert run.returncode == 0, run.stdout + run.stderr
        assert run.stdout.splitlines() == ["mockidp listening on https://127.0.0.1:443",
                                           "https://login.microsoftonline.us/4712c55e-5996-4a23-b912-9014db0ff64d/v2.0"], run.stdout
    finally:
        shutil.rmtree(work)
