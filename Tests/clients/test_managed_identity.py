"""azure-identity's managed identity credentials, unmodified, against mockidp's IMDS, App Service and Cloud Shell
endpoints on a plain-HTTP listener (--http-port), each test in a clean environment."""
import os
import stat
import subprocess
import sys
import time

import jwt
import pytest
import requests
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
from azure.identity import (ClientSecretCredential, CredentialUnavailableError, DefaultAzureCredential,
                            ManagedIdentityCredential)

from conftest import API, CONTOSO, DAEMON, DAEMON_SECRET, binary, start_server, stop_server

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "config", "examples", "azure-sdk.yaml")
SYSTEM = "2d0f6b0e-8a7c-4b3e-9f1d-5c6a7b8e9f01"
SYSTEM_OID = "4f3e2d1c-0b9a-4876-9543-210fedcba987"
SYSTEM_RES = ("/subscriptions/0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9/resourceGroups/contoso/providers/"
              "Microsoft.Compute/virtualMachines/worker-vm")
WORKER = "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c"
WORKER_OID = "1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b"
WORKER_RES = ("/subscriptions/0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9/resourceGroups/contoso/providers/"
              "Microsoft.ManagedIdentity/userAssignedIdentities/worker")
ARM = "https://management.azure.com/.default"
V1_ISSUER = "https://sts.windows.net/%s/" % CONTOSO

# Every variable azure-identity and MSAL read to pick a credential or a managed-identity host.
SDK_VARIABLES = ["AZURE_POD_IDENTITY_AUTHORITY_HOST", "IDENTITY_ENDPOINT", "IDENTITY_HEADER", "IDENTITY_SERVER_THUMBPRINT",
                 "IMDS_ENDPOINT", "MSI_ENDPOINT", "MSI_SECRET", "AZURE_CLIENT_ID", "AZURE_TENANT_ID", "AZURE_CLIENT_SECRET",
                 "AZURE_CLIENT_CERTIFICATE_PATH", "AZURE_USERNAME", "AZURE_PASSWORD", "AZURE_FEDERATED_TOKEN_FILE",
                 "AZURE_AUTHORITY_HOST", "AZURE_TOKEN_CREDENTIALS"]


class Listeners:
    def __init__(self, server, http_url):
        self.server = server
        self.http = http_url
        with open(os.path.join(server.state_dir, "identity-header"), encoding="utf-8") as f:
            self.identity_header = f.read().strip()

    def keys(self):
        doc = requests.get("%s/%s/discovery/keys" % (self.http, CONTOSO), timeout=10).json()
        return {k["kid"]: jwt.PyJWK(k).key for k in doc["keys"]}

    def verify(self, token, audience, issuer=V1_ISSUER):
        key = self.keys()[jwt.get_unverified_header(token)["kid"]]
        return jwt.decode(token, key, algorithms=["RS256"], audience=audience, issuer=issuer)


def listening_lines(process, count):
    return [process.stdout.readline().decode().strip() for _ in range(count)]


@pytest.fixture(scope="module")
def idp():
    s = start_server(["--config", EXAMPLE, "--http-port", "0"])
    lines = listening_lines(s.process, 2)
    assert lines[0] == "mockidp listening on " + s.base_url and lines[0].startswith("mockidp listening on https://")
    assert lines[1].startswith("mockidp listening on http://127.0.0.1:")
    yield Listeners(s, lines[1][len("mockidp listening on "):])
    assert stop_server(s) == 0


@pytest.fixture
def env(monkeypatch):
    for name in SDK_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def imds(idp, env):
    env.setenv("AZURE_POD_IDENTITY_AUTHORITY_HOST", idp.http)


def app_service(idp, env):
    env.setenv("IDENTITY_ENDPOINT", idp.http + "/msi/token")
    env.setenv("IDENTITY_HEADER", idp.identity_header)


def assert_identity(claims, client_id, object_id, resource_id):
    assert claims["appid"] == client_id
    assert claims["oid"] == object_id and claims["sub"] == object_id
    assert claims["xms_mirid"] == resource_id
    assert claims["idtyp"] == "app" and claims["tid"] == CONTOSO and claims["ver"] == "1.0"
    assert claims["appidacr"] == "2"


# IMDS (AZURE_POD_IDENTITY_AUTHORITY_HOST)

def test_imds_system_assigned_identity(idp, env):
    imds(idp, env)
    token = ManagedIdentityCredential().get_token(ARM)
    claims = idp.verify(token.token, "https://management.azure.com")
    assert_identity(claims, SYSTEM, SYSTEM_OID, SYSTEM_RES)


USER_ASSIGNED = {
    "client_id": lambda: ManagedIdentityCredential(client_id=WORKER),
    "object_id": lambda: ManagedIdentityCredential(identity_config={"object_id": WORKER_OID}),
    "resource_id": lambda: ManagedIdentityCredential(identity_config={"resource_id": WORKER_RES}),
}


@pytest.mark.parametrize("how", sorted(USER_ASSIGNED))
@pytest.mark.parametrize("host,resource", [(imds, "https://vault.azure.net"), (app_service, "https://database.windows.net")])
def test_user_assigned_identity(idp, env, host, resource, how):
    host(idp, env)
    token = USER_ASSIGNED[how]().get_token(resource + "/.default")
    assert_identity(idp.verify(token.token, resource), WORKER, WORKER_OID, WORKER_RES)


def test_default_azure_credential_through_imds(idp, env):
    imds(idp, env)
    token = DefaultAzureCredential(managed_identity_client_id=WORKER).get_token("https://storage.azure.com/.default")
    assert_identity(idp.verify(token.token, "https://storage.azure.com"), WORKER, WORKER_OID, WORKER_RES)


def test_imds_token_for_a_v2_api_of_the_tenant(idp, env):
    imds(idp, env)
    token = ManagedIdentityCredential(client_id=WORKER).get_token("api://contoso-api/.default")
    claims = idp.verify(token.token, API, issuer="%s/%s/v2.0" % (idp.http, CONTOSO))
    assert claims["azp"] == WORKER and claims["oid"] == WORKER_OID == claims["sub"]
    assert claims["xms_mirid"] == WORKER_RES and claims["idtyp"] == "app" and claims["ver"] == "2.0"


def test_imds_answers_azure_identitys_availability_probe_with_400(idp, env):
    imds(idp, env)
    # The probe azure-identity sends inside a credential chain: the token request without 'Metadata: true'. A 400
    # with a JSON body tells it IMDS is there (imds.py: "IMDS responded").
    from azure.identity._credentials.imds import _get_request
    from azure.identity._internal.managed_identity_client import ManagedIdentityClient
    with pytest.raises(HttpResponseError) as raised:
        ManagedIdentityClient(_get_request).request_token(ARM, connection_timeout=1, retry_total=0)
    assert raised.value.status_code == 400


# App Service (IDENTITY_ENDPOINT + IDENTITY_HEADER)

def test_app_service_system_assigned_identity(idp, env):
    app_service(idp, env)
    token = ManagedIdentityCredential().get_token(ARM)
    assert_identity(idp.verify(token.token, "https://management.azure.com"), SYSTEM, SYSTEM_OID, SYSTEM_RES)


def test_default_azure_credential_through_app_service(idp, env):
    app_service(idp, env)
    token = DefaultAzureCredential().get_token("https://servicebus.azure.net/.default")
    assert_identity(idp.verify(token.token, "https://servicebus.azure.net"), SYSTEM, SYSTEM_OID, SYSTEM_RES)


def test_app_service_with_a_wrong_identity_header_fails_in_the_sdk(idp, env):
    env.setenv("IDENTITY_ENDPOINT", idp.http + "/msi/token")
    env.setenv("IDENTITY_HEADER", "not-the-secret")
    with pytest.raises((ClientAuthenticationError, CredentialUnavailableError)):
        ManagedIdentityCredential().get_token(ARM)


# Cloud Shell (MSI_ENDPOINT)

def test_cloud_shell_system_assigned_identity(idp, env):
    env.setenv("MSI_ENDPOINT", idp.http + "/msi/token")
    token = ManagedIdentityCredential().get_token("https://eventhubs.azure.net/.default")
    assert_identity(idp.verify(token.token, "https://eventhubs.azure.net"), SYSTEM, SYSTEM_OID, SYSTEM_RES)


# Refusals, on the wire

def imds_get(idp, headers=None, **params):
    query = {"api-version": "2018-02-01", "resource": "https://management.azure.com/"}
    query.update(params)
    return requests.get(idp.http + "/metadata/identity/oauth2/token", params=query, headers=headers, timeout=10)


def last_reason(idp):
    return requests.get(idp.http + "/_mockidp/requests", timeout=10).json()["requests"][-1]["reason"]


def test_imds_answers_as_imds_does(idp):
    r = imds_get(idp, {"Metadata": "true"})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json")
    body = r.json()
    assert list(body) == ["access_token", "client_id", "expires_in", "expires_on", "ext_expires_in", "not_before",
                          "resource", "token_type"]
    assert all(isinstance(v, str) for v in body.values())
    assert body["resource"] == "https://management.azure.com/" and body["client_id"] == SYSTEM
    assert int(body["expires_on"]) - int(body["not_before"]) == int(body["expires_in"]) == 3600
    # v1 `aud` is the resource exactly as requested.
    assert idp.verify(body["access_token"], "https://management.azure.com/")["aud"] == "https://management.azure.com/"


def test_imds_refuses_a_request_without_the_metadata_header(idp):
    for headers in (None, {"Metadata": "True"}):
        r = imds_get(idp, headers)
        assert r.status_code == 400
        assert r.json() == {"error": "invalid_request", "error_description": "Required metadata header not specified"}
    assert "Metadata header" in last_reason(idp)


def test_imds_refuses_an_unknown_identity(idp):
    for selector in ({"client_id": "00000000-0000-0000-0000-000000000001"}, {"object_id": "nope"},
                     {"msi_res_id": "/subscriptions/x/nothing"}):
        r = imds_get(idp, {"Metadata": "true"}, **selector)
        assert r.status_code == 400
        assert r.json() == {"error": "invalid_request", "error_description": "Identity not found"}
    assert "no managed identity" in last_reason(idp)


def test_imds_refuses_an_unknown_resource_with_invalid_resource(idp):
    r = imds_get(idp, {"Metadata": "true"}, resource="https://nobody.example.com")
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "invalid_resource" and body["error_codes"] == [500011]
    assert body["error_description"].startswith("AADSTS500011: The resource principal named https://nobody.example.com")


def test_imds_refuses_bad_parameters_without_a_500(idp):
    cases = [
        ({"api-version": ""}, "api-version"), ({"api-version": "2017-01-01"}, "api-version"),
        ({"resource": ""}, "resource"), ({"client_id": WORKER, "object_id": WORKER_OID}, "object_id"),
        ({"client_id": ""}, "client_id"),
    ]
    for params, name in cases:
        r = imds_get(idp, {"Metadata": "true"}, **params)
        assert r.status_code == 400, params
        assert r.json()["error"] == "invalid_request" and name in r.json()["error_description"]
    r = requests.get(idp.http + "/metadata/identity/oauth2/token?resource=a&resource=b&api-version=2018-02-01",
                     headers={"Metadata": "true"}, timeout=10)
    assert r.status_code == 400 and "more than once" in r.json()["error_description"]


def app_service_get(idp, headers, **params):
    query = {"api-version": "2019-08-01", "resource": "https://vault.azure.net"}
    query.update(params)
    return requests.get(idp.http + "/msi/token", params=query, headers=headers, timeout=10)


def test_app_service_answers_as_app_service_does(idp):
    r = app_service_get(idp, {"X-IDENTITY-HEADER": idp.identity_header}, principal_id=WORKER_OID)
    assert r.status_code == 200
    body = r.json()
    assert list(body) == ["access_token", "expires_on", "resource", "token_type", "client_id"]
    assert body["client_id"] == WORKER and body["resource"] == "https://vault.azure.net"
    assert_identity(idp.verify(body["access_token"], "https://vault.azure.net"), WORKER, WORKER_OID, WORKER_RES)


def test_app_service_refuses_a_missing_or_wrong_identity_header_with_401(idp):
    for headers in ({}, {"X-IDENTITY-HEADER": "wrong"}):
        r = app_service_get(idp, headers)
        assert r.status_code == 401
        assert r.json()["statusCode"] == 401
    assert "X-IDENTITY-HEADER" in last_reason(idp)


def test_app_service_refuses_an_unknown_identity_in_its_own_shape(idp):
    r = app_service_get(idp, {"X-IDENTITY-HEADER": idp.identity_header}, client_id="00000000-0000-0000-0000-000000000002")
    assert r.status_code == 400
    body = r.json()
    assert body["statusCode"] == 400 and body["message"] == "Unable to load the proper Managed Identity."
    assert r.headers["X-CORRELATION-ID"] == body["correlationId"]


def test_app_service_refuses_an_unknown_resource(idp):
    r = app_service_get(idp, {"X-IDENTITY-HEADER": idp.identity_header}, resource="https://nobody.example.com")
    assert r.status_code == 400 and r.json()["message"].startswith("AADSTS500011")


def test_cloud_shell_needs_the_metadata_header_and_a_form(idp):
    url = idp.http + "/msi/token"
    r = requests.post(url, data={"resource": "https://management.azure.com/"}, timeout=10)
    assert r.status_code == 400 and r.json()["error_description"] == "Required metadata header not specified"
    r = requests.post(url, data="{}", headers={"Metadata": "true", "Content-Type": "application/json"}, timeout=10)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    r = requests.post(url, data={"resource": "https://management.azure.com/"}, headers={"Metadata": "true"}, timeout=10)
    assert r.status_code == 200 and r.json()["client_id"] == SYSTEM


def test_the_sdk_sees_an_unknown_user_assigned_identity_as_unavailable(idp, env):
    imds(idp, env)
    with pytest.raises((CredentialUnavailableError, ClientAuthenticationError), match="Identity not found"):
        ManagedIdentityCredential(client_id="00000000-0000-0000-0000-000000000003").get_token(ARM)


# Azure's built-in resources for client credentials

def test_client_credentials_for_azure_built_in_resources(idp, env):
    env.setenv("REQUESTS_CA_BUNDLE", idp.server.ca)
    credential = ClientSecretCredential(CONTOSO, DAEMON, DAEMON_SECRET, authority=idp.server.base_url,
                                        disable_instance_discovery=True)
    for scope, audience in [("https://vault.azure.net/.default", "https://vault.azure.net"),
                            ("https://management.azure.com//.default", "https://management.azure.com/"),
                            ("https://storage.azure.com/.default", "https://storage.azure.com")]:
        token = credential.get_token(scope)
        claims = jwt.decode(token.token, options={"verify_signature": False})
        assert claims["iss"] == V1_ISSUER and claims["appid"] == DAEMON and claims["idtyp"] == "app"
        assert claims["aud"] in (audience, audience.rstrip("/")), claims["aud"]
        assert "xms_mirid" not in claims


# Control API and command line

def test_a_managed_identity_added_at_run_time_gets_tokens_until_reset(idp):
    added = "3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7"
    r = requests.post(idp.http + "/_mockidp/tenants/contoso.onmicrosoft.com/managedIdentities",
                      json={"clientId": added}, timeout=10)
    assert r.status_code == 201 and r.json()["clientId"] == added
    token = imds_get(idp, {"Metadata": "true"}, client_id=added).json()["access_token"]
    claims = idp.verify(token, "https://management.azure.com/")
    assert claims["appid"] == added and claims["oid"] == r.json()["objectId"]
    assert claims["xms_mirid"] == r.json()["resourceId"]
    # A second system-assigned identity is refused, as in the configuration file.
    r = requests.post(idp.http + "/_mockidp/tenants/contoso.onmicrosoft.com/managedIdentities",
                      json={"clientId": "4e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7", "systemAssigned": True}, timeout=10)
    assert r.status_code == 400 and "systemAssigned" in r.json()["error_description"]
    assert requests.post(idp.http + "/_mockidp/reset", timeout=10).status_code == 200
    assert imds_get(idp, {"Metadata": "true"}, client_id=added).status_code == 400


def test_the_identity_header_is_kept_private_and_reused():
    first = start_server(["--http-port", "0"])
    try:
        path = os.path.join(first.state_dir, "identity-header")
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        with open(path, encoding="utf-8") as f:
            secret = f.read().strip()
        assert len(secret) >= 32 and secret in first.log()
        # A later start on the same state directory keeps it.
        ready = os.path.join(first.state_dir, "second-ready")
        second = subprocess.Popen([binary(), "serve", "--state-dir", first.state_dir, "--port", "0", "--ready-file", ready],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 20
        while not os.path.exists(ready) and second.poll() is None and time.time() < deadline:
            time.sleep(0.01)
        second.terminate()
        _, err = second.communicate(timeout=10)
        assert secret in err.decode()
    finally:
        assert stop_server(first) == 0


def test_an_empty_identity_header_is_refused():
    r = subprocess.run([binary(), "serve", "--identity-header", ""], capture_output=True, text=True, timeout=30)
    assert r.returncode == 64 and "--identity-header" in r.stderr


def test_the_azure_sdk_example_passes_config_check():
    r = subprocess.run([binary(), "config", "check", EXAMPLE], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr


# The README's section and the compose example

def test_the_readme_snippet_gets_a_token_through_imds(idp, env):
    import re
    from documentation import section as documented
    section = documented("Azure SDKs: managed identity")
    (snippet,) = re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M)
    (imds_export, app_service_exports) = re.findall(r"^```sh\n(export .*?)^```$", section, flags=re.S | re.M)
    assert imds_export.strip() == "export AZURE_POD_IDENTITY_AUTHORITY_HOST=http://127.0.0.1:8080"
    assert "IDENTITY_ENDPOINT=http://127.0.0.1:8080/msi/token" in app_service_exports
    assert "IDENTITY_HEADER=$(cat .mockidp/identity-header)" in app_service_exports
    for variables in ({"AZURE_POD_IDENTITY_AUTHORITY_HOST": idp.http},
                      {"IDENTITY_ENDPOINT": idp.http + "/msi/token", "IDENTITY_HEADER": idp.identity_header}):
        for name in SDK_VARIABLES:
            env.delenv(name, raising=False)
        for name, value in variables.items():
            env.setenv(name, value)
        scope = {}
        exec(compile(snippet, "README.md (Azure SDKs: managed identity)", "exec"), scope)
        assert_identity(idp.verify(scope["token"].token, "https://management.azure.com"), SYSTEM, SYSTEM_OID, SYSTEM_RES)


def test_the_compose_example_points_the_app_at_the_imds_listener():
    import yaml
    with open(os.path.join(HERE, "..", "..", "docker", "compose.managed-identity.yaml"), encoding="utf-8") as f:
        compose = yaml.safe_load(f)
    command = compose["services"]["mockidp"]["command"]
    port = command[command.index("--http-port") + 1]
    assert compose["services"]["app"]["environment"]["AZURE_POD_IDENTITY_AUTHORITY_HOST"] == "http://mockidp:%s" % port
    config = command[command.index("--config") + 1]
    mount = next(v for v in compose["services"]["mockidp"]["volumes"] if v.endswith(":/config:ro"))
    assert os.path.exists(os.path.join(HERE, "..", "..", "docker", mount.split(":")[0], os.path.basename(config)))
    # The server starts with the compose file's arguments (port 0 for the fixed 8080).
    s = start_server(command[1:command.index("--config")] + ["--config", EXAMPLE, "--http-port", "0"])
    try:
        lines = listening_lines(s.process, 2)
        assert lines[1].startswith("mockidp listening on http://")
    finally:
        assert stop_server(s) == 0


def test_azure_identity_retries_an_injected_imds_failure(idp, env):
    imds(idp, env)
    r = requests.post(idp.http + "/_mockidp/faults", json={"endpoint": "managedidentity", "status": 500, "error": "server_error",
                                                           "clientId": WORKER, "count": 1}, timeout=10)
    assert r.status_code == 201, r.text
    # azure-identity's IMDS policy retries 5xx (imds.py PIPELINE_SETTINGS); the second attempt gets the token.
    token = ManagedIdentityCredential(client_id=WORKER).get_token("https://vault.azure.net/.default")
    assert_identity(idp.verify(token.token, "https://vault.azure.net"), WORKER, WORKER_OID, WORKER_RES)
    statuses = [e["status"] for e in requests.get(idp.http + "/_mockidp/requests", timeout=10).json()["requests"]
                if e["path"] == "/metadata/identity/oauth2/token"][-2:]
    assert statuses == [500, 200]


# At IMDS's real address, with no variable at all

IMDS_CHILD = r'''
import os, subprocess, sys, tempfile, time
import jwt, requests
from azure.identity import DefaultAzureCredential
binary, example = sys.argv[1], sys.argv[2]
state = tempfile.mkdtemp(prefix="mockidp-imds-")
ready = os.path.join(state, "ready")
server = subprocess.Popen([binary, "serve", "--config", example, "--host", "169.254.169.254", "--port", "0",
                           "--http-port", "80", "--state-dir", state, "--ready-file", ready, "--admin-token", "t"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    deadline = time.time() + 20
    while not os.path.exists(ready):
        assert server.poll() is None and time.time() < deadline, "mockidp did not start"
        time.sleep(0.01)
    # DefaultAzureCredential as in an Azure VM: it probes IMDS (the request without Metadata: true), then asks it.
    token = DefaultAzureCredential().get_token("https://management.azure.com/.default").token
    keys = requests.get("http://169.254.169.254/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/discovery/keys", timeout=10).json()
    key = {k["kid"]: jwt.PyJWK(k).key for k in keys["keys"]}[jwt.get_unverified_header(token)["kid"]]
    claims = jwt.decode(token, key, algorithms=["RS256"], audience="https://management.azure.com",
                        issuer="https://sts.windows.net/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/")
    assert claims["appid"] == sys.argv[3], claims
    # The caller's address is 169.254.169.254, not loopback: the control API wants the admin token.
    log = requests.get("http://169.254.169.254/_mockidp/requests", headers={"Authorization": "Bearer t"}, timeout=10).json()["requests"]
    probe = [e for e in log if e["path"] == "/metadata/identity/oauth2/token"]
    assert [e["status"] for e in probe] == [400, 200], probe
    print("ok")
finally:
    server.terminate()
    server.wait(timeout=10)
'''


def test_default_azure_credential_finds_mockidp_at_imds_real_address_with_no_variable(env, tmp_path):
    from namespace import unshare_refusal
    refusal = unshare_refusal()
    if refusal:
        pytest.skip(refusal)
    child = tmp_path / "imds_child.py"
    child.write_text(IMDS_CHILD)
    # A private network namespace whose loopback also holds 169.254.169.254 (the machine's network is never touched).
    script = "ip link set lo up && ip addr add 169.254.169.254/32 dev lo && exec \"$0\" \"$@\""
    r = subprocess.run(["unshare", "--net", "--", "sh", "-c", script, sys.executable, str(child), binary(), EXAMPLE, SYSTEM],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
