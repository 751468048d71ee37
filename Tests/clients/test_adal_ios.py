"""What ADAL for iOS and macOS sends to the v1 endpoints, request for request, then ADAL Python and MSAL Python carrying
on with its refresh token (the ADAL/MSAL single sign-on rules).

The requests follow azure-activedirectory-library-for-objc 6.0.5 (IdentityCore at its submodule commit):
- the sign-in page: ADALWebAuthController's MSIDWebviewConfiguration (resource, no scopes) laid out by
  MSIDAADV1WebviewFactory/MSIDAADWebviewFactory: response_type=code, client_id, redirect_uri, resource, login_hint,
  state, return-client-request-id, client-request-id, haschrome=1 and the x-client-* device ids;
- the code redemption: ADALAuthenticationRequest+AcquireToken.m, requestTokenByCode:: grant_type, code, client_id,
  redirect_uri, client_info=@YES (sent as "1"), and scope when the request has one (scope=openid) -- no resource;
- the silent refresh: ADALAcquireTokenSilentHandler.m, acquireTokenByRefreshToken:: grant_type, refresh_token,
  client_id, client_info, resource, and scope=openid (openIdScopesString) once the cache holds an ID token.
Entra's v1 token endpoint reads that `openid` as OpenID's: the token is for the resource of the code, with a refresh
token and an ID token."""
import base64
import json
import uuid
from urllib.parse import urlencode

import adal
import jwt
import msal
import pytest
import requests

from conftest import ALICE, ALICE_OID, API, CONTOSO, MOBILE
from test_adal import GRAPH, verify_v1
from test_signin import browser, redirect_query, submit_sign_in

REDIRECT_URI = "msauth.com.contoso.mobile://auth"   # a registered redirect URI of the default public client
ADAL_HEADERS = {"x-client-SKU": "iOS", "x-client-Ver": "6.0.5", "x-client-OS": "17.0", "x-client-DM": "iPhone",
                "return-client-request-id": "true", "Accept": "application/json"}


def adal_ios_code(server, resource):
    """The embedded web view's sign-in, as ADAL for iOS lays out the authorize URL; returns the code."""
    correlation = str(uuid.uuid4())
    query = {"client_id": MOBILE, "response_type": "code", "redirect_uri": REDIRECT_URI, "login_hint": ALICE,
             "state": base64.urlsafe_b64encode(str(uuid.uuid4()).encode()).decode().rstrip("="), "resource": resource,
             "return-client-request-id": "true", "client-request-id": correlation, "haschrome": "1",
             "x-client-SKU": "iOS", "x-client-Ver": "6.0.5", "x-client-OS": "17.0", "x-client-DM": "iPhone"}
    b = browser(server)
    page = b.get(server.url("/%s/oauth2/authorize?%s" % (CONTOSO, urlencode(query))), allow_redirects=False)
    assert page.status_code == 200, page.text[:300]
    location, answer = redirect_query(submit_sign_in(b, server, page, ALICE, "alice-password"))
    assert location.scheme == "msauth.com.contoso.mobile" and answer["state"] == query["state"]
    return answer["code"]


def adal_ios_token(server, data):
    response = requests.post(server.url("/%s/oauth2/token" % CONTOSO), data=data, verify=server.ca,
                             headers=dict(ADAL_HEADERS, **{"client-request-id": str(uuid.uuid4())}))
    assert response.status_code == 200, response.text
    return response.json()


def client_info(token_response):
    raw = token_response["client_info"]
    return json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))


@pytest.mark.parametrize("scope", ["openid", None], ids=["scope=openid", "no scope"])
def test_adal_ios_redeems_a_v1_code_for_its_resource(server, scope):
    code = adal_ios_code(server, GRAPH)
    data = {"grant_type": "authorization_code", "code": code, "client_id": MOBILE, "redirect_uri": REDIRECT_URI,
            "client_info": "1"}
    if scope:
        data["scope"] = scope
    body = adal_ios_token(server, data)
    # The token is Graph's, as the code is: not a token for `openid`.
    assert body["resource"] == GRAPH and body["token_type"] == "Bearer" and isinstance(body["expires_on"], str)
    claims = verify_v1(server, body["access_token"], GRAPH)
    assert claims["scp"] == "User.Read" and claims["appid"] == MOBILE and claims["upn"] == ALICE
    assert body["scope"] == "User.Read" and body["refresh_token"]
    id_claims = verify_v1(server, body["id_token"], MOBILE)
    assert id_claims["ver"] == "1.0" and id_claims["oid"] == ALICE_OID and id_claims["upn"] == ALICE
    # client_info=1: MSAL's account key (uid.utid), which ADAL 2.7 and later writes into the shared cache.
    assert client_info(body) == {"uid": ALICE_OID, "utid": CONTOSO}


def test_adal_ios_refreshes_with_resource_and_openid_then_adal_python_and_msal_carry_on(server):
    first = adal_ios_token(server, {"grant_type": "authorization_code", "code": adal_ios_code(server, "api://contoso-api"),
                                    "client_id": MOBILE, "redirect_uri": REDIRECT_URI, "client_info": "1", "scope": "openid"})
    assert first["resource"] == "api://contoso-api" and first["refresh_token"] and first["id_token"]
    api = jwt.decode(first["access_token"], options={"verify_signature": False})
    assert api["aud"] == API and api["scp"] == "access_as_user" and api["ver"] == "2.0"

    # ADAL's silent refresh for another resource: `resource` names it, `scope=openid` asks for the ID token.
    graph = adal_ios_token(server, {"grant_type": "refresh_token", "refresh_token": first["refresh_token"], "client_id": MOBILE,
                                    "client_info": "1", "resource": GRAPH, "scope": "openid"})
    assert graph["resource"] == GRAPH and graph["refresh_token"] and graph["id_token"]
    assert verify_v1(server, graph["access_token"], GRAPH)["scp"] == "User.Read"
    assert client_info(graph) == {"uid": ALICE_OID, "utid": CONTOSO}

    # The same refresh token in ADAL Python (resource, no scope), unmodified.
    ctx = adal.AuthenticationContext(server.url("/" + CONTOSO), validate_authority=False)
    from_adal = ctx.acquire_token_with_refresh_token(graph["refresh_token"], MOBILE, "api://contoso-api")
    assert from_adal["resource"] == "api://contoso-api" and from_adal["userId"] == ALICE and from_adal["oid"] == ALICE_OID

    # MSAL Python picks the refresh token up (its ADAL migration path) and then signs in silently from its own cache.
    app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
    migrated = app.acquire_token_by_refresh_token(graph["refresh_token"], scopes=["User.Read"])
    assert "access_token" in migrated, migrated
    [account] = app.get_accounts()
    assert account["home_account_id"] == "%s.%s" % (ALICE_OID, CONTOSO) and account["username"] == ALICE
    silent = app.acquire_token_silent(["api://contoso-api/access_as_user"], account=account)
    assert silent and silent["token_source"] == "identity_provider", silent
    assert jwt.decode(silent["access_token"], options={"verify_signature": False})["aud"] == API


def test_adal_python_password_grant_sends_openid_beside_resource_then_refreshes_from_its_cache(server):
    # ADAL Python's password grant sends scope=openid with resource (token_request.py, _create_oauth_parameters).
    ctx = adal.AuthenticationContext(server.url("/" + CONTOSO), validate_authority=False)
    token = ctx.acquire_token_with_username_password("api://contoso-api", ALICE, "alice-password", MOBILE)
    assert token["resource"] == "api://contoso-api" and token["refreshToken"]
    assert jwt.decode(token["accessToken"], options={"verify_signature": False})["aud"] == API
    # Another resource from its cache: ADAL redeems the multi-resource refresh token with `resource` alone.
    graph = ctx.acquire_token(GRAPH, ALICE, MOBILE)
    assert graph["resource"] == GRAPH
    assert verify_v1(server, graph["accessToken"], GRAPH)["scp"] == "User.Read"
