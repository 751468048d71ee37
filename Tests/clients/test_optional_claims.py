"""The app manifest's optionalClaims, seen by MSAL Python (authorization code flow, then a silent refresh) and
verified by PyJWT from the published key set: the client's ID tokens carry its idToken list, its API's access
tokens the API's accessToken list, and apps without optional claims get none of them."""
import os
from urllib.parse import parse_qs, urlparse

import jwt
import msal
import pytest
import requests

from conftest import ALICE, CONTOSO, serving

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLAIMS_WEB, CLAIMS_API = "0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a", "1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b"
PLAIN_WEB, PLAIN_API = "2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c", "3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d"
REDIRECT = "http://localhost:40001"


@pytest.fixture(scope="module")
def server():
    with serving(os.path.join(ROOT, "config/default.yaml"),
                 os.path.join(ROOT, "Tests/clients/optional_claims/optional-claims.yaml")) as s:
        yield s


def sign_in(server, client_id, secret, api):
    """MSAL's authorization code flow, the user signed in by headlessSignIn (login_hint), then a silent refresh."""
    app = msal.ConfidentialClientApplication(client_id, client_credential=secret, instance_discovery=False,
                                             authority=server.url("/" + CONTOSO))
    scopes = ["%s/access_as_user" % api]
    flow = app.initiate_auth_code_flow(scopes, redirect_uri=REDIRECT, login_hint=ALICE)
    r = requests.get(flow["auth_uri"], allow_redirects=False, verify=server.ca)
    assert r.status_code == 302, r.text[:300]
    response = {k: v[0] for k, v in parse_qs(urlparse(r.headers["Location"]).query).items()}
    result = app.acquire_token_by_auth_code_flow(flow, response)
    assert "access_token" in result, result
    account = app.get_accounts()[0]
    refreshed = app.acquire_token_silent(scopes, account, force_refresh=True)
    assert refreshed and "access_token" in refreshed, refreshed
    return result, refreshed


def verified(server, token, audience):
    doc = requests.get(server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO), verify=server.ca).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in requests.get(doc["jwks_uri"], verify=server.ca).json()["keys"]}
    kid = jwt.get_unverified_header(token)["kid"]
    return jwt.decode(token, keys[kid].key, algorithms=["RS256"], audience=audience, issuer=doc["issuer"])


def test_id_token_carries_the_clients_optional_claims(server):
    result, _ = sign_in(server, CLAIMS_WEB, "claims-web-secret", "api://claims-api")
    claims = verified(server, result["id_token"], CLAIMS_WEB)
    assert claims["email"] == "alice@contoso.com"
    assert claims["upn"] == ALICE
    assert claims["given_name"] == "Alice" and claims["family_name"] == "Adams"
    assert claims["ipaddr"] == "127.0.0.1"
    assert isinstance(claims["auth_time"], int) and claims["auth_time"] <= claims["iat"]
    assert claims["acct"] == 0
    assert claims["ctry"] == "SE" and claims["xms_pl"] == "sv-se"
    assert claims["login_hint"].startswith("O.") and len(claims["sid"]) == 36
    assert claims["tenant_region_scope"] == "WW"
    # MSAL read the same ID token into its result.
    assert result["id_token_claims"]["upn"] == ALICE
    # The API's accessToken list is the API's alone.
    assert "verified_primary_email" not in claims


def test_access_token_carries_the_apis_optional_claims_and_refresh_keeps_them(server):
    result, refreshed = sign_in(server, CLAIMS_WEB, "claims-web-secret", "api://claims-api")
    first = verified(server, result["access_token"], CLAIMS_API)
    again = verified(server, refreshed["access_token"], CLAIMS_API)
    for claims in (first, again):
        assert claims["email"] == "alice@contoso.com" and claims["upn"] == ALICE
        assert claims["ipaddr"] == "127.0.0.1" and claims["acct"] == 0
        assert claims["verified_primary_email"] == ["alice@contoso.com"]
        assert len(claims["sid"]) == 36
        # The client's idToken list does not reach the API's tokens.
        assert "login_hint" not in claims and "ctry" not in claims
    # The ID token and the access token of one sign-in name one session.
    assert first["sid"] == verified(server, result["id_token"], CLAIMS_WEB)["sid"]


def test_apps_without_optional_claims_get_none(server):
    result, _ = sign_in(server, PLAIN_WEB, "plain-web-secret", "api://plain-api")
    id_claims = verified(server, result["id_token"], PLAIN_WEB)
    access = verified(server, result["access_token"], PLAIN_API)
    for name in ("upn", "ipaddr", "acct", "login_hint", "sid", "ctry", "given_name", "family_name", "verified_primary_email",
                 "tenant_region_scope"):
        assert name not in id_claims and name not in access, name
    assert "email" not in access


def test_the_login_hint_claim_signs_the_user_in_again(server):
    result, _ = sign_in(server, CLAIMS_WEB, "claims-web-secret", "api://claims-api")
    hint = verified(server, result["id_token"], CLAIMS_WEB)["login_hint"]
    r = requests.get(server.url("/%s/oauth2/v2.0/authorize" % CONTOSO), allow_redirects=False, verify=server.ca,
                     params={"client_id": CLAIMS_WEB, "redirect_uri": REDIRECT, "response_type": "code", "scope": "openid",
                             "login_hint": hint})
    assert r.status_code == 302 and "code=" in r.headers["Location"], r.text[:300]


def test_config_check_refuses_a_misspelt_claim(server, tmp_path):
    import subprocess
    from conftest import binary
    path = tmp_path / "bad.yaml"
    path.write_text("tenants:\n  - id: %s\n    apps:\n      - clientId: %s\n        optionalClaims: {idToken: [emial, idtyp]}\n"
                    % (CONTOSO, CLAIMS_WEB))
    run = subprocess.run([binary(), "config", "check", str(path)], capture_output=True, text=True)
    assert run.returncode == 78
    assert "unknown optional claim 'emial'; did you mean 'email'?" in run.stderr + run.stdout
    assert "'idtyp' is an optional claim of accessToken only, not of idToken" in run.stderr + run.stdout
