"""Every issued token verified by an independent library (PyJWT) from the discovered jwks_uri."""
import time

import jwt
import pytest
import requests

from conftest import (ALICE, ALICE_OID, API, CONTOSO, CONTOSO_DOMAIN, DAEMON, DAEMON_SECRET, WEB, WEB_SECRET)


def discover(session, server, tenant):
    doc = session.get(server.url("/%s/v2.0/.well-known/openid-configuration" % tenant)).json()
    keys = session.get(doc["jwks_uri"]).json()
    return doc, {k["kid"]: jwt.PyJWK(k) for k in keys["keys"]}


def verify(token, keys, audience, issuer):
    kid = jwt.get_unverified_header(token)["kid"]
    return jwt.decode(token, keys[kid].key, algorithms=["RS256"], audience=audience, issuer=issuer,
                      options={"require": ["exp", "iat", "nbf", "iss", "aud"]})


def post_token(session, server, tenant, **form):
    return session.post(server.url("/%s/oauth2/v2.0/token" % tenant), data=form)


def test_discovery_names_the_tenant_guid_even_when_asked_by_domain(session, server):
    doc, keys = discover(session, server, CONTOSO_DOMAIN)
    assert doc["issuer"] == server.url("/%s/v2.0" % CONTOSO)
    assert doc["token_endpoint"] == server.url("/%s/oauth2/v2.0/token" % CONTOSO)
    assert doc["cloud_instance_name"] == "microsoftonline.com"
    # Graph answers on this server's own host, so msgraph_host names it (host:port, no scheme, as Entra writes it).
    assert doc["msgraph_host"] == server.base_url.split("://", 1)[1]
    assert keys, "the key set is empty"
    for kid, key in keys.items():
        assert len(kid) == 27


def test_client_credentials_token_verifies(session, server):
    doc, keys = discover(session, server, CONTOSO)
    r = post_token(session, server, CONTOSO, grant_type="client_credentials", client_id=DAEMON,
                   client_secret=DAEMON_SECRET, scope="api://contoso-api/.default")
    assert r.status_code == 200, r.text
    claims = verify(r.json()["access_token"], keys, API, doc["issuer"])
    assert claims["tid"] == CONTOSO
    assert claims["azp"] == DAEMON and claims["azpacr"] == "1"
    assert claims["oid"] == claims["sub"]
    assert claims["exp"] > time.time() + 3000
    assert claims["ver"] == "2.0"


def test_the_same_client_credentials_request_again_gets_a_new_token_with_the_same_claims(session, server):
    """The server answers a request it answered before from a template of that answer: each answer must still be a
    new token, differing from the last only in its times and its aio, rh and uti, and claims registered in between
    must land in the next one, as the whole token path would put them."""
    doc, keys = discover(session, server, CONTOSO)
    form = dict(grant_type="client_credentials", client_id=DAEMON, client_secret=DAEMON_SECRET,
                scope="api://contoso-api/.default")
    answers = [post_token(session, server, CONTOSO, **form) for _ in range(3)]
    for r in answers:
        assert r.status_code == 200, r.text
        assert r.headers["Cache-Control"] == "no-store, no-cache"
        assert list(r.json()) == ["token_type", "expires_in", "ext_expires_in", "access_token"]
    claims = [verify(r.json()["access_token"], keys, API, doc["issuer"]) for r in answers]
    for name in ("aio", "rh", "uti"):
        assert len({c[name] for c in claims}) == 3, name
    varying = ("iat", "nbf", "exp", "aio", "rh", "uti")
    kept = [{k: v for k, v in c.items() if k not in varying} for c in claims]
    assert kept[0] == kept[1] == kept[2]
    assert list(claims[0]) == list(claims[2])  # Entra's claim order, the same in every answer
    r = requests.post(server.url("/_mockidp/claims"), json={"clientId": DAEMON, "claims": {"xms_cc_test": "once"}},
                      verify=server.ca)
    assert r.status_code == 201, r.text
    once = verify(post_token(session, server, CONTOSO, **form).json()["access_token"], keys, API, doc["issuer"])
    assert once["xms_cc_test"] == "once"
    after = verify(post_token(session, server, CONTOSO, **form).json()["access_token"], keys, API, doc["issuer"])
    assert "xms_cc_test" not in after and {k: v for k, v in after.items() if k not in varying} == kept[0]
    wrong = post_token(session, server, CONTOSO, **dict(form, client_secret="wrong"))
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"


def test_graph_client_credentials_token_is_version_1(session, server):
    _, keys = discover(session, server, CONTOSO)
    r = post_token(session, server, CONTOSO, grant_type="client_credentials", client_id=DAEMON,
                   client_secret=DAEMON_SECRET, scope="https://graph.microsoft.com/.default")
    assert r.status_code == 200, r.text
    claims = verify(r.json()["access_token"], keys, "https://graph.microsoft.com", "https://sts.windows.net/%s/" % CONTOSO)
    assert claims["roles"] == ["User.Read.All"]
    assert claims["appid"] == DAEMON and claims["ver"] == "1.0"


def test_password_grant_id_and_access_tokens_verify(session, server):
    doc, keys = discover(session, server, CONTOSO)
    r = post_token(session, server, CONTOSO, grant_type="password", client_id=WEB, client_secret=WEB_SECRET,
                   username=ALICE, password="alice-password",
                   scope="api://contoso-api/access_as_user openid profile offline_access", client_info="1")
    assert r.status_code == 200, r.text
    body = r.json()
    id_claims = verify(body["id_token"], keys, WEB, doc["issuer"])
    assert id_claims["oid"] == ALICE_OID and id_claims["tid"] == CONTOSO
    assert id_claims["preferred_username"] == ALICE
    assert id_claims["department"] == "Sales"
    at_claims = verify(body["access_token"], keys, API, doc["issuer"])
    assert at_claims["scp"] == "access_as_user"
    assert at_claims["oid"] == ALICE_OID
    assert body["scope"] == "api://contoso-api/access_as_user openid profile offline_access"
    # The refresh token yields new tokens that verify too.
    r2 = post_token(session, server, CONTOSO, grant_type="refresh_token", client_id=WEB, client_secret=WEB_SECRET,
                    refresh_token=body["refresh_token"], scope="api://contoso-api/access_as_user openid")
    assert r2.status_code == 200, r2.text
    verify(r2.json()["access_token"], keys, API, doc["issuer"])


def test_a_tampered_token_fails_verification(session, server):
    doc, keys = discover(session, server, CONTOSO)
    r = post_token(session, server, CONTOSO, grant_type="client_credentials", client_id=DAEMON,
                   client_secret=DAEMON_SECRET, scope="api://contoso-api/.default")
    header, payload, signature = r.json()["access_token"].split(".")
    tampered = header + "." + payload[:-4] + ("AAAA" if payload[-4:] != "AAAA" else "BBBB") + "." + signature
    with pytest.raises(jwt.PyJWTError):
        verify(tampered, keys, API, doc["issuer"])
