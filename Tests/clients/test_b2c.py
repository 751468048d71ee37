"""Azure AD B2C with real clients against config/examples/b2c.yaml: MSAL Python on a `tfp` authority with the pages in
headless Chromium (sign-in, sign-up, the password-reset round trip), authlib as an AppAuth-style OAuth client on the
`/te/` endpoints with PKCE, and tokens verified by PyJWT from the policy's own key set."""
import base64
import json
import os
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
import msal
import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from conftest import serving
from namespace import run_at_real_hosts
from test_browser import CHROMEDRIVER, CHROMIUM, code_from, loopback_redirect, new_browser, shot, wait
from test_signin import forms

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(HERE, "..", "..", "config", "examples", "b2c.yaml")
TENANT = "a4cf0827-8d79-45b2-ab17-599d4e41cad3"
DOMAIN = "fabrikamb2c.onmicrosoft.com"
MOBILE = "8a1d2b3c-4e5f-4a6b-9c7d-e8f9a0b1c2d3"
WEB = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
WEB_SECRET = "fabrikam-web-secret"
API = "5386caa5-bae5-45ee-b4fb-5203bcc41917"
FRANK, FRANK_PASSWORD, FRANK_OID = "frank@example.com", "Frank-Passw0rd", "2f0c6e53-8a4b-4c1d-9e7f-0a1b2c3d4e5f"
GRACE, GRACE_PASSWORD = "grace@example.com", "Grace-Passw0rd"
SUSI, RESET, PROFILE = "B2C_1_signupsignin", "B2C_1_passwordreset", "B2C_1_profileedit"
APP_SCHEME_REDIRECT = "msauth.com.fabrikam.mobile://auth"
ROPC, ROPC_APP = "B2C_1_ROPC_Auth", "6b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"

needs_chromium = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")


@pytest.fixture(scope="module")
def b2c():
    with serving(CONFIG) as s:
        yield s


@pytest.fixture(scope="module")
def loopback():
    with loopback_redirect() as uri:
        yield uri


def tfp(server, policy):
    return server.url("/tfp/%s/%s" % (DOMAIN, policy))


def msal_app(server, policy):
    # A /tfp/ authority on a host that is not *.b2clogin.com is not recognised as B2C by MSAL Python, so it would
    # ask login.microsoftonline.com about the instance: instance_discovery=False keeps it here.
    return msal.PublicClientApplication(MOBILE, authority=tfp(server, policy), instance_discovery=False)


def element(driver, element_id):
    """The element, once the page that has it has loaded (a click that posts a form returns before that)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    return wait(driver).until(expected_conditions.presence_of_element_located((By.ID, element_id)))


def verified(server, token, policy, audience):
    """PyJWT checks the signature with the policy's published keys, and the B2C issuer."""
    jwks = requests.get(server.url("/%s/%s/discovery/v2.0/keys" % (DOMAIN, policy)), verify=server.ca).json()
    header = jwt.get_unverified_header(token)
    assert "x5t" not in header and header["typ"] == "JWT"
    key = next(k for k in jwks["keys"] if k["kid"] == header["kid"])
    return jwt.decode(token, jwt.PyJWK(key).key, algorithms=["RS256"], audience=audience,
                      issuer=server.url("/%s/v2.0/" % TENANT))


def client_info(encoded):
    return json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))


# MSAL Python's username/password call asks https://<host>:443/common/userrealm/... first (B2C authorities too,
# whatever the authority's port), so these run in a network namespace where mockidp listens on a free port and 443.
def test_msal_python_ropc_user_flow_on_a_tfp_authority():
    run_at_real_hosts(__file__, "msal_python_ropc_user_flow", hosts=[], configs=["config/examples/b2c.yaml"], ports=("0", "443"))


def test_extra_claims_reach_b2c_ropc_tokens():
    run_at_real_hosts(__file__, "extra_claims_reach_b2c_ropc_tokens", hosts=[], configs=["config/examples/b2c.yaml"], ports=("0", "443"))


def msal_python_ropc_user_flow(server):
    """MSAL Python's username/password call against B2C's ROPC user flow: the userrealm question, then
    grant_type=password at the policy's token endpoint; the refresh token renews at the same policy."""
    app = msal.PublicClientApplication(ROPC_APP, authority=tfp(server, ROPC), instance_discovery=False)
    result = app.acquire_token_by_username_password(FRANK, FRANK_PASSWORD, scopes=["api://fabrikamb2c-api/read"])
    assert "access_token" in result, result
    claims = verified(server, result["id_token"], ROPC, ROPC_APP)
    assert claims["tfp"] == ROPC and claims["sub"] == FRANK_OID and claims["emails"] == [FRANK] and "newUser" not in claims
    access = verified(server, result["access_token"], ROPC, API)
    assert access["scp"] == "read" and access["azp"] == ROPC_APP and access["tfp"] == ROPC
    # MSAL keys the account by client_info: {oid}-{policy}.{tenant}.
    [account] = app.get_accounts(username=FRANK)
    assert account["home_account_id"] == "%s-%s.%s" % (FRANK_OID, ROPC.lower(), TENANT)
    renewed = app.acquire_token_silent(["api://fabrikamb2c-api/read"], account=account, force_refresh=True)
    assert renewed and "access_token" in renewed, renewed
    assert renewed["token_source"] == "identity_provider"
    assert verified(server, renewed["access_token"], ROPC, API)["oid"] == FRANK_OID

    wrong = app.acquire_token_by_username_password(FRANK, "Not-The-Passw0rd", scopes=["api://fabrikamb2c-api/read"])
    assert wrong.get("error") == "access_denied", wrong
    assert wrong["error_description"].startswith("AADB2C90225: The username or password provided in the request are invalid.")
    # The sign-up/sign-in policy is not a ROPC flow: B2C refuses the grant type there.
    susi = msal.PublicClientApplication(ROPC_APP, authority=tfp(server, SUSI), instance_discovery=False)
    refused = susi.acquire_token_by_username_password(FRANK, FRANK_PASSWORD, scopes=["api://fabrikamb2c-api/read"])
    assert refused.get("error") == "unsupported_grant_type" and refused["error_description"].startswith("AADB2C90086: "), refused
    log = server.log()
    assert "GET /common/userrealm/" + FRANK in log
    # The metadata's token endpoint names the policy in lower case, as B2C's does.
    assert log.count("POST /%s/%s/oauth2/v2.0/token 200" % (DOMAIN, ROPC.lower())) >= 2, log[-2000:]


def extra_claims_reach_b2c_ropc_tokens(server):
    """Claims registered through POST /_mockidp/claims land in the B2C tokens of the next matching response."""
    r = requests.post(server.url("/_mockidp/claims"), json={"clientId": ROPC_APP, "claims": {"extension_Tier": "gold"}})
    assert r.status_code == 201, r.text
    app = msal.PublicClientApplication(ROPC_APP, authority=tfp(server, ROPC), instance_discovery=False)
    result = app.acquire_token_by_username_password(FRANK, FRANK_PASSWORD, scopes=[ROPC_APP])
    assert verified(server, result["id_token"], ROPC, ROPC_APP)["extension_Tier"] == "gold"
    assert verified(server, result["access_token"], ROPC, ROPC_APP)["extension_Tier"] == "gold"
    again = app.acquire_token_by_username_password(FRANK, FRANK_PASSWORD, scopes=[ROPC_APP])
    assert "extension_Tier" not in verified(server, again["access_token"], ROPC, ROPC_APP)


def test_a_fault_on_b2c_authorize_reaches_the_app_in_b2c_form(b2c):
    """A fault on a B2C policy's authorize goes to the app's redirect URI in B2C's form."""
    s = requests.Session()
    s.verify = b2c.ca
    r = s.post(b2c.url("/_mockidp/faults"), json={"endpoint": "authorize", "b2cCode": "AADB2C90118", "error": "access_denied",
                                                   "message": "The user has forgotten their password."})
    assert r.status_code == 201 and r.json()["b2cCode"] == "AADB2C90118", r.text
    query = urlencode({"client_id": MOBILE, "response_type": "code", "redirect_uri": "http://localhost", "scope": "openid",
                       "state": "s1", "code_challenge": "x" * 43, "code_challenge_method": "S256"})
    answer = s.get(b2c.url("/tfp/%s/%s/oauth2/v2.0/authorize?%s" % (DOMAIN, SUSI, query)), allow_redirects=False)
    assert answer.status_code == 302, answer.text
    params = parse_qs(urlparse(answer.headers["Location"]).query)
    assert params["error"] == ["access_denied"] and params["state"] == ["s1"]
    assert params["error_description"][0].startswith("AADB2C90118: The user has forgotten their password.\r\nCorrelation ID: ")


@needs_chromium
@pytest.mark.filterwarnings("ignore:response_mode=.form_post. is recommended")
def test_msal_python_on_a_tfp_authority_signs_in_through_the_page_in_chromium(b2c, loopback):
    from selenium.webdriver.common.by import By
    app = msal_app(b2c, SUSI)
    flow = app.initiate_auth_code_flow(["api://fabrikamb2c-api/read"], redirect_uri=loopback)
    driver = new_browser(b2c)
    try:
        driver.get(flow["auth_uri"])
        assert driver.find_element(By.ID, "api").get_attribute("data-policy") == SUSI
        shot(driver, "b2c-signin")
        driver.find_element(By.ID, "signInName").send_keys(FRANK)
        driver.find_element(By.ID, "password").send_keys("not-the-password")
        driver.find_element(By.ID, "next").click()
        assert element(driver, "error").text == "Your password is incorrect."
        driver.find_element(By.ID, "password").send_keys(FRANK_PASSWORD)
        driver.find_element(By.ID, "next").click()
        response = code_from(driver)
    finally:
        driver.quit()
    assert client_info(response["client_info"]) == {"uid": FRANK_OID + "-b2c_1_signupsignin", "utid": TENANT}
    result = app.acquire_token_by_auth_code_flow(flow, response)
    assert "access_token" in result, result
    claims = result["id_token_claims"]
    assert claims["tfp"] == SUSI and claims["ver"] == "1.0"
    assert claims["sub"] == claims["oid"] == FRANK_OID
    assert claims["emails"] == [FRANK] and claims["name"] == "Frank Fischer"
    assert claims["given_name"] == "Frank" and claims["family_name"] == "Fischer"
    assert "newUser" not in claims and "idp" not in claims   # a local account, not a new one
    assert claims["nonce"] == parse_qs(urlparse(flow["auth_uri"]).query)["nonce"][0]
    id_token = verified(b2c, result["id_token"], SUSI, MOBILE)
    assert id_token["iss"] == b2c.url("/%s/v2.0/" % TENANT) and "auth_time" in id_token
    access = verified(b2c, result["access_token"], SUSI, API)
    assert access["scp"] == "read" and access["azp"] == MOBILE and access["tfp"] == SUSI
    account = app.get_accounts()[0]
    assert account["home_account_id"] == "%s-b2c_1_signupsignin.%s" % (FRANK_OID, TENANT)
    # The refresh token works silently at the same policy.
    again = app.acquire_token_silent(["api://fabrikamb2c-api/read"], account=account, force_refresh=True)
    assert again and verified(b2c, again["access_token"], SUSI, API)["oid"] == FRANK_OID


@needs_chromium
@pytest.mark.filterwarnings("ignore:response_mode=.form_post. is recommended")
def test_sign_up_in_chromium_creates_a_user_whose_first_token_says_new_user(b2c, loopback):
    from selenium.webdriver.common.by import By
    app = msal_app(b2c, SUSI)
    flow = app.initiate_auth_code_flow([], redirect_uri=loopback)
    driver = new_browser(b2c)
    try:
        driver.get(flow["auth_uri"])
        driver.find_element(By.ID, "createAccount").click()
        element(driver, "email").send_keys("heidi@example.com")
        shot(driver, "b2c-signup")
        driver.find_element(By.ID, "newPassword").send_keys("short")
        driver.find_element(By.ID, "reenterPassword").send_keys("short")
        driver.find_element(By.ID, "displayName").send_keys("Heidi Hahn")
        driver.find_element(By.ID, "continue").click()
        assert "between 8 and 64 characters" in element(driver, "error").text
        for field in ("newPassword", "reenterPassword"):
            driver.find_element(By.ID, field).send_keys("Heidi-Passw0rd")
        driver.find_element(By.ID, "continue").click()
        response = code_from(driver)
    finally:
        driver.quit()
    result = app.acquire_token_by_auth_code_flow(flow, response)
    claims = result["id_token_claims"]
    assert claims["newUser"] is True and claims["emails"] == ["heidi@example.com"] and claims["name"] == "Heidi Hahn"
    assert "access_token" not in result   # B2C issues none for OpenID Connect scopes alone

    # The new user exists now: a fresh browser signs in with the new password; that token is not "new".
    flow2 = msal_app(b2c, SUSI).initiate_auth_code_flow([], redirect_uri="http://localhost", login_hint="heidi@example.com")
    b = requests.Session()
    b.verify = b2c.ca
    page = b.get(flow2["auth_uri"])
    location = submit_form(b, b2c, page.text, "signin", username="heidi@example.com", password="Heidi-Passw0rd")
    query = parse_qs(urlparse(location).query)
    second = msal_app(b2c, SUSI).acquire_token_by_auth_code_flow(flow2, {k: v[0] for k, v in query.items()})
    assert second["id_token_claims"]["oid"] == claims["oid"] and "newUser" not in second["id_token_claims"]


@needs_chromium
@pytest.mark.filterwarnings("ignore:response_mode=.form_post. is recommended")
def test_password_reset_round_trip_in_chromium(b2c, loopback):
    """Sign-in page → "Forgot your password?" → the app gets AADB2C90118 → it starts the reset policy → new
    password → the user signs in with it (and no longer with the old one)."""
    from selenium.webdriver.common.by import By
    susi = msal_app(b2c, SUSI)
    flow = susi.initiate_auth_code_flow([], redirect_uri=loopback)
    driver = new_browser(b2c)
    try:
        driver.get(flow["auth_uri"])
        driver.find_element(By.ID, "forgotPassword").click()
        error = code_from(driver)
        result = susi.acquire_token_by_auth_code_flow(flow, error)
        assert result["error"] == "access_denied" and result["error_description"].startswith("AADB2C90118: ")

        reset = msal_app(b2c, RESET)
        reset_flow = reset.initiate_auth_code_flow([], redirect_uri=loopback)
        driver.get(reset_flow["auth_uri"])
        element(driver, "email").send_keys(GRACE)
        shot(driver, "b2c-reset")
        driver.find_element(By.ID, "newPassword").send_keys("Grace-N3w-pass")
        driver.find_element(By.ID, "reenterPassword").send_keys("Grace-N3w-pass")
        driver.find_element(By.ID, "continue").click()
        reset_result = reset.acquire_token_by_auth_code_flow(reset_flow, code_from(driver))
        assert reset_result["id_token_claims"]["tfp"] == RESET
        assert reset_result["id_token_claims"]["idp"] == "google.com"   # the user's configured claim
    finally:
        driver.quit()

    fresh = new_browser(b2c)
    try:
        flow3 = susi.initiate_auth_code_flow([], redirect_uri=loopback)
        fresh.get(flow3["auth_uri"])
        fresh.find_element(By.ID, "signInName").send_keys(GRACE)
        fresh.find_element(By.ID, "password").send_keys(GRACE_PASSWORD)
        fresh.find_element(By.ID, "next").click()
        assert element(fresh, "error").text == "Your password is incorrect."
        fresh.find_element(By.ID, "password").send_keys("Grace-N3w-pass")
        fresh.find_element(By.ID, "next").click()
        result3 = susi.acquire_token_by_auth_code_flow(flow3, code_from(fresh))
        assert result3["id_token_claims"]["emails"] == [GRACE] and result3["id_token_claims"]["tfp"] == SUSI
    finally:
        fresh.quit()


def submit_form(b, server, html, action, **fields):
    form = next(f for f in forms(html) if ("mockidp_action", action) in f["fields"])
    data = [(k, v) for k, v in form["fields"] if k not in fields] + list(fields.items())
    r = b.post(server.url(form["action"]), data=data, allow_redirects=False)
    assert r.status_code == 302, (r.status_code, r.text[:400])
    return r.headers["Location"]


def test_authlib_as_an_appauth_client_with_pkce_on_the_te_endpoints(b2c):
    """A native app's plain OAuth: authorization code with PKCE to the app's custom scheme, token with the verifier."""
    base = b2c.url("/te/%s/%s/oauth2/v2.0" % (DOMAIN, SUSI))
    client = OAuth2Session(MOBILE, scope="openid offline_access %s" % MOBILE, redirect_uri=APP_SCHEME_REDIRECT,
                           code_challenge_method="S256")
    client.verify = b2c.ca
    verifier = "v" * 20 + "-AppAuth-style-code-verifier-0123456789"
    uri, state = client.create_authorization_url(base + "/authorize", code_verifier=verifier, nonce="n-0S6_WzA2Mj")
    assert create_s256_code_challenge(verifier) in uri
    b = requests.Session()
    b.verify = b2c.ca
    page = b.get(uri)
    assert page.status_code == 200
    location = submit_form(b, b2c, page.text, "signin", username=FRANK, password=FRANK_PASSWORD)
    assert location.startswith(APP_SCHEME_REDIRECT + "?")
    token = client.fetch_token(base + "/token", authorization_response=location, code_verifier=verifier)
    assert token["token_type"] == "Bearer" and token["refresh_token"] and token["resource"] == MOBILE
    id_token = verified(b2c, token["id_token"], SUSI, MOBILE)
    assert id_token["nonce"] == "n-0S6_WzA2Mj" and id_token["tfp"] == SUSI and id_token["sub"] == FRANK_OID
    access = verified(b2c, token["access_token"], SUSI, MOBILE)   # the client ID scope: a token for the app itself
    assert "scp" not in access and access["azp"] == MOBILE

    # A wrong verifier is refused with B2C's code.
    uri2, _ = client.create_authorization_url(base + "/authorize", code_verifier=verifier)
    location2 = b.get(uri2, allow_redirects=False).headers["Location"]   # single sign-on: straight back
    code2 = parse_qs(urlparse(location2).query)["code"][0]
    bad = requests.post(base + "/token", data={"grant_type": "authorization_code", "client_id": MOBILE, "code": code2,
                                               "redirect_uri": APP_SCHEME_REDIRECT, "code_verifier": "x" * 43}, verify=b2c.ca)
    assert bad.status_code == 400 and bad.json()["error_description"].startswith("AADB2C90182: ")


def test_cancel_gives_aadb2c90091_and_profile_edit_changes_the_name(b2c):
    b = requests.Session()
    b.verify = b2c.ca
    query = urlencode({"client_id": WEB, "redirect_uri": "http://localhost:5000/signin-oidc", "response_type": "code",
                       "scope": "openid offline_access", "state": "s1"})
    page = b.get(b2c.url("/%s/oauth2/v2.0/authorize?p=%s&%s" % (DOMAIN, SUSI.upper(), query)))
    cancelled = parse_qs(urlparse(submit_form(b, b2c, page.text, "cancel")).query)
    assert cancelled["error"] == ["access_denied"] and cancelled["state"] == ["s1"]
    assert cancelled["error_description"][0].startswith("AADB2C90091: ")

    # Sign in (query form, policy name in another case), then profile edit uses the session and shows the form.
    page = b.get(b2c.url("/%s/oauth2/v2.0/authorize?p=%s&%s" % (DOMAIN, SUSI.lower(), query)))
    submit_form(b, b2c, page.text, "signin", username=FRANK, password=FRANK_PASSWORD)
    profile = b.get(b2c.url("/%s/%s/oauth2/v2.0/authorize?%s" % (DOMAIN, PROFILE, query)))
    assert "Edit your profile" in profile.text
    location = submit_form(b, b2c, profile.text, "profile", displayName="Franz Fischer", givenName="Franz", surname="Fischer")
    code = parse_qs(urlparse(location).query)["code"][0]
    token_url = b2c.url("/%s/%s/oauth2/v2.0/token" % (DOMAIN, PROFILE))
    form = {"grant_type": "authorization_code", "client_id": WEB, "code": code,
            "redirect_uri": "http://localhost:5000/signin-oidc", "scope": "openid offline_access"}
    missing = requests.post(token_url, data=form, verify=b2c.ca)
    assert missing.status_code == 401 and missing.json()["error_description"].startswith("AADB2C90079: ")
    wrong_policy = requests.post(b2c.url("/%s/%s/oauth2/v2.0/token" % (DOMAIN, SUSI)),
                                 data=dict(form, client_secret=WEB_SECRET), verify=b2c.ca)
    assert wrong_policy.json()["error_description"].startswith("AADB2C90088: ")
    tokens = requests.post(token_url, data=dict(form, client_secret=WEB_SECRET), verify=b2c.ca).json()
    claims = verified(b2c, tokens["id_token"], PROFILE, WEB)
    assert claims["name"] == "Franz Fischer" and claims["given_name"] == "Franz" and claims["tfp"] == PROFILE


def not_found_page(r):
    """B2C's web server's 404 page (MicrosoftDocs/azure-docs#24079 quotes it), never an OAuth error."""
    return (r.status_code == 404 and r.headers["Content-Type"].startswith("text/html")
            and "<h2>404 - File or directory not found.</h2>" in r.text and "AADB2C" not in r.text)


def test_unknown_and_missing_policies_get_b2c_404_page(b2c):
    s = requests.Session()
    s.verify = b2c.ca
    for path in ["/%s/B2C_1_nope/v2.0/.well-known/openid-configuration" % DOMAIN,
                 "/tfp/%s/B2C_1_nope/discovery/v2.0/keys" % DOMAIN,
                 "/%s/v2.0/.well-known/openid-configuration" % DOMAIN,
                 "/%s/v2.0/.well-known/openid-configuration?p=B2C_1_nope" % DOMAIN]:
        assert not_found_page(s.get(b2c.url(path))), path
    for path in ["/%s/B2C_1_nope/oauth2/v2.0/token" % DOMAIN, "/%s/oauth2/v2.0/token" % DOMAIN]:
        assert not_found_page(s.post(b2c.url(path), data={"grant_type": "authorization_code", "code": "x"})), path
    page = s.get(b2c.url("/te/%s/B2C_1_nope/oauth2/v2.0/authorize?client_id=%s&response_type=code&scope=openid" % (DOMAIN, MOBILE)),
                 allow_redirects=False)
    assert not_found_page(page) and "Location" not in page.headers
    bad_redirect = s.get(b2c.url("/%s/%s/oauth2/v2.0/authorize?client_id=%s&response_type=code&scope=openid&redirect_uri=https://evil.example"
                                 % (DOMAIN, SUSI, MOBILE)), allow_redirects=False)
    assert bad_redirect.status_code == 400 and "AADB2C90006" in bad_redirect.text
