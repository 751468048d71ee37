"""The headlessSignIn setting and the implicit flow, with config/examples/headless-ci.yaml merged over the default."""
import base64
import hashlib
import os
from urllib.parse import parse_qs, urlparse

import jwt
import pytest

from conftest import ALICE, ALICE_OID, CONTOSO, own_session as session, start_server, stop_server

CI_APP = "8a7b6c5d-4e3f-4a1b-9c2d-3e4f5a6b7c8d"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def ci_server():
    s = start_server(extra_args=["--config", os.path.join(ROOT, "config/default.yaml"),
                                 "--config", os.path.join(ROOT, "config/examples/headless-ci.yaml")])
    yield s
    assert stop_server(s) == 0


def authorize(server, **params):
    r = session(server).get(server.url("/%s/oauth2/v2.0/authorize" % CONTOSO), allow_redirects=False,
              params=dict({"client_id": CI_APP, "redirect_uri": "http://localhost:40000"}, **params))
    return r


def test_login_hint_signs_in_without_a_page(ci_server):
    r = authorize(ci_server, response_type="code", scope="openid User.Read", login_hint=ALICE, state="x")
    assert r.status_code == 302, r.text[:200]
    query = parse_qs(urlparse(r.headers["Location"]).query)
    assert query["state"] == ["x"] and query["code"]
    token = session(ci_server).post(ci_server.url("/%s/oauth2/v2.0/token" % CONTOSO), data={
        "grant_type": "authorization_code", "client_id": CI_APP, "code": query["code"][0],
        "redirect_uri": "http://localhost:40000", "scope": "openid User.Read"}).json()
    assert jwt.decode(token["id_token"], options={"verify_signature": False})["oid"] == ALICE_OID
    # Without a hint, or with prompt=login, the page is shown as usual.
    assert authorize(ci_server, response_type="code", scope="openid").status_code == 200
    assert authorize(ci_server, response_type="code", scope="openid", login_hint=ALICE, prompt="login").status_code == 200


def test_implicit_id_token_and_token_with_at_hash(ci_server):
    r = authorize(ci_server, response_type="id_token token", scope="openid User.Read", login_hint=ALICE, nonce="n-42")
    assert r.status_code == 302
    fragment = parse_qs(urlparse(r.headers["Location"]).fragment)
    assert fragment["token_type"] == ["Bearer"] and int(fragment["expires_in"][0]) > 300
    claims = jwt.decode(fragment["id_token"][0], options={"verify_signature": False})
    assert claims["nonce"] == "n-42"
    digest = hashlib.sha256(fragment["access_token"][0].encode()).digest()[:16]
    assert claims["at_hash"] == base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    # The default apps have the implicit grant off: AADSTS700054 back to the redirect URI.
    other = session(ci_server).get(ci_server.url("/%s/oauth2/v2.0/authorize" % CONTOSO), allow_redirects=False,
                         params={"client_id": "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c", "redirect_uri": "http://localhost",
                                 "response_type": "id_token", "scope": "openid", "nonce": "n"})
    assert "error=unsupported_response_type" in other.headers["Location"]


def test_an_app_that_requires_pkce(ci_server):
    r = session(ci_server).get(ci_server.url("/%s/oauth2/v2.0/authorize" % CONTOSO), allow_redirects=False,
                               params={"client_id": "9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f", "redirect_uri": "http://localhost",
                                       "response_type": "code", "scope": "openid", "state": "s"})
    assert r.status_code == 302
    query = parse_qs(urlparse(r.headers["Location"]).query)
    assert query["error"] == ["invalid_request"] and query["error_description"][0].startswith("AADSTS9002325")


def test_code_redemption_errors_over_the_wire(ci_server):
    verifier = "v" * 50
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    r = authorize(ci_server, response_type="code", scope="openid User.Read", login_hint=ALICE, max_age="600",
                  code_challenge=challenge, code_challenge_method="S256")
    code = parse_qs(urlparse(r.headers["Location"]).query)["code"][0]
    token_url = ci_server.url("/%s/oauth2/v2.0/token" % CONTOSO)
    form = {"grant_type": "authorization_code", "client_id": CI_APP, "code": code, "redirect_uri": "http://localhost:40000"}
    wrong = session(ci_server).post(token_url, data=dict(form, code_verifier="w" * 50)).json()
    assert wrong["error"] == "invalid_grant" and wrong["error_codes"] == [501481]
    other_uri = session(ci_server).post(token_url, data=dict(form, redirect_uri="http://localhost:1", code_verifier=verifier)).json()
    assert other_uri["error"] == "invalid_grant"
    ok = session(ci_server).post(token_url, data=dict(form, code_verifier=verifier)).json()
    assert "auth_time" in jwt.decode(ok["id_token"], options={"verify_signature": False})   # max_age was asked for
    replay = session(ci_server).post(token_url, data=dict(form, code_verifier=verifier)).json()
    assert replay["error"] == "invalid_grant" and replay["error_codes"] == [54005]
