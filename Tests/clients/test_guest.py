"""A guest (B2B) user with MSAL Python, served from config/examples/guest.yaml: Ivan (home: Northwind) signs in to
Litware's app with his own account, as in Entra. Litware's tokens carry Litware's tid, Litware's object ID for him
and Northwind as idp; client_info names his home account, so MSAL sees one person (one home_account_id)."""
import os
from urllib.parse import parse_qs, urlparse

import jwt
import msal
import pytest
import requests

from conftest import serving
from namespace import REPOSITORY, run_at_real_hosts
from test_signin import browser, forms, submit_sign_in

NORTHWIND = "ca2e06db-632b-44e1-a5f8-0ac4cb9047f2"
LITWARE = "2fc7ded4-0f77-4684-a587-ba98ed032ec2"
NORTHWIND_MAIL = "3c1b6f9a-4bc6-4d72-8e69-0a201c584bed"
LITWARE_PORTAL = "87c45d77-3f00-4574-9d7b-403327fb8089"
IVAN = "ivan@northwind.onmicrosoft.com"


@pytest.fixture(scope="module")
def guest_server():
    with serving(os.path.join(REPOSITORY, "config/examples/guest.yaml")) as s:
        yield s


def sign_in(server, client_id, tenant, username):
    app = msal.PublicClientApplication(client_id, authority=server.url("/" + tenant), instance_discovery=False)
    flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:5003", response_mode="form_post")
    b = browser(server)
    page = b.get(flow["auth_uri"], allow_redirects=False)
    posted = submit_sign_in(b, server, page, username, "ivan-password")
    assert posted.status_code == 200 and "<form" in posted.text, posted.text[:300]
    # The auto-submitting form_post page, read as a browser would post it.
    result = app.acquire_token_by_auth_code_flow(flow, dict(forms(posted.text)[0]["fields"]))
    assert "access_token" in result, result
    return app, result


def verified_id_token(server, result, tenant, client_id):
    doc = requests.get(server.url("/%s/v2.0/.well-known/openid-configuration" % tenant)).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in requests.get(doc["jwks_uri"]).json()["keys"]}
    token = result["id_token"]
    return jwt.decode(token, keys[jwt.get_unverified_header(token)["kid"]].key, algorithms=["RS256"], audience=client_id,
                      issuer=doc["issuer"])


def test_a_guest_is_one_person_at_home_and_in_the_inviting_tenant(guest_server):
    home_app, home = sign_in(guest_server, NORTHWIND_MAIL, "northwind.onmicrosoft.com", IVAN)
    guest_app, guest = sign_in(guest_server, LITWARE_PORTAL, "litware.onmicrosoft.com", IVAN)
    at_home = verified_id_token(guest_server, home, NORTHWIND, NORTHWIND_MAIL)
    invited = verified_id_token(guest_server, guest, LITWARE, LITWARE_PORTAL)

    assert at_home["tid"] == NORTHWIND and "idp" not in at_home
    assert invited["tid"] == LITWARE
    assert invited["idp"] == "https://sts.windows.net/%s/" % NORTHWIND
    assert invited["oid"] != at_home["oid"]          # the guest object in Litware is another object
    assert invited["preferred_username"] == at_home["preferred_username"] == IVAN
    [home_account] = home_app.get_accounts()
    [guest_account] = guest_app.get_accounts()
    # client_info names the home account in both: the same home_account_id, two realms.
    assert guest_account["home_account_id"] == home_account["home_account_id"] == at_home["oid"] + "." + NORTHWIND
    assert (home_account["realm"], guest_account["realm"]) == (NORTHWIND, LITWARE)
    assert guest_account["local_account_id"] == invited["oid"]

    access = jwt.decode(guest["access_token"], options={"verify_signature": False})
    assert access["tid"] == LITWARE and access["idp"] == invited["idp"] and "upn" not in access
    assert access["unique_name"] == IVAN


def test_the_guest_name_also_signs_in_and_a_stranger_does_not(guest_server):
    _, by_ext = sign_in(guest_server, LITWARE_PORTAL, LITWARE, "ivan_northwind.onmicrosoft.com#EXT#@litware.onmicrosoft.com")
    assert by_ext["id_token_claims"]["tid"] == LITWARE
    app = msal.PublicClientApplication(LITWARE_PORTAL, authority=guest_server.url("/" + LITWARE), instance_discovery=False)
    flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:5003", response_mode="form_post")
    b = browser(guest_server)
    page = b.get(flow["auth_uri"], allow_redirects=False)
    refused = submit_sign_in(b, guest_server, page, "nobody@northwind.onmicrosoft.com", "ivan-password")
    assert refused.status_code == 200 and "This username may be incorrect" in refused.text


def test_a_login_hint_with_the_guests_home_name_finds_his_session_and_signs_in_headlessly(tmp_path):
    """Entra hints a guest by the name he uses at home: the hint finds his session in Litware (prompt=none) and,
    for an app with headlessSignIn, signs him in with no page."""
    ci_app = "5b0f3e1a-9c2d-4e7f-8a6b-1c3d5e7f9a0b"
    overlay = tmp_path / "headless.yaml"
    overlay.write_text("tenants:\n  - id: %s\n    apps:\n      - clientId: %s\n        type: public\n"
                       "        redirectUris: [http://localhost]\n        headlessSignIn: true\n" % (LITWARE, ci_app))
    with serving(os.path.join(REPOSITORY, "config/examples/guest.yaml"), str(overlay)) as server:
        app = msal.PublicClientApplication(LITWARE_PORTAL, authority=server.url("/" + LITWARE), instance_discovery=False)
        flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:5003", response_mode="form_post")
        b = browser(server)
        page = b.get(flow["auth_uri"], allow_redirects=False)
        assert submit_sign_in(b, server, page, "ivan_northwind.onmicrosoft.com#EXT#@litware.onmicrosoft.com",
                              "ivan-password").status_code == 200
        silent = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:5003", prompt="none",
                                             login_hint=IVAN, response_mode="form_post")
        answered = b.get(silent["auth_uri"], allow_redirects=False)
        fields = dict(forms(answered.text)[0]["fields"])
        assert "code" in fields, fields
        assert app.acquire_token_by_auth_code_flow(silent, fields)["id_token_claims"]["idp"] == \
            "https://sts.windows.net/%s/" % NORTHWIND

        ci = msal.PublicClientApplication(ci_app, authority=server.url("/" + LITWARE), instance_discovery=False)
        headless = ci.initiate_auth_code_flow([], redirect_uri="http://localhost:5004", login_hint=IVAN)
        redirected = browser(server).get(headless["auth_uri"], allow_redirects=False)
        assert redirected.status_code == 302, redirected.text[:300]
        answer = {k: v[0] for k, v in parse_qs(urlparse(redirected.headers["Location"]).query).items()}
        result = ci.acquire_token_by_auth_code_flow(headless, answer)
        assert result["id_token_claims"]["preferred_username"] == IVAN, result


def test_msal_keeps_one_account_for_the_guest_at_home_and_in_the_inviting_tenant(tmp_path):
    """One app registered at home and used in Litware (multiTenant), one MSAL token cache: Ivan signs in to both
    tenants with his home name; client_info names his home account both times, so MSAL's cache holds one account
    (home_account_id = home oid + "." + home tenant) with a profile per tenant, and acquire_token_silent answers
    for each tenant from that account."""
    overlay = tmp_path / "multitenant.yaml"
    overlay.write_text("tenants:\n  - id: %s\n    apps:\n      - clientId: %s\n        multiTenant: true\n"
                       % (NORTHWIND, NORTHWIND_MAIL))
    # MSAL's username/password flow asks https://<host>:443/common/userrealm/... first (see test_msal).
    run_at_real_hosts(__file__, "one_account_for_the_guest", hosts=[], ports=("0", "443"),
                      configs=("config/examples/guest.yaml", str(overlay)))


def one_account_for_the_guest(server):
    cache = msal.TokenCache()
    home = msal.PublicClientApplication(NORTHWIND_MAIL, authority=server.url("/" + NORTHWIND), token_cache=cache,
                                        instance_discovery=False)
    invited = msal.PublicClientApplication(NORTHWIND_MAIL, authority=server.url("/" + LITWARE), token_cache=cache,
                                           instance_discovery=False)
    at_home = home.acquire_token_by_username_password(IVAN, "ivan-password", scopes=["User.Read"])
    as_guest = invited.acquire_token_by_username_password(IVAN, "ivan-password", scopes=["User.Read"])
    assert "access_token" in at_home and "access_token" in as_guest, (at_home, as_guest)
    home_oid = at_home["id_token_claims"]["oid"]
    assert as_guest["id_token_claims"]["tid"] == LITWARE and as_guest["id_token_claims"]["oid"] != home_oid

    [account] = home.get_accounts()
    assert invited.get_accounts() == [account]
    assert account["home_account_id"] == home_oid + "." + NORTHWIND
    realms = {a["realm"]: a["local_account_id"]
              for a in cache.find(msal.TokenCache.CredentialType.ACCOUNT)}
    assert realms == {NORTHWIND: home_oid, LITWARE: as_guest["id_token_claims"]["oid"]}

    for app, tenant, token in ((home, NORTHWIND, at_home), (invited, LITWARE, as_guest)):
        cached = app.acquire_token_silent(["User.Read"], account=account)
        assert cached and cached["access_token"] == token["access_token"], (tenant, cached)
        refreshed = app.acquire_token_silent(["User.Read"], account=account, force_refresh=True)
        assert refreshed and "access_token" in refreshed, (tenant, refreshed)
        claims = jwt.decode(refreshed["access_token"], options={"verify_signature": False})
        assert claims["tid"] == tenant and refreshed["access_token"] != token["access_token"]
