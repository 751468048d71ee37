"""Certificate credentials, on-behalf-of and the family of client IDs with MSAL Python, and `mockidp token`
verified by PyJWT, against a server serving config/default.yaml, config/examples/on-behalf-of.yaml and an app whose
certificate this module creates."""
import datetime
import os
import subprocess
import tempfile
import threading

import jwt
import msal
import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

from conftest import ALICE, ALICE_OID, CONTOSO, MOBILE, binary, own_session as http, start_server, stop_server
from test_device_code import device_login
from test_tokens_pyjwt import verify

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CERT_DAEMON = "6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e"
CONTOSO_API = "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"
MIDDLE = "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a"
MIDDLE_SECRET = "middle-secret"
DOWNSTREAM = "2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b"
MAIL = "3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c"
CALENDAR = "4a5b6c7d-8e9f-4a0b-9c2d-3e4f5a6b7c8d"


def make_certificate(name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=30)).sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    return key_pem, cert.public_bytes(serialization.Encoding.PEM).decode(), cert.fingerprint(hashes.SHA1()).hex()


@pytest.fixture(scope="module")
def credentials():
    return {"registered": make_certificate("mockidp daemon"), "stranger": make_certificate("stranger")}


@pytest.fixture(scope="module")
def grants_server(credentials):
    folder = tempfile.mkdtemp(prefix="mockidp-grants-")
    os.makedirs(os.path.join(folder, "certs"))
    with open(os.path.join(folder, "certs", "daemon.pem"), "w") as f:
        f.write(credentials["registered"][1])
    config = os.path.join(folder, "certificate.yaml")
    with open(config, "w") as f:
        f.write("tenants:\n  - id: %s\n    apps:\n      - clientId: %s\n        name: Contoso Certificate Daemon\n"
                "        certificates: [certs/daemon.pem]\n        apiPermissions:\n          api://contoso-api: [Reader]\n"
                % (CONTOSO, CERT_DAEMON))
    s = start_server(extra_args=["--config", os.path.join(ROOT, "config/default.yaml"),
                                 "--config", os.path.join(ROOT, "config/examples/on-behalf-of.yaml"), "--config", config])
    yield s
    assert stop_server(s) == 0


def confidential(server, client_id, credential):
    return msal.ConfidentialClientApplication(client_id, client_credential=credential,
                                              authority=server.url("/" + CONTOSO), instance_discovery=False,
                                              http_client=http(server))


def unverified(token):
    return jwt.decode(token, options={"verify_signature": False})


def test_msal_certificate_with_sha1_thumbprint_signs_rs256(grants_server, credentials):
    key, _, thumbprint = credentials["registered"]
    app = confidential(grants_server, CERT_DAEMON, {"private_key": key, "thumbprint": thumbprint})
    result = app.acquire_token_for_client(["api://contoso-api/.default"])
    assert "access_token" in result, result
    claims = unverified(result["access_token"])
    assert claims["azp"] == CERT_DAEMON and claims["azpacr"] == "2" and claims["roles"] == ["Reader"]


def test_msal_certificate_with_public_certificate_signs_ps256(grants_server, credentials):
    key, cert, _ = credentials["registered"]
    seen = []
    session = http(grants_server)
    session.hooks["response"].append(lambda r, *a, **k: seen.append(r.request.body))
    app = msal.ConfidentialClientApplication(CERT_DAEMON, client_credential={"private_key": key, "public_certificate": cert},
                                             authority=grants_server.url("/" + CONTOSO), instance_discovery=False,
                                             http_client=session)
    result = app.acquire_token_for_client(["api://contoso-api/.default"])
    assert "access_token" in result, result
    assertion = next(requests.utils.unquote(b.split("client_assertion=")[1].split("&")[0]) for b in seen
                     if b and "client_assertion=" in b)
    header = jwt.get_unverified_header(assertion)
    assert header["alg"] == "PS256" and "x5t#S256" in header, header
    assert unverified(result["access_token"])["azpacr"] == "2"


def test_msal_certificate_not_registered_is_700027(grants_server, credentials):
    key, _, thumbprint = credentials["stranger"]
    result = confidential(grants_server, CERT_DAEMON, {"private_key": key, "thumbprint": thumbprint}) \
        .acquire_token_for_client(["api://contoso-api/.default"])
    assert result["error"] == "invalid_client" and result["error_codes"] == [700027], result
    assert thumbprint.upper() in result["error_description"]


def alice_token_for_middle_tier(server):
    r = http(server).post(server.url("/%s/oauth2/v2.0/token" % CONTOSO), data={
        "grant_type": "password", "client_id": MOBILE, "username": ALICE, "password": "alice-password",
        "scope": "api://contoso-middle/access_as_user"})
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def test_msal_on_behalf_of_gets_downstream_and_graph_tokens_for_the_user(grants_server):
    incoming = alice_token_for_middle_tier(grants_server)
    middle = confidential(grants_server, MIDDLE, MIDDLE_SECRET)
    result = middle.acquire_token_on_behalf_of(incoming, ["api://contoso-downstream/read"])
    assert "access_token" in result, result
    claims = unverified(result["access_token"])
    assert claims["aud"] == DOWNSTREAM and claims["oid"] == ALICE_OID and claims["tid"] == CONTOSO
    assert claims["scp"] == "read" and claims["azp"] == MIDDLE
    assert result["id_token_claims"]["oid"] == ALICE_OID
    graph = middle.acquire_token_on_behalf_of(incoming, ["User.Read"])
    assert unverified(graph["access_token"])["appid"] == MIDDLE, graph
    # MSAL decorates the scopes with offline_access openid profile: a refresh token for the user comes back too.
    assert result.get("refresh_token"), result


def test_msal_on_behalf_of_errors(grants_server):
    incoming = alice_token_for_middle_tier(grants_server)
    consent = confidential(grants_server, MIDDLE, MIDDLE_SECRET) \
        .acquire_token_on_behalf_of(incoming, ["api://contoso-downstream/write"])
    assert consent["error"] == "invalid_grant" and consent["error_codes"] == [65001], consent
    assert consent["suberror"] == "consent_required"
    # The downstream API is not the token's audience: it cannot exchange it.
    wrong = confidential(grants_server, DOWNSTREAM, "downstream-secret") \
        .acquire_token_on_behalf_of(incoming, ["User.Read"])
    assert wrong["error_codes"] == [500131], wrong


def test_family_apps_share_one_cache_and_the_second_signs_in_silently(grants_server):
    cache = msal.SerializableTokenCache()
    mail = msal.PublicClientApplication(MAIL, authority=grants_server.url("/" + CONTOSO), instance_discovery=False,
                                        token_cache=cache, http_client=http(grants_server))
    flow = mail.initiate_device_flow(["User.Read"])
    box = {}
    thread = threading.Thread(target=lambda: box.update(result=mail.acquire_token_by_device_flow(flow)))
    thread.start()
    device_login(grants_server, flow["user_code"], "signin", ALICE, "alice-password", browser=http(grants_server))
    thread.join(timeout=60)
    assert "access_token" in box["result"], box["result"]
    assert any(rt.get("family_id") == "1" for rt in cache.search(msal.TokenCache.CredentialType.REFRESH_TOKEN))

    calendar = msal.PublicClientApplication(CALENDAR, authority=grants_server.url("/" + CONTOSO),
                                            instance_discovery=False, token_cache=cache, http_client=http(grants_server))
    accounts = calendar.get_accounts(username=ALICE)
    assert accounts, "the family app sees the account of the shared cache"
    result = calendar.acquire_token_silent(["User.Read"], account=accounts[0])
    assert result and "access_token" in result, result
    assert result.get("token_source") == "identity_provider"
    assert unverified(result["access_token"])["appid"] == CALENDAR

    # An app outside the family, on the same cache, is refused the family token and has none of its own.
    outsider = msal.PublicClientApplication(MOBILE, authority=grants_server.url("/" + CONTOSO),
                                            instance_discovery=False, token_cache=cache, http_client=http(grants_server))
    assert outsider.acquire_token_silent(["User.Read"], account=outsider.get_accounts(username=ALICE)[0]) is None


def run_token(*args):
    return subprocess.run([binary(), "token", *args], capture_output=True, text=True, timeout=60)


def test_mockidp_token_verifies_with_the_keys_the_server_publishes(grants_server):
    common = ["--state-dir", grants_server.state_dir, "--public-url", grants_server.base_url,
              "--config", os.path.join(ROOT, "config/default.yaml")]
    access = run_token(*common, "--client", MOBILE, "--user", ALICE, "--scope", "api://contoso-api/access_as_user",
                       "--claim", "department=Research", "--claim", "level=3", "--lifetime", "900")
    assert access.returncode == 0, access.stderr
    id_token = run_token(*common, "--kind", "id", "--client", MOBILE, "--user", ALICE)
    assert id_token.returncode == 0, id_token.stderr

    session = http(grants_server)
    doc = session.get(grants_server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO)).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in session.get(doc["jwks_uri"]).json()["keys"]}
    claims = verify(access.stdout.strip(), keys, CONTOSO_API, doc["issuer"])
    assert claims["oid"] == ALICE_OID and claims["scp"] == "access_as_user" and claims["azp"] == MOBILE
    assert claims["department"] == "Research" and claims["level"] == 3
    assert claims["exp"] - claims["iat"] == 900
    id_claims = verify(id_token.stdout.strip(), keys, MOBILE, doc["issuer"])
    assert id_claims["preferred_username"] == ALICE and id_claims["ver"] == "2.0"

    # The minted token is as good as an issued one: the middle tier's on-behalf-of takes it.
    minted = run_token(*common, "--config", os.path.join(ROOT, "config/examples/on-behalf-of.yaml"), "--client", MOBILE,
                       "--user", ALICE, "--scope", "api://contoso-middle/access_as_user")
    obo = confidential(grants_server, MIDDLE, MIDDLE_SECRET) \
        .acquire_token_on_behalf_of(minted.stdout.strip(), ["api://contoso-downstream/read"])
    assert unverified(obo["access_token"])["oid"] == ALICE_OID, obo


def test_mockidp_token_errors_exit_64():
    r = run_token("--state-dir", tempfile.mkdtemp(prefix="mockidp-token-"), "--client", MOBILE, "--user", "nobody@contoso.com",
                  "--scope", "User.Read")
    assert r.returncode == 64 and "AADSTS50034" in r.stderr and r.stdout == ""


def test_azure_identity_certificate_and_on_behalf_of_credentials(grants_server, credentials):
    from azure.identity import CertificateCredential, OnBehalfOfCredential

    key, cert, _ = credentials["registered"]
    options = dict(authority=grants_server.base_url, disable_instance_discovery=True, connection_verify=grants_server.ca)
    daemon = CertificateCredential(CONTOSO, CERT_DAEMON, certificate_data=(key + cert).encode(), **options)
    claims = unverified(daemon.get_token("api://contoso-api/.default").token)
    assert claims["azp"] == CERT_DAEMON and claims["azpacr"] == "2", claims

    middle = OnBehalfOfCredential(CONTOSO, MIDDLE, client_secret=MIDDLE_SECRET,
                                  user_assertion=alice_token_for_middle_tier(grants_server), **options)
    claims = unverified(middle.get_token("api://contoso-downstream/read").token)
    assert claims["oid"] == ALICE_OID and claims["aud"] == DOWNSTREAM and claims["azp"] == MIDDLE, claims
