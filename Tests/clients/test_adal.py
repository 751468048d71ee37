"""ADAL Python (the deprecated v1 library, unmodified) against the v1 endpoints: /oauth2/authorize and /oauth2/token
with `resource`, client credentials with `resource`, the device code flow; every token verified with PyJWT from the published keys. Also
the same person across ADAL and MSAL, v1 and v2, and apps (the ADAL/MSAL single sign-on rules)."""
from urllib.parse import urlencode

import adal
import jwt
import msal
import pytest
import requests

from conftest import ALICE, ALICE_OID, API, CONTOSO, CONTOSO_DOMAIN, DAEMON, DAEMON_SECRET, MOBILE, WEB, WEB_SECRET
from namespace import run_at_real_hosts
from test_signin import browser, redirect_query, submit_sign_in

GRAPH = "https://graph.microsoft.com"
V1_ISSUER = "https://sts.windows.net/%s/" % CONTOSO


def keys(server, path):
    return {k["kid"]: jwt.PyJWK(k) for k in requests.get(server.url(path), verify=server.ca).json()["keys"]}


def verify_v1(server, token, audience):
    """A v1 token, as an API reads it: the v1 document's issuer and key set (/common/discovery/keys)."""
    doc = requests.get(server.url("/%s/.well-known/openid-configuration" % CONTOSO), verify=server.ca).json()
    assert doc["issuer"] == V1_ISSUER and doc["jwks_uri"] == server.url("/common/discovery/keys")
    key = keys(server, "/common/discovery/keys")[jwt.get_unverified_header(token)["kid"]]
    return jwt.decode(token, key.key, algorithms=["RS256"], audience=audience, issuer=V1_ISSUER)


def context(server):
    # ADAL validates authorities through login.microsoftonline.com unless told not to: a local host must say so.
    # (At the real host names, see test_adal_at_a_real_host_name, no switch is needed.)
    return adal.AuthenticationContext(server.url("/" + CONTOSO_DOMAIN), validate_authority=False)


def test_authorization_code_through_the_v1_endpoints(server):
    b = browser(server)
    redirect_uri = "http://localhost:5000"
    # What an ADAL web app puts in its sign-in link: response_type=code with `resource`, no scope.
    query = {"response_type": "code", "client_id": WEB, "redirect_uri": redirect_uri, "resource": "api://contoso-api",
             "state": "adal-state", "login_hint": ALICE}
    page = b.get(server.url("/%s/oauth2/authorize?%s" % (CONTOSO_DOMAIN, urlencode(query))), allow_redirects=False)
    assert page.status_code == 200, page.text[:300]
    _, answer = redirect_query(submit_sign_in(b, server, page, ALICE, "alice-password"))
    assert answer["state"] == "adal-state"

    token = context(server).acquire_token_with_authorization_code(answer["code"], redirect_uri, "api://contoso-api", WEB, WEB_SECRET)
    assert token["userId"] == ALICE and token["tenantId"] == CONTOSO and token["oid"] == ALICE_OID
    assert token["resource"] == "api://contoso-api" and token["givenName"] == "Alice"
    # The API accepts v2 tokens (accessTokenVersion: 2): its token is v2 although the v1 endpoint issued it.
    doc = requests.get(server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO), verify=server.ca).json()
    key = keys(server, "/%s/discovery/v2.0/keys" % CONTOSO)[jwt.get_unverified_header(token["accessToken"])["kid"]]
    api = jwt.decode(token["accessToken"], key.key, algorithms=["RS256"], audience=API, issuer=doc["issuer"])
    assert api["ver"] == "2.0" and api["scp"] == "access_as_user" and api["azp"] == WEB and api["azpacr"] == "1"

    # v1 refresh tokens are multi-resource: the same one buys a Graph token, which is a v1 token.
    graph = context(server).acquire_token_with_refresh_token(token["refreshToken"], WEB, GRAPH, WEB_SECRET)
    claims = verify_v1(server, graph["accessToken"], GRAPH)
    assert claims["ver"] == "1.0" and claims["appid"] == WEB and claims["appidacr"] == "1"
    assert claims["upn"] == ALICE and claims["unique_name"] == ALICE and claims["oid"] == ALICE_OID
    assert claims["amr"] == ["pwd"] and "preferred_username" not in claims

    # Over the wire, the v1 answer has numbers as strings, expires_on, not_before and resource, and a v1 ID token.
    raw = requests.post(server.url("/%s/oauth2/token" % CONTOSO), verify=server.ca, data={
        "grant_type": "refresh_token", "client_id": WEB, "client_secret": WEB_SECRET, "refresh_token": token["refreshToken"],
        "resource": GRAPH}).json()
    assert isinstance(raw["expires_in"], str) and int(raw["expires_on"]) - int(raw["not_before"]) == int(raw["expires_in"])
    assert raw["resource"] == GRAPH
    id_claims = jwt.decode(raw["id_token"], keys(server, "/common/discovery/keys")[jwt.get_unverified_header(raw["id_token"])["kid"]].key,
                           algorithms=["RS256"], audience=WEB, issuer=V1_ISSUER)
    assert id_claims["ver"] == "1.0" and id_claims["upn"] == ALICE and jwt.get_unverified_header(raw["id_token"])["x5t"]


def test_client_credentials_with_resource(server):
    graph = context(server).acquire_token_with_client_credentials(GRAPH, DAEMON, DAEMON_SECRET)
    claims = verify_v1(server, graph["accessToken"], GRAPH)
    assert claims["roles"] == ["User.Read.All"] and claims["appid"] == DAEMON and claims["idtyp"] == "app"
    assert claims["tid"] == CONTOSO and claims["ver"] == "1.0"
    api = context(server).acquire_token_with_client_credentials("api://contoso-api", DAEMON, DAEMON_SECRET)
    assert jwt.decode(api["accessToken"], options={"verify_signature": False})["ver"] == "2.0"
    with pytest.raises(adal.AdalError) as wrong:
        context(server).acquire_token_with_client_credentials(GRAPH, DAEMON, "not-the-secret")
    assert wrong.value.error_response["error_codes"] == [7000215]
    with pytest.raises(adal.AdalError) as unknown:
        context(server).acquire_token_with_client_credentials("https://nothing.example", DAEMON, DAEMON_SECRET)
    assert unknown.value.error_response["error_codes"] == [500011]


def test_device_code_through_the_v1_endpoints(server):
    from test_device_code import device_login
    ctx = context(server)
    code = ctx.acquire_user_code(GRAPH, MOBILE)
    # ADAL reads v1's verification_url (v2 says verification_uri).
    assert code["verification_url"] == server.url("/devicelogin") and code["user_code"] in code["message"]
    device_login(server, code["user_code"], "signin", ALICE, "alice-password")
    token = ctx.acquire_token_with_device_code(GRAPH, code, MOBILE)
    assert token["userId"] == ALICE and token["resource"] == GRAPH
    claims = verify_v1(server, token["accessToken"], GRAPH)
    assert claims["appid"] == MOBILE and claims["scp"] == "User.Read" and claims["ver"] == "1.0"


@pytest.mark.filterwarnings("ignore:response_mode='form_post' is recommended")
def test_the_same_person_from_adal_and_msal_v1_and_v2_and_two_apps(server):
    v1 = context(server).acquire_token_with_username_password(GRAPH, ALICE, "alice-password", MOBILE)
    msal_app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
    flow = msal_app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:5001", login_hint=ALICE)
    b = browser(server)
    page = b.get(flow["auth_uri"], allow_redirects=False)
    _, answer = redirect_query(submit_sign_in(b, server, page, ALICE, "alice-password"))
    v2 = msal_app.acquire_token_by_auth_code_flow(flow, answer)
    assert "access_token" in v2, v2
    web = msal.ConfidentialClientApplication(WEB, client_credential=WEB_SECRET, authority=server.url("/" + CONTOSO),
                                             instance_discovery=False)
    other = web.acquire_token_by_auth_code_flow(*_signed_in_again(web, b, server))
    assert "access_token" in other, other

    v1_id = jwt.decode(requests.post(server.url("/%s/oauth2/token" % CONTOSO), verify=server.ca, data={
        "grant_type": "refresh_token", "client_id": MOBILE, "refresh_token": v1["refreshToken"], "resource": GRAPH}).json()["id_token"],
        options={"verify_signature": False})
    assert v1["oid"] == v2["id_token_claims"]["oid"] == other["id_token_claims"]["oid"] == v1_id["oid"] == ALICE_OID
    assert v1["userId"] == v1_id["upn"] == v2["id_token_claims"]["preferred_username"] == other["id_token_claims"]["preferred_username"]
    # MSAL's home_account_id (uid.utid from client_info) is the same in both apps.
    homes = {a["home_account_id"] for a in msal_app.get_accounts() + web.get_accounts()}
    assert homes == {ALICE_OID + "." + CONTOSO}


def _signed_in_again(app, b, server):
    """Single sign-on: the browser session signs Alice in to a second app without the page."""
    flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:5002", login_hint=ALICE)
    _, answer = redirect_query(b.get(flow["auth_uri"], allow_redirects=False))
    return flow, answer


# --- at a real host name: ADAL knows login.microsoftonline.de and validates nothing there -------------------------

GERMANY = "db6a725b-51ed-4fca-ac7b-55c6fb045799"


def adal_at_login_microsoftonline_de(server):
    ctx = adal.AuthenticationContext("https://login.microsoftonline.de/contosode.onmicrosoft.de")
    token = ctx.acquire_token_with_username_password("api://contosode-api", "klaus@contosode.onmicrosoft.de", "klaus-password",
                                                     "fe18e240-73f6-4544-ae95-b046a08486da")
    assert token["tenantId"] == GERMANY and token["userId"] == "klaus@contosode.onmicrosoft.de"
    doc = requests.get("https://login.microsoftonline.de/%s/.well-known/openid-configuration" % GERMANY).json()
    assert doc["issuer"] == "https://sts.microsoftonline.de/%s/" % GERMANY and doc["cloud_instance_name"] == "microsoftonline.de"
    # The Germany API takes v2 tokens: issued by the cloud's v2 issuer, verified from the discovered keys.
    v2doc = requests.get("https://login.microsoftonline.de/%s/v2.0/.well-known/openid-configuration" % GERMANY).json()
    jwks = {k["kid"]: jwt.PyJWK(k) for k in requests.get(v2doc["jwks_uri"]).json()["keys"]}
    claims = jwt.decode(token["accessToken"], jwks[jwt.get_unverified_header(token["accessToken"])["kid"]].key, algorithms=["RS256"],
                        audience="17cde191-86cf-4ba8-81ab-c4d897ed68e3", issuer=v2doc["issuer"])
    assert claims["scp"] == "access_as_user"
    assert "GET /common/userrealm/klaus@contosode.onmicrosoft.de 200" in server.log().replace("UserRealm", "userrealm")


def test_adal_at_a_real_host_name():
    run_at_real_hosts(__file__, "adal_at_login_microsoftonline_de", ["login.microsoftonline.de"],
                      ["config/examples/sovereign.yaml"])
