"""`mockidp env`: run before the first start (it creates the CA as serve would), evaluated by a real `sh`, and then
requests, MSAL Python and azure-identity reach the server with only those variables: no verify=, no authority
host in the code."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile

import pytest

from conftest import CONTOSO, DAEMON, DAEMON_SECRET, binary, start_server, stop_server

TRUST = ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "CURL_CA_BUNDLE"]

CLIENT = r"""
import json, os, msal, requests
from azure.identity import ClientSecretCredential
base = os.environ["AZURE_AUTHORITY_HOST"]
discovery = requests.get(base + "/%(tenant)s/v2.0/.well-known/openid-configuration").json()
app = msal.ConfidentialClientApplication("%(client)s", client_credential="%(secret)s",
                                         authority=base + "/%(tenant)s", instance_discovery=False)
result = app.acquire_token_for_client(["api://contoso-api/.default"])
credential = ClientSecretCredential("%(tenant)s", "%(client)s", "%(secret)s", disable_instance_discovery=True)
token = credential.get_token("api://contoso-api/.default")
print(json.dumps({"issuer": discovery["issuer"], "msal": "access_token" in result, "azure": bool(token.token)}))
""" % {"tenant": CONTOSO, "client": DAEMON, "secret": DAEMON_SECRET}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_environment():
    env = {k: v for k, v in os.environ.items() if k not in TRUST + ["AZURE_AUTHORITY_HOST"] and not k.startswith("MOCKIDP_")}
    env["MOCKIDP_ENV"] = binary()
    return env


@pytest.fixture
def state_dir():
    # A folder name no shell may take apart: a quote, a space, a dollar and a backquote.
    parent = tempfile.mkdtemp(prefix="mockidp-env-")
    path = os.path.join(parent, "it's a $HOME `dir`")
    yield path
    shutil.rmtree(parent, ignore_errors=True)


def test_eval_in_sh_before_the_first_start_then_clients_trust_and_reach_the_server(state_dir):
    port = free_port()
    env = clean_environment()
    # eval in sh, then run the clients with what sh exported and nothing else of ours.
    script = 'eval "$("$MOCKIDP_ENV" env --state-dir "$1" --port "$2")" && exec "$3" -c "$4"'
    run = lambda: subprocess.run(["sh", "-c", script, "sh", state_dir, str(port), sys.executable, CLIENT],
                                 capture_output=True, text=True, timeout=120, env=env)
    printed = subprocess.run([binary(), "env", "--state-dir", state_dir, "--port", str(port)], capture_output=True,
                             text=True, timeout=30, env=env)
    assert printed.returncode == 0, printed.stderr
    ca = os.path.join(state_dir, "ca.pem")
    assert os.path.isfile(ca)
    with open(ca) as f:
        ca_before = f.read()
    assert ("export SSL_CERT_FILE='%s'\n" % ca.replace("'", "'\\''")) in printed.stdout
    assert printed.stdout.endswith("export AZURE_AUTHORITY_HOST='https://127.0.0.1:%d'\n" % port)

    server = start_server(extra_args=["--state-dir", state_dir], ports=(str(port),))
    try:
        result = run()
        assert result.returncode == 0, result.stderr
        assert '"msal": true' in result.stdout and '"azure": true' in result.stdout
        assert "https://127.0.0.1:%d/%s/v2.0" % (port, CONTOSO) in result.stdout
    finally:
        assert stop_server(server) == 0
    with open(ca) as f:
        assert f.read() == ca_before, "serve must keep the CA that env created"


def test_without_the_variables_the_same_client_fails(state_dir):
    port = free_port()
    server = start_server(extra_args=["--state-dir", state_dir], ports=(str(port),))
    try:
        env = clean_environment()
        env["AZURE_AUTHORITY_HOST"] = "https://127.0.0.1:%d" % port
        result = subprocess.run([sys.executable, "-c", CLIENT], capture_output=True, text=True, timeout=120, env=env)
        assert result.returncode != 0
        assert "CERTIFICATE_VERIFY_FAILED" in result.stderr or "SSLError" in result.stderr
    finally:
        assert stop_server(server) == 0


def test_options_and_formats(state_dir):
    def env_output(*args, extra_env=None):
        env = clean_environment()
        env.update(extra_env or {})
        return subprocess.run([binary(), "env", "--state-dir", state_dir, *args], capture_output=True, text=True,
                              timeout=30, env=env)

    assert "AZURE_AUTHORITY_HOST='http://[::1]:9000'" in env_output("--host", "::", "--port", "9000", "--no-tls").stdout
    assert "AZURE_AUTHORITY_HOST='https://idp.example:8443'" in env_output("--public-url", "https://idp.example:8443/").stdout
    assert "AZURE_AUTHORITY_HOST='https://127.0.0.1:7001'" in env_output(extra_env={"MOCKIDP_PORT": "7001,7002"}).stdout
    assert "set -gx AZURE_AUTHORITY_HOST 'https://127.0.0.1:8443'" in env_output("--shell", "fish").stdout
    assert "$env:AZURE_AUTHORITY_HOST = 'https://127.0.0.1:8443'" in env_output("--shell", "powershell").stdout
    # The state folder's name holds a quote: no dotenv reader agrees on it, so the command says so.
    refused = env_output("--format", "dotenv")
    assert refused.returncode == 1 and "dotenv" in refused.stderr
    plain = tempfile.mkdtemp(prefix="mockidp-env-plain-")
    try:
        dotenv = subprocess.run([binary(), "env", "--format", "dotenv", "--state-dir", plain], capture_output=True,
                                text=True, timeout=30, env=clean_environment()).stdout
        assert ("REQUESTS_CA_BUNDLE=%s/ca.pem\n" % os.path.realpath(plain)) in dotenv or \
               ("REQUESTS_CA_BUNDLE=%s/ca.pem\n" % plain) in dotenv
    finally:
        shutil.rmtree(plain, ignore_errors=True)
    for bad in (["--port", "0"], ["--shell", "tcsh"], ["--format", "json"], ["--shell", "sh", "--format", "dotenv"],
                ["--public-url", "idp.example"]):
        r = env_output(*bad)
        assert r.returncode == 64, (bad, r.stderr)
        assert r.stdout == ""


def test_a_relative_state_directory_is_named_by_its_absolute_path():
    folder = tempfile.mkdtemp(prefix="mockidp-env-rel-")
    try:
        r = subprocess.run([binary(), "env", "--state-dir", "state"], capture_output=True, text=True, timeout=30,
                           env=clean_environment(), cwd=folder)
        assert r.returncode == 0, r.stderr
        ca = os.path.join(os.path.realpath(folder), "state", "ca.pem")
        lines = dict(line[len("export "):].split("=", 1) for line in r.stdout.splitlines())
        assert set(lines) == set(TRUST) | {"AZURE_AUTHORITY_HOST"}
        assert os.path.realpath(lines["SSL_CERT_FILE"].strip("'")) == ca and os.path.isfile(ca)
        assert all(lines[name] == lines["SSL_CERT_FILE"] for name in TRUST)
        assert os.path.isabs(lines["SSL_CERT_FILE"].strip("'"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


MANAGED_IDENTITY_CLIENT = r"""
import json, jwt
from azure.identity import ManagedIdentityCredential
token = ManagedIdentityCredential().get_token("https://management.azure.com/.default")
claims = jwt.decode(token.token, options={"verify_signature": False})
print(json.dumps({"aud": claims["aud"], "idtyp": claims.get("idtyp"), "mirid": claims.get("xms_mirid")}))
"""


def test_with_the_http_port_managed_identity_credential_finds_the_server(state_dir):
    """`--http-port` adds App Service's IDENTITY_ENDPOINT and IDENTITY_HEADER (the state directory's secret), so
    azure-identity's ManagedIdentityCredential gets its token with nothing but what `mockidp env` printed."""
    port, http_port = free_port(), free_port()
    env = clean_environment()
    for name in ("IDENTITY_ENDPOINT", "IDENTITY_HEADER", "MSI_ENDPOINT", "IMDS_ENDPOINT", "AZURE_POD_IDENTITY_AUTHORITY_HOST"):
        env.pop(name, None)
    example = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "config", "examples", "azure-sdk.yaml")
    server = start_server(extra_args=["--state-dir", state_dir, "--config", example, "--http-port", str(http_port)],
                          ports=(str(port),))
    try:
        printed = subprocess.run([binary(), "env", "--state-dir", state_dir, "--port", str(port), "--http-port", str(http_port)],
                                 capture_output=True, text=True, timeout=30, env=env)
        assert printed.returncode == 0, printed.stderr
        with open(os.path.join(state_dir, "identity-header")) as f:
            secret = f.read().strip()
        assert "export IDENTITY_ENDPOINT='http://127.0.0.1:%d/msi/token'\n" % http_port in printed.stdout
        assert "export IDENTITY_HEADER='%s'\n" % secret in printed.stdout
        script = 'eval "$("$MOCKIDP_ENV" env --state-dir "$1" --port "$2" --http-port "$3")" && exec "$4" -c "$5"'
        result = subprocess.run(["sh", "-c", script, "sh", state_dir, str(port), str(http_port), sys.executable,
                                 MANAGED_IDENTITY_CLIENT], capture_output=True, text=True, timeout=120, env=env)
        assert result.returncode == 0, result.stderr
        assert '"aud": "https://management.azure.com"' in result.stdout and '"idtyp": "app"' in result.stdout, result.stdout
        bad = subprocess.run([binary(), "env", "--state-dir", state_dir, "--http-port", "0"], capture_output=True,
                             text=True, timeout=30, env=env)
        assert bad.returncode == 64 and "--http-port" in bad.stderr
    finally:
        assert stop_server(server) == 0
