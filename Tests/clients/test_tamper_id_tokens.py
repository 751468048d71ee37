"""ID-token defects through the front channel (hybrid `code id_token token` with headless sign-in), validated as a
web app does it with authlib's OpenID Connect classes: signature (RS256 only), issuer, audience, lifetime, nonce,
c_hash and at_hash. The clean response passes; each tamper fault makes the validation fail for its own reason."""
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from authlib.jose import JsonWebKey, JsonWebToken
from authlib.jose.errors import JoseError
from authlib.oidc.core import HybridIDToken
from joserfc.errors import JoseError as JoserfcError

from conftest import ALICE, CONTOSO
from test_headless import CI_APP, ci_server  # noqa: F401 (the fixture: the default configuration with headless-ci.yaml)


def session(server):
    s = requests.Session()
    s.trust_env = False
    s.verify = server.ca
    return s


def hybrid_response(server):
    r = session(server).get(server.url("/%s/oauth2/v2.0/authorize" % CONTOSO), allow_redirects=False, params={
        "client_id": CI_APP, "redirect_uri": "http://localhost:40000", "response_type": "code id_token token",
        "scope": "openid User.Read", "login_hint": ALICE, "nonce": "n-7", "state": "s"})
    assert r.status_code == 302, r.text[:300]
    return {k: v[0] for k, v in parse_qs(urlparse(r.headers["Location"]).fragment).items()}


def validate(server, response):
    """The web app's check; raises on any defect."""
    s = session(server)
    doc = s.get(server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO)).json()
    keys = JsonWebKey.import_key_set(s.get(doc["jwks_uri"]).json())
    claims = JsonWebToken(["RS256"]).decode(
        response["id_token"], keys, claims_cls=HybridIDToken,
        claims_options={"iss": {"essential": True, "value": doc["issuer"]}, "aud": {"essential": True, "value": CI_APP},
                        "sub": {"essential": True}, "iat": {"essential": True}, "exp": {"essential": True},
                        "nonce": {"essential": True}},
        claims_params={"nonce": "n-7", "code": response["code"], "access_token": response["access_token"]})
    claims.validate(leeway=60)
    return claims


# What authlib's refusal names for each defect.
REASONS = {"wrong-nonce": "nonce", "no-nonce": "nonce", "bad-c_hash": "c_hash", "bad-at_hash": "at_hash",
           "expired": "expired", "not-yet-valid": "not yet valid", "wrong-audience": "aud", "wrong-issuer": "iss",
           "no-sub": "sub", "no-iat": "iat", "alg-none": "unsupported_algorithm", "hs256-public-key": "unsupported_algorithm",
           "bad-signature": "bad_signature", "unknown-kid": "key not found"}


def tamper(server, defect):
    r = session(server).post(server.url("/_mockidp/faults"), json={"tamper": defect, "token": "id", "clientId": CI_APP})
    assert r.status_code == 201, r.text


def test_the_clean_hybrid_response_validates(ci_server):
    claims = validate(ci_server, hybrid_response(ci_server))
    assert claims["nonce"] == "n-7" and "c_hash" in claims and "at_hash" in claims


@pytest.mark.parametrize("defect", ["wrong-nonce", "no-nonce", "bad-c_hash", "bad-at_hash", "expired", "not-yet-valid",
                                    "wrong-audience", "wrong-issuer", "no-sub", "no-iat", "alg-none", "hs256-public-key",
                                    "bad-signature", "unknown-kid"])
def test_each_id_token_defect_fails_validation(ci_server, defect):
    tamper(ci_server, defect)
    response = hybrid_response(ci_server)
    with pytest.raises((JoseError, JoserfcError, ValueError, KeyError)) as failure:
        validate(ci_server, response)
    print(defect, "->", repr(failure.value))
    assert REASONS[defect] in repr(failure.value).lower(), repr(failure.value)
    # The fault was used once: the next response is clean again.
    validate(ci_server, hybrid_response(ci_server))
