"""pyoidc (`oic`), unchanged, as a relying party of an Entra tenant, set up as its documentation sets up a client:
provider configuration from the issuer (the issuer in the document must equal the one asked for), the key set from
`jwks_uri`, a static client registration (client ID, secret, redirect URI), the code flow with its own ID-token
verification (signature, `iss`, `aud`, `azp`, `nonce`, `exp`, `iat`), the hybrid flow with `c_hash`, and UserInfo
with its `sub` check against the ID token."""
from urllib.parse import urlencode

import pytest
from oic import rndstr
from oic.exception import PyoidcError
from oic.oic import Client
from oic.oauth2.message import ErrorResponse
from oic.oic.message import AuthorizationResponse, OpenIDSchema, RegistrationResponse
from oic.utils.authn.client import CLIENT_AUTHN_METHOD
from oic.utils.settings import ClientSettings

from conftest import own_session
from html_forms import forms
from northwind import NINA, NINA_EMAIL, NINA_NAME, NINA_PASSWORD, NORTHWIND, PORTAL, PORTAL_SECRET, northwind  # noqa: F401
from test_signin import redirect_query, submit_sign_in

REDIRECT = "https://portal.northwind.example/pyoidc/callback"


def new_client(server):
    """pyoidc's client for the tenant's v2.0 issuer, registered statically as its docs show."""
    client = Client(client_authn_method=CLIENT_AUTHN_METHOD, settings=ClientSettings(verify_ssl=server.ca))
    client.provider_config(server.url("/%s/v2.0" % NORTHWIND))
    client.store_registration_info(RegistrationResponse(client_id=PORTAL, client_secret=PORTAL_SECRET,
                                                        redirect_uris=[REDIRECT]))
    return client


def authorize(server, client, **args):
    state, nonce = rndstr(), rndstr()
    request_args = {"response_type": "code", "scope": ["openid", "profile", "email"], "state": state, "nonce": nonce,
                    "redirect_uri": REDIRECT, **args}
    url = client.construct_AuthorizationRequest(request_args=request_args).request(client.authorization_endpoint)
    b = own_session(server)
    return b, b.get(url), state, nonce


def test_code_flow_with_id_token_verification_and_userinfo(northwind):
    client = new_client(northwind)
    assert client.provider_info["issuer"] == northwind.url("/%s/v2.0" % NORTHWIND)
    assert len(client.keyjar.get_issuer_keys(client.provider_info["issuer"])) >= 1
    b, page, state, nonce = authorize(northwind, client)
    location, query = redirect_query(submit_sign_in(b, northwind, page, NINA, NINA_PASSWORD))
    aresp = client.parse_response(AuthorizationResponse, info=urlencode(query), sformat="urlencoded")
    assert aresp["state"] == state
    # The token request authenticates with client_secret_basic, pyoidc's default.
    tokens = client.do_access_token_request(state=state, request_args={"code": aresp["code"]},
                                            authn_method="client_secret_basic")
    id_token = tokens["id_token"]
    assert id_token["iss"] == client.provider_info["issuer"] and id_token["aud"] == [PORTAL]
    assert id_token["nonce"] == nonce and id_token["tid"] == NORTHWIND and id_token["preferred_username"] == NINA
    # Entra's UserInfo is a Microsoft Graph API and reads the token from the Authorization header only (Microsoft
    # Learn, "Microsoft identity platform UserInfo endpoint"): pyoidc's default, a POST with the token in the body,
    # is refused; GET sends it as a Bearer header.
    refused = client.do_user_info_request(state=state)
    assert isinstance(refused, ErrorResponse) and refused["error"] == "invalid_token", refused.to_dict()
    info = client.do_user_info_request(method="GET", state=state)
    assert isinstance(info, OpenIDSchema), info.to_dict()
    assert info["sub"] == id_token["sub"] and info["email"] == NINA_EMAIL and info["name"] == NINA_NAME
    assert "POST /%s/oauth2/v2.0/token 200" % NORTHWIND in northwind.log()


def test_hybrid_flow_checks_c_hash(northwind):
    client = new_client(northwind)
    b, page, state, nonce = authorize(northwind, client, response_type="code id_token", response_mode="form_post")
    done = submit_sign_in(b, northwind, page, NINA, NINA_PASSWORD)
    assert done.status_code == 200, done.text[:300]
    [form] = forms(done.text)
    assert form["action"] == REDIRECT
    fields = dict(form["fields"])
    aresp = client.parse_response(AuthorizationResponse, info=urlencode(fields), sformat="urlencoded")
    # pyoidc verified the front-channel ID token, c_hash included; it raises on a bad one.
    assert aresp["id_token"]["c_hash"] and aresp["id_token"]["nonce"] == nonce
    tokens = client.do_access_token_request(state=state, request_args={"code": aresp["code"]},
                                            authn_method="client_secret_post")
    assert tokens["id_token"]["sub"] == aresp["id_token"]["sub"]


def test_a_document_from_another_issuer_is_refused(northwind):
    """pyoidc refuses a provider whose document names another issuer: common's {tenantid} issuer is not the URL asked."""
    client = Client(client_authn_method=CLIENT_AUTHN_METHOD, settings=ClientSettings(verify_ssl=northwind.ca))
    with pytest.raises(PyoidcError, match="issuer mismatch"):
        client.provider_config(northwind.url("/common/v2.0"))
