"""Microsoft Entra External ID against config/examples/external-id.yaml: the tenant's discovery, issuer and refusals on
neutral hosts; sign-up, password reset and code sign-in on the pages, driven as a browser without JavaScript would,
with the one-time codes read from the outbox; and unmodified MSAL Python at the real ciamlogin and custom-domain
names (in a private namespace, see namespace.py), with the sign-up in headless Chromium and every token verified by
PyJWT against the key set the discovery document names."""
import json
import os
import subprocess
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
import msal
import pytest
import requests

from conftest import binary, serving
from namespace import run_at_real_hosts
from test_browser import CHROMEDRIVER, CHROMIUM, code_from, loopback_redirect, new_browser, wait
from test_signin import forms

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = ["config/default.yaml", "config/examples/external-id.yaml"]
TENANT = "3c8a9e41-6f2b-4d7c-a5e0-9b1d2f3a4c5e"
DOMAIN = "woodgrovecustomers.onmicrosoft.com"
CIAM_HOST = "woodgrovecustomers.ciamlogin.com"
CUSTOM_HOST = "login.woodgrove.com"
MOBILE = "4b2e6c8a-1d3f-4a5b-9c7e-2f4a6b8c0d1e"
WEB, WEB_SECRET = "6d4f8a2c-3e5b-4c7d-8e9f-1a3b5c7d9e2f", "woodgrove-web-secret"
API = "8f6a2c4e-5b7d-4e9f-a1b3-3c5d7e9f1b4a"
DAEMON, DAEMON_SECRET = "2a4c6e8f-7b9d-4f1a-b3c5-5e7f9a1b3d6c", "woodgrove-daemon-secret"
CAROL, CAROL_PASSWORD, CAROL_OID = "carol@example.com", "Carol-Passw0rd", "7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"
CONTOSO = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
CIAM_ISSUER = "https://%s.ciamlogin.com/%s/v2.0" % (TENANT, TENANT)


@pytest.fixture(scope="module")
def eid():
    with serving(*[os.path.join(HERE, "..", "..", c) for c in CONFIGS]) as s:
        yield s


def browser(server):
    b = requests.Session()
    b.trust_env = False
    b.verify = server.ca
    return b


def post_form(b, server, html, action, expect_redirect=False, **fields):
    """Submits the form of `html` whose mockidp_action is `action`, with `fields` typed in."""
    form = next(f for f in forms(html) if ("mockidp_action", action) in f["fields"])
    data = [(k, v) for k, v in form["fields"] if k not in fields] + list(fields.items())
    r = b.post(server.url(form["action"]), data=data, allow_redirects=False)
    if expect_redirect:
        assert r.status_code == 302, (r.status_code, r.text[:600])
        return r.headers["Location"]
    assert r.status_code == 200, (r.status_code, r.text[:600])
    return r.text


def authorize_page(b, server, client=MOBILE, redirect_uri="http://localhost:4711", **extra):
    query = {"client_id": client, "response_type": "code", "redirect_uri": redirect_uri,
             "scope": "openid profile offline_access", "state": "s1", **extra}
    r = b.get(server.url("/%s/oauth2/v2.0/authorize?%s" % (TENANT, urlencode(query))))
    assert r.status_code == 200, r.text[:600]
    return r.text


def last_code(server, to):
    messages = requests.get(server.url("/_mockidp/outbox"), verify=server.ca).json()["messages"]
    mine = [m for m in messages if m["to"] == to]
    assert mine, messages
    return mine[-1]


def redeem(server, location, client=MOBILE, redirect_uri="http://localhost:4711"):
    query = parse_qs(urlparse(location).query)
    assert "code" in query, location
    r = requests.post(server.url("/%s/oauth2/v2.0/token" % TENANT), verify=server.ca, data={
        "grant_type": "authorization_code", "client_id": client, "code": query["code"][0], "redirect_uri": redirect_uri,
        "scope": "openid profile offline_access"})
    assert r.status_code == 200, r.text
    return r.json()


def verify(server, token, audience, discovery_base=None):
    base = discovery_base or server.url("/" + TENANT)
    doc = requests.get(base + "/v2.0/.well-known/openid-configuration", verify=server.ca).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in requests.get(doc["jwks_uri"], verify=server.ca).json()["keys"]}
    kid = jwt.get_unverified_header(token)["kid"]
    return jwt.decode(token, keys[kid].key, algorithms=["RS256"], audience=audience, issuer=doc["issuer"])


# --- neutral hosts ---------------------------------------------------------------------------------------------

def test_discovery_on_a_neutral_host_names_the_host_and_the_domain_authority_resolves(eid):
    by_id = requests.get(eid.url("/%s/v2.0/.well-known/openid-configuration" % TENANT), verify=eid.ca).json()
    by_domain = requests.get(eid.url("/%s/v2.0/.well-known/openid-configuration" % DOMAIN), verify=eid.ca).json()
    assert by_id["issuer"] == eid.url("/%s/v2.0" % TENANT) == by_domain["issuer"]
    assert by_id["token_endpoint"] == eid.url("/%s/oauth2/v2.0/token" % TENANT)


def test_the_resource_owner_password_grant_is_refused_with_an_entra_error(eid):
    r = requests.post(eid.url("/%s/oauth2/v2.0/token" % TENANT), verify=eid.ca, data={
        "grant_type": "password", "client_id": MOBILE, "username": CAROL, "password": CAROL_PASSWORD, "scope": "openid"})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "unsupported_grant_type" and body["error_codes"] == [70003]
    assert body["error_description"].startswith("AADSTS70003:") and "access_token" not in body
    # A workforce tenant of the same server keeps its password grant.
    ok = requests.post(eid.url("/%s/oauth2/v2.0/token" % CONTOSO), verify=eid.ca, data={
        "grant_type": "password", "client_id": "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c",
        "username": "alice@contoso.onmicrosoft.com", "password": "alice-password", "scope": "openid"})
    assert ok.status_code == 200, ok.text


def test_client_credentials_on_a_neutral_host(eid):
    r = requests.post(eid.url("/%s/oauth2/v2.0/token" % TENANT), verify=eid.ca, data={
        "grant_type": "client_credentials", "client_id": DAEMON, "client_secret": DAEMON_SECRET,
        "scope": "api://woodgrove-api/.default"})
    assert r.status_code == 200, r.text
    claims = verify(eid, r.json()["access_token"], API)
    assert claims["roles"] == ["Orders.Process"] and claims["tid"] == TENANT and claims["ver"] == "2.0"
    assert "tfp" not in claims and "acr" not in claims


def test_password_sign_in_then_sign_up_with_a_code_and_attributes(eid):
    b = browser(eid)
    page = authorize_page(b, eid)
    assert 'id="createAccount"' in page and 'id="forgotPassword"' in page
    # Carol signs in with her password on the ordinary page.
    location = post_form(b, eid, page, "signin", expect_redirect=True, username=CAROL, password=CAROL_PASSWORD)
    tokens = redeem(eid, location)
    claims = verify(eid, tokens["id_token"], MOBILE)
    assert claims["oid"] == CAROL_OID and claims["preferred_username"] == CAROL and "tfp" not in claims

    # A new customer signs up in a fresh browser: email, code from the outbox, password and attributes.
    b = browser(eid)
    page = post_form(b, eid, authorize_page(b, eid), "eid_signup")
    assert 'data-step="signup-email"' in page
    page = post_form(b, eid, page, "eid_email", email="not-an-address")
    assert "Please enter a valid email address." in page
    page = post_form(b, eid, page, "eid_email", email=CAROL)
    assert "already exists" in page
    new = "erin@example.net"
    page = post_form(b, eid, page, "eid_email", email=new)
    assert 'data-step="code"' in page
    message = last_code(eid, new)
    assert message["purpose"] == "signUp" and len(message["code"]) == 8 and message["code"].isdigit()
    wrong = "00000000" if message["code"] != "00000000" else "11111111"
    page = post_form(b, eid, page, "eid_code", code=wrong)
    assert "That code is incorrect." in page
    page = post_form(b, eid, page, "eid_code", code=message["code"])
    assert 'data-step="signup-details"' in page and 'name="mockidp_attr_city"' in page
    # A required attribute missing is asked again, never accepted; so is a weak password.
    page = post_form(b, eid, page, "eid_details", password="Erin-Passw0rd", mockidp_attr_displayName="Erin Evans")
    assert 'data-step="signup-details"' in page and "This information is required." in page
    page = post_form(b, eid, page, "eid_details", password="short", mockidp_attr_displayName="Erin Evans",
                     mockidp_attr_city="Oslo")
    assert "The password must be between 8 and 256 characters" in page
    location = post_form(b, eid, page, "eid_details", expect_redirect=True, password="Erin-Passw0rd",
                         mockidp_attr_displayName="Erin Evans", mockidp_attr_city="Oslo")
    tokens = redeem(eid, location)
    claims = verify(eid, tokens["id_token"], MOBILE)
    assert claims["preferred_username"] == new and claims["name"] == "Erin Evans"
    assert claims["oid"] not in (CAROL_OID,) and len(claims["oid"]) == 36

    # The code cannot be used again, and the new customer signs in at once with the password chosen.
    b2 = browser(eid)
    location = post_form(b2, eid, authorize_page(b2, eid), "signin", expect_redirect=True, username=new, password="Erin-Passw0rd")
    again = verify(eid, redeem(eid, location)["id_token"], MOBILE)
    assert again["oid"] == claims["oid"]
    # Microsoft Graph lists the new customer, with the attributes sign-up collected.
    graph = requests.post(eid.url("/%s/oauth2/v2.0/token" % TENANT), verify=eid.ca, data={
        "grant_type": "client_credentials", "client_id": DAEMON, "client_secret": DAEMON_SECRET,
        "scope": "https://graph.microsoft.com/.default"}).json()["access_token"]
    me = requests.get(eid.url("/v1.0/users/%s?$select=displayName,city,mail" % claims["oid"]), verify=eid.ca,
                      headers={"Authorization": "Bearer " + graph})
    assert me.status_code == 200, me.text
    assert me.json()["displayName"] == "Erin Evans" and me.json()["city"] == "Oslo" and me.json()["mail"] == new
    # The inspector shows the new customer and the code that was mailed.
    inspection = requests.get(eid.url("/_mockidp/inspection"), verify=eid.ca).json()
    [tenant] = [t for t in inspection["tenants"] if t["id"] == TENANT]
    assert tenant["externalId"] is True and any(u["username"] == new and u["oid"] == claims["oid"] for u in tenant["users"])
    assert any(m["to"] == new and m["code"] == message["code"] for m in inspection["outbox"])
    assert any(a["url"] == "https://%s/%s" % (CIAM_HOST, TENANT) for a in tenant["authorities"])


def test_password_reset_with_a_code_and_a_spent_code_is_refused(eid):
    b = browser(eid)
    page = post_form(b, eid, authorize_page(b, eid), "eid_reset")
    assert 'data-step="reset-email"' in page
    page = post_form(b, eid, page, "eid_email", email="nobody@example.com")
    assert "find an account with that email address" in page
    dave = "dave@example.org"
    code_page = post_form(b, eid, page, "eid_email", email=dave)
    message = last_code(eid, dave)
    assert message["purpose"] == "passwordReset"
    page = post_form(b, eid, code_page, "eid_code", code=message["code"])
    assert 'data-step="reset-password"' in page
    location = post_form(b, eid, page, "eid_details", expect_redirect=True, password="Dave-N3w-passw0rd")
    assert "code=" in location
    # The code (and its handle) is spent: posting it again gets the expired sentence, not a second reset.
    page = post_form(b, eid, code_page, "eid_code", code=message["code"])
    assert "That code has expired." in page
    r = requests.post(eid.url("/%s/oauth2/v2.0/token" % CONTOSO), verify=eid.ca)  # the server still answers
    assert r.status_code == 400
    # The new password signs in; the old one no longer does.
    b2 = browser(eid)
    page = authorize_page(b2, eid)
    refused = post_form(b2, eid, page, "signin", username=dave, password="Dave-Passw0rd")
    assert "incorrect" in refused
    post_form(b2, eid, page, "signin", expect_redirect=True, username=dave, password="Dave-N3w-passw0rd")


def test_prompt_create_opens_sign_up_and_a_step_the_tenant_does_not_offer_is_refused(eid):
    b = browser(eid)
    page = authorize_page(b, eid, prompt="create")
    assert 'data-step="signup-email"' in page
    # A password tenant offers no code sign-in, and MFA codes are not the pages': a forged purpose gets the error page.
    for forged in ("signIn", "mfa"):
        form = next(f for f in forms(page) if ("mockidp_action", "eid_email") in f["fields"])
        data = [(k, v) for k, v in form["fields"] if k not in ("mockidp_eid_purpose", "email")]
        r = b.post(eid.url(form["action"]), data=data + [("mockidp_eid_purpose", forged), ("email", CAROL)], allow_redirects=False)
        assert r.status_code == 400 and "mockidp_eid_purpose" in r.text, (r.status_code, r.text[:300])
    assert not [m for m in requests.get(eid.url("/_mockidp/outbox"), verify=eid.ca).json()["messages"] if m["to"] == CAROL]


def test_a_code_only_tenant_signs_in_with_a_mailed_code(tmp_path):
    config = tmp_path / "otp.yaml"
    config.write_text(json.dumps({"tenants": [{
        "id": "5e7a9c1b-3d5f-4b7a-9c1e-3f5a7b9d1c2e", "domains": ["tailspincustomers.onmicrosoft.com"],
        "externalId": {"signIn": "otp", "attributes": ["givenName"]},
        "users": [{"username": "fay@example.com"}],
        "apps": [{"clientId": "7a9c1e3b-5d7f-4a9c-b1e3-5a7c9e1b3d5f", "type": "public", "redirectUris": ["http://localhost"]}],
    }]}))
    # A code-only tenant's users need no password; any other tenant's do.
    bad = tmp_path / "bad.yaml"
    bad.write_text(json.dumps({"tenants": [{"id": "6f8b0d2c-4e6a-4c8b-a0d2-4f6b8c0e2a3f", "domains": ["x.onmicrosoft.com"],
                                            "externalId": {}, "users": [{"username": "no-password@example.com"}]}]}))
    check = subprocess.run([binary(), "config", "check", str(bad)], capture_output=True, text=True)
    assert check.returncode != 0 and "missing required key 'password'" in check.stderr + check.stdout, check
    with serving(str(config)) as s:
        b = browser(s)
        query = {"client_id": "7a9c1e3b-5d7f-4a9c-b1e3-5a7c9e1b3d5f", "response_type": "code",
                 "redirect_uri": "http://localhost:9", "scope": "openid", "state": "x"}
        page = b.get(s.url("/tailspincustomers.onmicrosoft.com/oauth2/v2.0/authorize?" + urlencode(query))).text
        assert 'data-step="signin-email"' in page and 'type="password"' not in page
        # Fay has no password: a hand-made password post with an empty one signs nobody in.
        form = next(f for f in forms(page) if ("mockidp_action", "eid_email") in f["fields"])
        fields = [(k, v) for k, v in form["fields"] if k not in ("mockidp_action", "email")]
        refused = b.post(s.url(form["action"]), data=fields + [("mockidp_action", "signin"), ("username", "fay@example.com"),
                                                               ("password", "")], allow_redirects=False)
        assert refused.status_code == 200 and "incorrect" in refused.text
        page = post_form(b, s, page, "eid_email", email="fay@example.com")
        message = last_code(s, "fay@example.com")
        assert message["purpose"] == "signIn"
        location = post_form(b, s, page, "eid_code", expect_redirect=True, code=message["code"])
        assert location.startswith("http://localhost:9/?code=")
        # Sign-up in a code-only tenant asks no password.
        b = browser(s)
        page = b.get(s.url("/tailspincustomers.onmicrosoft.com/oauth2/v2.0/authorize?" + urlencode({**query, "prompt": "create"}))).text
        page = post_form(b, s, page, "eid_email", email="gus@example.com")
        page = post_form(b, s, page, "eid_code", code=last_code(s, "gus@example.com")["code"])
        assert 'data-step="signup-details"' in page and 'type="password"' not in page
        post_form(b, s, page, "eid_details", expect_redirect=True, mockidp_attr_givenName="Gus")
        # Reset empties the outbox.
        requests.post(s.url("/_mockidp/reset"), verify=s.ca, json={})
        assert requests.get(s.url("/_mockidp/outbox"), verify=s.ca).json() == {"messages": []}


# --- MSAL Python at the real names ---------------------------------------------------------------------------------

def sign_up_in_chromium(server, auth_uri, email):
    """A new customer signs up in headless Chromium at the ciamlogin name, with the code from the outbox."""
    from selenium.webdriver.common.by import By
    driver = new_browser(server)
    try:
        driver.get(auth_uri)
        assert urlparse(driver.current_url).hostname == CIAM_HOST, driver.current_url
        driver.find_element(By.ID, "createAccount").click()
        wait(driver).until(lambda d: d.find_element(By.ID, "email"))
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "next").click()
        wait(driver).until(lambda d: d.find_element(By.ID, "code"))
        code = last_code(server, email)["code"]
        driver.find_element(By.ID, "code").send_keys(code)
        driver.find_element(By.ID, "next").click()
        wait(driver).until(lambda d: d.find_element(By.ID, "password"))
        driver.find_element(By.ID, "password").send_keys("Hana-Passw0rd")
        driver.find_element(By.ID, "displayName").send_keys("Hana Hill")
        driver.find_element(By.ID, "city").send_keys("Kyoto")
        driver.find_element(By.ID, "next").click()
        return code_from(driver)
    finally:
        driver.quit()


def msal_at_ciamlogin(server):
    # MSAL recognises *.ciamlogin.com by itself: no instance discovery, no switch.
    app = msal.PublicClientApplication(MOBILE, authority="https://%s/" % CIAM_HOST)
    with loopback_redirect() as redirect_uri:
        flow = app.initiate_auth_code_flow(["api://woodgrove-api/Orders.Read"], redirect_uri=redirect_uri)
        # The authority names the domain; the discovered endpoints name the tenant GUID, as Entra's do.
        assert flow["auth_uri"].startswith("https://%s/%s/oauth2/v2.0/authorize" % (CIAM_HOST, TENANT)), flow["auth_uri"]
        answer = sign_up_in_chromium(server, flow["auth_uri"], "hana@example.jp")
    result = app.acquire_token_by_auth_code_flow(flow, answer)
    assert "access_token" in result, result
    discovery = "https://%s/%s" % (CIAM_HOST, TENANT)
    id_claims = verify(server, result["id_token"], MOBILE, discovery_base=discovery)
    assert id_claims["iss"] == CIAM_ISSUER and id_claims["preferred_username"] == "hana@example.jp"
    at = verify(server, result["access_token"], API, discovery_base=discovery)
    assert at["iss"] == CIAM_ISSUER and at["scp"] == "Orders.Read" and at["tid"] == TENANT and "tfp" not in at
    [account] = app.get_accounts()
    assert account["environment"] == CIAM_HOST and account["home_account_id"] == id_claims["oid"] + "." + TENANT
    refreshed = app.acquire_token_silent(["api://woodgrove-api/Orders.Read"], account=account, force_refresh=True)
    assert refreshed and refreshed["token_source"] == "identity_provider", refreshed
    # The tenant GUID's own ciamlogin name serves the same tenant with the same issuer.
    by_guid = requests.get("https://%s.ciamlogin.com/%s/v2.0/.well-known/openid-configuration" % (TENANT, TENANT)).json()
    assert by_guid["issuer"] == CIAM_ISSUER
    assert by_guid["token_endpoint"] == "https://%s.ciamlogin.com/%s/oauth2/v2.0/token" % (TENANT, TENANT)
    # Client credentials at the GUID authority.
    daemon = msal.ConfidentialClientApplication(DAEMON, client_credential=DAEMON_SECRET,
                                                authority="https://%s/%s" % (CIAM_HOST, TENANT))
    app_token = daemon.acquire_token_for_client(["api://woodgrove-api/.default"])
    assert "access_token" in app_token, app_token
    claims = verify(server, app_token["access_token"], API, discovery_base=discovery)
    assert claims["iss"] == CIAM_ISSUER and claims["roles"] == ["Orders.Process"]
    # A custom URL domain, as MSAL Python takes it: oidc_authority.
    custom = msal.ConfidentialClientApplication(DAEMON, client_credential=DAEMON_SECRET,
                                                oidc_authority="https://%s/%s/v2.0" % (CUSTOM_HOST, TENANT))
    custom_token = custom.acquire_token_for_client(["api://woodgrove-api/.default"])
    assert "access_token" in custom_token, custom_token
    assert jwt.decode(custom_token["access_token"], options={"verify_signature": False})["iss"] == CIAM_ISSUER
    # A workforce tenant is not found at a ciamlogin name (AADSTS90002), as on another cloud's host.
    refused = requests.get("https://%s/%s/v2.0/.well-known/openid-configuration" % (CIAM_HOST, CONTOSO))
    assert refused.status_code == 400 and refused.json()["error_codes"] == [90002]
    log = server.log()
    assert "/common/discovery/instance" not in log, log[-2000:]
    assert "GET /%s/v2.0/.well-known/openid-configuration 200" % DOMAIN in log


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")
@pytest.mark.filterwarnings("ignore:response_mode=.form_post. is recommended")
def test_msal_at_ciamlogin_and_a_custom_domain():
    run_at_real_hosts(__file__, "msal_at_ciamlogin", [CIAM_HOST, "%s.ciamlogin.com" % TENANT, CUSTOM_HOST], CONFIGS)
