"""The control API seen by real clients: an injected claims challenge answered by MSAL Python, and key rotation
followed by PyJWT's PyJWKClient."""
import json
import ssl

import jwt
import msal
import pytest

from conftest import ALICE, API, CONTOSO, DAEMON, DAEMON_SECRET, MOBILE, own_session, serving
from test_device_code import device_login, run_flow


@pytest.fixture(scope="module")
def idp():
    """A server of this module's own: faults and key changes never leak into other tests."""
    with serving() as s:
        yield s


def control(idp, path, body=None):
    url = idp.url("/_mockidp/" + path)
    session = own_session(idp)
    r = session.post(url, json=body) if body is not None else session.get(url)
    assert r.status_code in (200, 201), r.text
    return r.json()


def unverified(token):
    return jwt.decode(token, options={"verify_signature": False})


def test_msal_answers_an_injected_mfa_claims_challenge(idp):
    control(idp, "reset", {})
    app = msal.PublicClientApplication(MOBILE, authority=idp.url("/" + CONTOSO), instance_discovery=False,
                                       client_capabilities=["CP1"])
    flow = app.initiate_device_flow(["User.Read"])
    thread, box = run_flow(app, flow)
    device_login(idp, flow["user_code"], "signin", ALICE, "alice-password")
    thread.join(timeout=60)
    assert "access_token" in box["result"], box["result"]
    account = app.get_accounts()[0]

    # Conditional Access now wants MFA for every refresh until the client answers the challenge.
    fault = control(idp, "faults", {"endpoint": "token", "grantType": "refresh_token", "error": "interaction_required",
                                    "aadsts": 50076, "count": 0})
    challenged = app.acquire_token_silent_with_error(["User.Read"], account, force_refresh=True)
    assert challenged["error"] == "interaction_required", challenged
    assert challenged["error_codes"] == [50076]
    assert challenged["suberror"] == "basic_action"
    challenge = json.loads(challenged["claims"])
    assert challenge == {"access_token": {"acrs": {"essential": True, "value": "c1"}}}

    # MSAL merges its client capabilities (xms_cc) into the challenge; the request still answers it.
    answered = app.acquire_token_silent_with_error(["User.Read"], account, claims_challenge=challenged["claims"])
    assert "access_token" in answered, answered
    claims = unverified(answered["access_token"])
    assert claims["acrs"] == ["c1"]
    assert "mfa" in claims["amr"]
    assert "mfa" in answered["id_token_claims"]["amr"]

    log = control(idp, "requests")["requests"]
    rejected = [r for r in log if r["status"] == 400]
    assert rejected and ("injected fault %d" % fault["id"]) in rejected[-1]["reason"]
    assert log[-1]["status"] == 200 and log[-1]["reason"] is None


def test_msal_confidential_client_sees_invalid_grant_with_claims_then_answers(idp):
    control(idp, "reset", {})
    control(idp, "faults", {"endpoint": "token", "clientId": DAEMON, "aadsts": 53003})
    app = msal.ConfidentialClientApplication(DAEMON, client_credential=DAEMON_SECRET, authority=idp.url("/" + CONTOSO),
                                             instance_discovery=False)
    blocked = app.acquire_token_for_client(["api://contoso-api/.default"])
    assert blocked["error"] == "invalid_grant", blocked
    assert blocked["error_codes"] == [53003]
    assert "capolids" in json.loads(blocked["claims"])["access_token"]
    result = app.acquire_token_for_client(["api://contoso-api/.default"], claims_challenge=blocked["claims"])
    assert "access_token" in result, result
    assert unverified(result["access_token"])["aud"] == API


def test_pyjwkclient_follows_key_rotation_and_retirement(idp):
    control(idp, "reset", {})
    session = own_session(idp)
    jwks_uri = session.get(idp.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO)).json()["jwks_uri"]
    context = ssl.create_default_context(cafile=idp.ca)

    def client_token():
        r = session.post(idp.url("/%s/oauth2/v2.0/token" % CONTOSO), data={
            "grant_type": "client_credentials", "client_id": DAEMON, "client_secret": DAEMON_SECRET,
            "scope": "api://contoso-api/.default"})
        assert r.status_code == 200, r.text
        return r.json()["access_token"]

    def verify(client, token):
        key = client.get_signing_key_from_jwt(token)
        return jwt.decode(token, key.key, algorithms=["RS256"], audience=API)

    # PyJWT refetches for an unknown kid at most every cooldown_duration seconds (30 by default), counting the first
    # fetch too; a test that rotates right away turns the cooldown off.
    keys = jwt.PyJWKClient(jwks_uri, ssl_context=context, cooldown_duration=0)
    old = client_token()
    assert verify(keys, old)["azp"] == DAEMON

    rotated = control(idp, "keys/rotate", {})
    new = client_token()
    assert jwt.get_unverified_header(new)["kid"] == rotated["kid"] != jwt.get_unverified_header(old)["kid"]
    # The client had cached the old key set: an unknown kid makes it fetch again, and it finds the new key.
    assert verify(keys, new)["azp"] == DAEMON
    assert verify(keys, old)["azp"] == DAEMON

    retired = control(idp, "keys/retire", {})
    assert retired["retired"] == [jwt.get_unverified_header(old)["kid"]]
    fresh = jwt.PyJWKClient(jwks_uri, ssl_context=context, cooldown_duration=0)
    assert verify(fresh, new)["azp"] == DAEMON
    with pytest.raises(jwt.PyJWKClientError):
        verify(fresh, old)
