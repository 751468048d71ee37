"""Workload identity federation with azure-identity, unmodified: WorkloadIdentityCredential with a projected token
file (as on AKS) and ClientAssertionCredential with a callback, against tokens of issuers the test makes itself
(a JWKS file, and a jwksUri served by a tiny HTTP server) and of one of mockidp's own tenants. Each test runs in a
clean environment (only the variables it sets), and every issued token is verified with PyJWT against the key set
mockidp publishes."""
import http.server
import json
import os
import re
import threading
import time
import uuid

import jwt
import pytest
import requests
from azure.core.exceptions import ClientAuthenticationError
from azure.identity import ClientAssertionCredential, ClientSecretCredential, WorkloadIdentityCredential
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from conftest import own_session, start_server, stop_server

TENANT = "0b7e2c4d-1f3a-4e5b-8c6d-7e8f9a0b1c2d"
SOURCE_TENANT = "1c8f3d5e-2a4b-4f6c-9d7e-8f9a0b1c2d3e"
WORKLOAD = "2d9a4e6f-3b5c-4a7d-8e8f-9a0b1c2d3e4f"      # federated credentials only: confidential by default
DAEMON = "3e0b5f7a-4c6d-4b8e-9f9a-0b1c2d3e4f5a"        # a secret, no federated credential
API = "4f1c6a8b-5d7e-4c9f-8a0b-1c2d3e4f5a6b"
SOURCE_APP = "5a2d7b9c-6e8f-4d0a-9b1c-2d3e4f5a6b7c"     # in the source tenant: its token is the assertion
EXCHANGE = "6b3e8c0d-7f9a-4e1b-8c2d-3e4f5a6b7c8d"       # the source tenant's api://AzureADTokenExchange

CLUSTER = "https://oidc.cluster.example/3f2a/"       # trusted by a JWKS file
SERVICE_ACCOUNT = "system:serviceaccount:default:orders-worker"
EXCHANGE_AUDIENCE = "api://AzureADTokenExchange"
SCOPE = "api://workload-api/.default"


def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def public_jwk(key, kid):
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": kid, "use": "sig", "alg": "RS256"})
    return jwk


def pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def sign(key, kid, issuer, subject=SERVICE_ACCOUNT, audience=(EXCHANGE_AUDIENCE,), lifetime=3600, **claims):
    """A token shaped like a Kubernetes projected service-account token (aud a list, as the API server writes it)."""
    now = int(time.time())
    payload = {"iss": issuer, "sub": subject, "aud": list(audience), "iat": now, "nbf": now, "exp": now + lifetime,
               "kubernetes.io": {"namespace": "default", "serviceaccount": {"name": "orders-worker"}}}
    payload.update(claims)
    return jwt.encode(payload, pem(key), algorithm="RS256", headers={"kid": kid})


class KeySetServer:
    """A tiny http.server serving a JWKS at /jwks on loopback, counting the fetches."""

    def __init__(self):
        self.keys = []
        self.fetches = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path != "/jwks":
                    self.send_error(404)
                    return
                outer.fetches += 1
                body = json.dumps({"keys": outer.keys}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Setup:
    pass


@pytest.fixture(scope="module")
def federation(tmp_path_factory):
    folder = tmp_path_factory.mktemp("federation")
    s = Setup()
    s.cluster_key, s.uri_key, s.stranger_key = rsa_key(), rsa_key(), rsa_key()
    (folder / "cluster-jwks.json").write_text(json.dumps({"keys": [public_jwk(s.cluster_key, "cluster-1")]}))
    s.keys = KeySetServer()
    s.keys.keys = [public_jwk(s.uri_key, "uri-1")]
    s.uri_issuer = s.keys.url + "/issuer"
    config = {
        "tenants": [
            {"id": TENANT, "domains": ["workload.example"], "apps": [
                {"clientId": WORKLOAD, "name": "Orders Worker",
                 "federatedCredentials": [
                     {"issuer": CLUSTER, "subject": SERVICE_ACCOUNT, "audiences": [EXCHANGE_AUDIENCE]},
                     {"issuer": s.uri_issuer, "subject": "repo:contoso/orders:ref:refs/heads/main",
                      "audiences": [EXCHANGE_AUDIENCE]}],
                 "apiPermissions": {"api://workload-api": ["Orders.Read"]}},
                {"clientId": DAEMON, "secret": "daemon-secret", "apiPermissions": {"api://workload-api": ["Orders.Read"]}},
                {"clientId": API, "identifierUris": ["api://workload-api"], "appRoles": ["Orders.Read"],
                 "secret": "api-secret", "accessTokenVersion": 2}]},
            {"id": SOURCE_TENANT, "domains": ["source.example"], "apps": [
                {"clientId": SOURCE_APP, "secret": "source-secret", "apiPermissions": {EXCHANGE_AUDIENCE: ["Exchange"]}},
                {"clientId": EXCHANGE, "identifierUris": [EXCHANGE_AUDIENCE], "appRoles": ["Exchange"],
                 "secret": "exchange-secret", "accessTokenVersion": 2}]}],
        "trustedIssuers": [
            {"issuer": CLUSTER, "jwks": "cluster-jwks.json"},
            {"issuer": s.uri_issuer, "jwksUri": s.keys.url + "/jwks"}],
    }
    path = folder / "federation.json"
    path.write_text(json.dumps(config))
    s.server = start_server(["--config", str(path)])
    s.folder = folder
    yield s
    assert stop_server(s.server) == 0
    s.keys.close()


@pytest.fixture
def clean_env(monkeypatch, federation):
    """Only the variables the test sets: no AZURE_* leaks in from the caller, the server's CA trusted."""
    for name in list(os.environ):
        if name.startswith(("AZURE_", "IDENTITY_", "MSI_")) or name in ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", federation.server.ca)
    return monkeypatch


def published_keys(server):
    session = own_session(server)
    doc = session.get(server.url("/%s/v2.0/.well-known/openid-configuration" % TENANT)).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in session.get(doc["jwks_uri"]).json()["keys"]}
    return doc["issuer"], keys


def verified(server, token, audience=API, tenant=TENANT):
    """The token's claims after PyJWT checked its signature against the published key set, its audience and issuer."""
    _, keys = published_keys(server)
    kid = jwt.get_unverified_header(token)["kid"]
    return jwt.decode(token, keys[kid].key, algorithms=["RS256"], audience=audience,
                      issuer=server.base_url + "/%s/v2.0" % tenant)


def workload_credential(federation, env, token):
    """WorkloadIdentityCredential configured the AKS way: environment variables only."""
    token_file = federation.folder / ("token-%s" % uuid.uuid4().hex)
    token_file.write_text(token)
    env.setenv("AZURE_FEDERATED_TOKEN_FILE", str(token_file))
    env.setenv("AZURE_CLIENT_ID", WORKLOAD)
    env.setenv("AZURE_TENANT_ID", TENANT)
    env.setenv("AZURE_AUTHORITY_HOST", federation.server.base_url)
    return WorkloadIdentityCredential()


def test_workload_identity_credential_exchanges_a_projected_token_checked_against_a_jwks_file(federation, clean_env):
    credential = workload_credential(federation, clean_env, sign(federation.cluster_key, "cluster-1", CLUSTER))
    claims = verified(federation.server, credential.get_token(SCOPE).token)
    assert claims["azp"] == WORKLOAD and claims["tid"] == TENANT
    assert claims["roles"] == ["Orders.Read"]
    assert claims["azpacr"] == "2"        # a client assertion, as for a certificate


def test_workload_identity_credential_with_keys_from_a_jwks_uri(federation, clean_env):
    token = sign(federation.uri_key, "uri-1", federation.uri_issuer, subject="repo:contoso/orders:ref:refs/heads/main")
    credential = workload_credential(federation, clean_env, token)
    claims = verified(federation.server, credential.get_token(SCOPE).token)
    assert claims["azp"] == WORKLOAD
    assert federation.keys.fetches >= 1


def test_a_key_added_to_the_jwks_uri_is_fetched_on_its_first_use(federation, clean_env):
    rotated = rsa_key()
    federation.keys.keys = federation.keys.keys + [public_jwk(rotated, "uri-2")]
    time.sleep(1.2)   # a URL is fetched again at most once a second
    before = federation.keys.fetches
    token = sign(rotated, "uri-2", federation.uri_issuer, subject="repo:contoso/orders:ref:refs/heads/main")
    claims = verified(federation.server, workload_credential(federation, clean_env, token).get_token(SCOPE).token)
    assert claims["azp"] == WORKLOAD
    assert federation.keys.fetches == before + 1


def test_a_flood_of_unknown_kids_does_not_hammer_the_jwks_uri(federation, clean_env):
    time.sleep(1.2)
    before = federation.keys.fetches
    started = time.monotonic()
    for n in range(25):
        token = sign(federation.uri_key, "unknown-%d" % n, federation.uri_issuer, subject="repo:contoso/orders:ref:refs/heads/main")
        credential = ClientAssertionCredential(TENANT, WORKLOAD, lambda t=token: t, authority=federation.server.base_url)
        with pytest.raises(ClientAuthenticationError, match="AADSTS7000272:"):
            credential.get_token(SCOPE)
    # One fetch for the first unknown kid, then at most one a second.
    assert 1 <= federation.keys.fetches - before <= 1 + int(time.monotonic() - started)


def test_client_assertion_credential_with_a_callback(federation, clean_env):
    calls = []

    def assertion():
        calls.append(1)
        return sign(federation.cluster_key, "cluster-1", CLUSTER)

    credential = ClientAssertionCredential(TENANT, WORKLOAD, assertion, authority=federation.server.base_url)
    claims = verified(federation.server, credential.get_token(SCOPE).token)
    assert claims["azp"] == WORKLOAD and calls


def test_a_token_of_another_mockidp_tenant_is_a_trusted_assertion(federation, clean_env):
    """Cross-tenant: the source tenant's app gets a token for its api://AzureADTokenExchange; an app of the other
    tenant trusts that issuer and subject (added through the control API), and exchanges the token for its own."""
    server = federation.server
    source = ClientSecretCredential(SOURCE_TENANT, SOURCE_APP, "source-secret", authority=server.base_url,
                                    disable_instance_discovery=True)
    source_token = source.get_token(EXCHANGE_AUDIENCE + "/.default").token
    source_claims = verified(server, source_token, audience=EXCHANGE, tenant=SOURCE_TENANT)
    assert source_claims["iss"] == server.base_url + "/%s/v2.0" % SOURCE_TENANT
    importer = str(uuid.uuid4())
    app = {"clientId": importer, "federatedCredentials": [
        {"issuer": source_claims["iss"], "subject": source_claims["sub"], "audiences": [EXCHANGE]}],
        "apiPermissions": {"api://workload-api": ["Orders.Read"]}}
    answer = own_session(server).post(server.url("/_mockidp/tenants/%s/apps" % TENANT), json=app)
    assert answer.status_code == 201, answer.text
    credential = ClientAssertionCredential(TENANT, importer, lambda: source_token, authority=server.base_url)
    claims = verified(server, credential.get_token(SCOPE).token)
    assert claims["azp"] == importer and claims["tid"] == TENANT
    # A token of the same tenant signed by another key is refused.
    forged = jwt.encode(dict(source_claims), pem(rsa_key()), algorithm="RS256",
                        headers={"kid": jwt.get_unverified_header(source_token)["kid"]})
    forged_credential = ClientAssertionCredential(TENANT, importer, lambda: forged, authority=server.base_url)
    with pytest.raises(ClientAuthenticationError, match="AADSTS700027:"):
        forged_credential.get_token(SCOPE)


REFUSALS = [
    ("the app has no federated credential", DAEMON, {}, "cluster-1", "AADSTS70021:"),
    ("no credential has the issuer", WORKLOAD, {"issuer": "https://oidc.other.example/"}, "cluster-1", "AADSTS700211:"),
    ("the audience", WORKLOAD, {"audience": ("api://SomethingElse",)}, "cluster-1", "AADSTS700212:"),
    ("the subject (case counts)", WORKLOAD, {"subject": SERVICE_ACCOUNT.upper()}, "cluster-1", "AADSTS700213:"),
    ("an expired token", WORKLOAD, {"lifetime": -3600}, "cluster-1", "AADSTS700024:"),
    ("a bad signature", WORKLOAD, {"stranger": True}, "cluster-1", "AADSTS700027:"),
    ("an unknown kid", WORKLOAD, {}, "cluster-2", "AADSTS7000272:"),
]


@pytest.mark.parametrize("why,client,change,kid,code", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_refusal_reaches_the_sdk_with_entras_code(federation, clean_env, why, client, change, kid, code):
    change = dict(change)
    key = federation.stranger_key if change.pop("stranger", False) else federation.cluster_key
    token = sign(key, kid, change.pop("issuer", CLUSTER), **change)
    clean_env.setenv("AZURE_FEDERATED_TOKEN_FILE", str(federation.folder / "unused"))
    (federation.folder / "unused").write_text(token)
    clean_env.setenv("AZURE_CLIENT_ID", client)
    clean_env.setenv("AZURE_TENANT_ID", TENANT)
    clean_env.setenv("AZURE_AUTHORITY_HOST", federation.server.base_url)
    with pytest.raises(ClientAuthenticationError, match=code) as raised:
        WorkloadIdentityCredential().get_token(SCOPE)
    assert "invalid_client" in str(raised.value)
    log = own_session(federation.server).get(federation.server.url("/_mockidp/requests")).json()["requests"]
    refused = [entry for entry in log if entry["path"].endswith("/oauth2/v2.0/token")][-1]
    assert refused["status"] == 401 and refused["reason"]


def test_a_jwks_uri_over_https_is_verified_against_ssl_cert_file(tmp_path, clean_env):
    """Another mockidp is the external issuer: its key set at an https jwksUri, trusted through SSL_CERT_FILE only."""
    issuer_server = start_server()
    try:
        contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
        issuer = issuer_server.base_url + "/%s/v2.0" % contoso
        token = ClientSecretCredential(contoso, "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d", "daemon-secret",
                                       authority=issuer_server.base_url, disable_instance_discovery=True,
                                       connection_verify=issuer_server.ca).get_token("api://contoso-api/.default").token
        claims = jwt.decode(token, options={"verify_signature": False})
        assert claims["iss"] == issuer
        config = tmp_path / "trusting.json"
        config.write_text(json.dumps({
            "tenants": [{"id": TENANT, "apps": [
                {"clientId": WORKLOAD, "federatedCredentials": [
                    {"issuer": issuer, "subject": claims["sub"], "audiences": [claims["aud"]]}],
                 "apiPermissions": {"api://workload-api": ["Orders.Read"]}},
                {"clientId": API, "identifierUris": ["api://workload-api"], "appRoles": ["Orders.Read"],
                 "secret": "api-secret", "accessTokenVersion": 2}]}],
            "trustedIssuers": [{"issuer": issuer, "jwksUri": issuer_server.base_url + "/%s/discovery/v2.0/keys" % contoso}]}))
        for trusted in (True, False):
            env = {k: v for k, v in os.environ.items() if k != "SSL_CERT_FILE"}
            if trusted:
                env["SSL_CERT_FILE"] = issuer_server.ca
            server = start_server(["--config", str(config)], env=env)
            try:
                clean_env.setenv("REQUESTS_CA_BUNDLE", server.ca)
                credential = ClientAssertionCredential(TENANT, WORKLOAD, lambda: token, authority=server.base_url)
                if trusted:
                    assert verified(server, credential.get_token(SCOPE).token)["azp"] == WORKLOAD
                else:
                    with pytest.raises(ClientAuthenticationError, match="AADSTS90061:"):
                        credential.get_token(SCOPE)
                    log = own_session(server).get(server.url("/_mockidp/requests")).json()["requests"]
                    assert "not trusted" in [e for e in log if e["path"].endswith("/token")][-1]["reason"]
            finally:
                assert stop_server(server) == 0
    finally:
        assert stop_server(issuer_server) == 0


EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "config")


def test_the_example_passes_config_check_and_serves_an_aks_workload(tmp_path, clean_env):
    """config/examples/workload-identity.yaml over the default: config check accepts it, and a projected token signed
    with the example cluster's key gets the worker app a Graph token through WorkloadIdentityCredential."""
    import subprocess
    from conftest import binary
    files = [os.path.join(EXAMPLES, "default.yaml"), os.path.join(EXAMPLES, "examples", "workload-identity.yaml")]
    check = subprocess.run([binary(), "config", "check"] + files, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    server = start_server([arg for f in files for arg in ("--config", f)])
    try:
        # The README's snippet signs the projected token, run as written in a folder that sees config/.
        from documentation import blocks
        snippet = blocks("Azure SDKs: workload identity federation", "python")[0]
        os.symlink(EXAMPLES, tmp_path / "config")
        clean_env.chdir(tmp_path)
        exec(compile(snippet, "README.md", "exec"), {})
        token_file = tmp_path / "azure-identity-token"
        clean_env.setenv("AZURE_FEDERATED_TOKEN_FILE", str(token_file))
        clean_env.setenv("AZURE_CLIENT_ID", "8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f")
        clean_env.setenv("AZURE_TENANT_ID", "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11")
        clean_env.setenv("AZURE_AUTHORITY_HOST", server.base_url)
        clean_env.setenv("REQUESTS_CA_BUNDLE", server.ca)
        access = WorkloadIdentityCredential().get_token("https://graph.microsoft.com/.default").token
        session = own_session(server)
        keys = {k["kid"]: jwt.PyJWK(k) for k in session.get(server.url("/common/discovery/keys")).json()["keys"]}
        claims = jwt.decode(access, keys[jwt.get_unverified_header(access)["kid"]].key, algorithms=["RS256"],
                            audience="https://graph.microsoft.com",
                            issuer="https://sts.windows.net/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/")
        assert claims["appid"] == "8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
        assert claims["roles"] == ["User.Read.All"]
    finally:
        assert stop_server(server) == 0
