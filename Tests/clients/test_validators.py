"""Access tokens with one defect, out of the normal flow (client credentials with a tamper fault), against two real
validators set up as an API sets them up: PyJWT with PyJWKClient (keys from the discovered jwks_uri) and joserfc
with a KeySet of the same keys. Each refuses each defect for that defect's own reason; where a library on its own
lets one through (joserfc picks the only key of a one-key set for a token without a kid), the test says so and the
API's own check catches it."""
import ssl

import jwt
import pytest
import requests
from joserfc import errors as jose_errors
from joserfc import jwt as jose_jwt
from joserfc.jwk import KeySet
from joserfc.jwt import JWTClaimsRegistry

from conftest import API, CONTOSO, DAEMON, DAEMON_SECRET


class Refused(Exception):
    """A check of the API's own, past what the library does; the message names the claim."""


# Each defect's refusal: the exception's class and a word of its message (the claim or what failed). PyJWT checks
# the signature, alg, iss, aud, the times and the claims required; tid and azp are the API's own checks. alg-none
# keeps the header's kid, so PyJWKClient finds the key and the refusal is PyJWT's algorithm check, as in a real attack.
PYJWT = {
    "bad-signature": (jwt.InvalidSignatureError, "Signature"), "alg-none": (jwt.InvalidAlgorithmError, "alg"),
    "hs256-public-key": (jwt.InvalidAlgorithmError, "alg"), "unknown-kid": (jwt.PyJWKClientError, "signing key"),
    "no-kid": (jwt.PyJWKClientError, '"None"'), "wrong-issuer": (jwt.InvalidIssuerError, "issuer"),
    "wrong-audience": (jwt.InvalidAudienceError, "Audience"), "wrong-tenant": (jwt.InvalidIssuerError, "issuer"),
    "expired": (jwt.ExpiredSignatureError, "expired"), "not-yet-valid": (jwt.ImmatureSignatureError, "nbf"),
    "issued-in-future": (jwt.ImmatureSignatureError, "iat"), "no-iat": (jwt.MissingRequiredClaimError, "iat"),
    "no-sub": (jwt.MissingRequiredClaimError, "sub"), "wrong-azp": (Refused, "azp"),
}
# joserfc's claims registry checks tid and azp too (a value per claim); the kid is the API's own check.
JOSERFC = {
    "bad-signature": (jose_errors.BadSignatureError, "bad_signature"),
    "alg-none": (jose_errors.UnsupportedAlgorithmError, "'none'"),
    "hs256-public-key": (jose_errors.UnsupportedAlgorithmError, "'HS256'"),
    "unknown-kid": (jose_errors.InvalidKeyIdError, "kid"), "no-kid": (Refused, "kid"),
    "wrong-issuer": (jose_errors.InvalidClaimError, "'iss'"), "wrong-audience": (jose_errors.InvalidClaimError, "'aud'"),
    "wrong-tenant": (jose_errors.InvalidClaimError, "'iss'"), "expired": (jose_errors.ExpiredTokenError, "expired"),
    "not-yet-valid": (jose_errors.InvalidClaimError, "not yet valid"),
    "issued-in-future": (jose_errors.InvalidClaimError, "issued in the future"),
    "no-iat": (jose_errors.MissingClaimError, "'iat'"), "no-sub": (jose_errors.MissingClaimError, "'sub'"),
    "wrong-azp": (jose_errors.InvalidClaimError, "'azp'"),
}


class Validators:
    """The discovered issuer and key set, and the two validators."""

    def __init__(self, server):
        self.session = requests.Session()
        self.session.verify = server.ca
        doc = self.session.get(server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO)).json()
        self.issuer = doc["issuer"]
        self.jwks = self.session.get(doc["jwks_uri"]).json()
        self.pyjwk = jwt.PyJWKClient(doc["jwks_uri"], ssl_context=ssl.create_default_context(cafile=server.ca))
        self.keyset = KeySet.import_key_set(self.jwks)
        self.server = server

    def token(self, defect=None):
        if defect:
            r = self.session.post(self.server.url("/_mockidp/faults"),
                                  json={"tamper": defect, "token": "access", "clientId": DAEMON})
            assert r.status_code == 201, r.text
        r = self.session.post(self.server.url("/%s/oauth2/v2.0/token" % CONTOSO), data={
            "grant_type": "client_credentials", "client_id": DAEMON, "client_secret": DAEMON_SECRET,
            "scope": "api://contoso-api/.default"})
        assert r.status_code == 200, r.text
        return r.json()["access_token"]

    def pyjwt(self, token):
        key = self.pyjwk.get_signing_key_from_jwt(token)
        claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=API, issuer=self.issuer, leeway=60,
                            options={"require": ["exp", "nbf", "iat", "iss", "aud", "sub", "tid", "azp"]})
        if claims["tid"] != CONTOSO:
            raise Refused("tid")
        if claims["azp"] != DAEMON:
            raise Refused("azp")
        return claims

    def joserfc_alone(self, token):
        decoded = jose_jwt.decode(token, self.keyset, algorithms=["RS256"])
        JWTClaimsRegistry(leeway=60, iss={"essential": True, "value": self.issuer},
                          aud={"essential": True, "value": API}, sub={"essential": True},
                          iat={"essential": True}, nbf={"essential": True}, exp={"essential": True},
                          tid={"essential": True, "value": CONTOSO},
                          azp={"essential": True, "value": DAEMON}).validate(decoded.claims)
        return decoded.claims

    def joserfc(self, token):
        claims = self.joserfc_alone(token)
        # The API's own line: Entra's tokens always name their key.
        if "kid" not in jwt.get_unverified_header(token):
            raise Refused("kid")
        return claims


@pytest.fixture
def api(server):
    return Validators(server)


def refusal(validate, token):
    """What `validate` raised for `token`: the exception, or None when it accepted the token."""
    try:
        validate(token)
    except Exception as e:  # noqa: BLE001 (the caller compares the exact type)
        return e
    return None


def matches(expected, error):
    kind, word = expected
    return type(error) is kind and word in str(error)


def test_the_clean_token_passes_both(api):
    token = api.token()
    assert api.pyjwt(token)["azp"] == DAEMON
    assert api.joserfc(token)["azp"] == DAEMON


@pytest.mark.parametrize("defect", sorted(PYJWT))
def test_each_defect_is_refused_for_its_own_reason(api, defect):
    token = api.token(defect)
    for name, validate, expected in [("PyJWT", api.pyjwt, PYJWT[defect]), ("joserfc", api.joserfc, JOSERFC[defect])]:
        error = refusal(validate, token)
        print(defect, name, "->", repr(error))
        assert error is not None, "%s accepted a token with %s" % (name, defect)
        assert matches(expected, error), "%s refused %s with %r, expected %r" % (name, defect, error, expected)
    # The fault was used once: the next token of the flow passes both.
    clean = api.token()
    assert api.pyjwt(clean) and api.joserfc(clean)


def test_joserfc_alone_takes_the_only_key_for_a_token_without_a_kid(api):
    """Why the API checks `kid` itself: with a one-key set (mockidp publishes one key until a rotation), joserfc
    verifies a token that names no key with that key."""
    assert len(api.jwks["keys"]) == 1
    assert api.joserfc_alone(api.token("no-kid"))["azp"] == DAEMON
