"""Users made on the fly (`signIn: {anyUser: true}`): a sign-in in Chromium as a name nobody configured, with claims
typed on the page, then MSAL Python redeems the code; headless with `login_hint` and `claims`; ROPC; and the
refusals (bad claims JSON on the page, a name outside the tenant's domains)."""
import json
import uuid
from urllib.parse import parse_qs, urlparse

import jwt
import msal
import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

from conftest import CONTOSO, MOBILE, serving_yaml
from test_browser import CHROMEDRIVER, CHROMIUM, code_from, loopback_redirect, new_browser, shot, wait

CONFIG = """
tenants:
  - id: %s
    domains: [contoso.onmicrosoft.com, contoso.com]
    signIn: {anyUser: true}
    users:
      - {username: alice@contoso.onmicrosoft.com, password: alice-password}
    apps:
      - clientId: %s
        type: public
        redirectUris: [http://localhost]
""" % (CONTOSO, MOBILE)


@pytest.fixture(scope="module")
def any_user_server():
    with serving_yaml(CONFIG, "any-user.yaml") as s:
        yield s


def app_for(server):
    return msal.PublicClientApplication(MOBILE, authority=server.url("/organizations"), instance_discovery=False)


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")
@pytest.mark.filterwarnings("ignore:response_mode='form_post' is recommended")
def test_any_user_signs_in_in_chromium_with_claims_then_msal_redeems_the_code(any_user_server):
    server = any_user_server
    driver = new_browser(server)
    try:
        with loopback_redirect() as loopback:
            app = app_for(server)
            flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback)
            driver.get(flow["auth_uri"])
            assert "contoso.com" in driver.find_element(By.ID, "any-user").text
            driver.find_element(By.ID, "username").send_keys("Nina@contoso.com")
            driver.find_element(By.ID, "password").send_keys("any password at all")
            driver.find_element(By.ID, "claims").send_keys('{"department": "Research", "level": ')
            driver.find_element(By.ID, "submit").click()
            wait(driver).until(expected_conditions.presence_of_element_located((By.ID, "error")))
            assert "JSON object" in driver.find_element(By.ID, "error").text
            # The page keeps what was typed, so the tester fixes it rather than typing it again.
            assert driver.find_element(By.ID, "claims").get_attribute("value") == '{"department": "Research", "level": '
            shot(driver, "any-user-claims-error")
            driver.find_element(By.ID, "claims").send_keys('3, "tags": ["a", "b"]}')
            driver.find_element(By.ID, "password").send_keys("another")
            shot(driver, "any-user")
            driver.find_element(By.ID, "submit").click()
            result = app.acquire_token_by_auth_code_flow(flow, code_from(driver))
            claims = result.get("id_token_claims", {})
            assert claims.get("preferred_username") == "nina@contoso.com", result
            assert claims.get("department") == "Research" and claims.get("level") == 3 and claims.get("tags") == ["a", "b"]
            oid = claims["oid"]
            uuid.UUID(oid)
            # The account and its refresh token work as for a configured user.
            account = app.get_accounts(username="nina@contoso.com")[0]
            silent = app.acquire_token_silent(["User.Read"], account=account, force_refresh=True)
            assert silent and "access_token" in silent, silent
            # The same name signs in again as the same user (its tile is on the page now).
            flow2 = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="login")
            driver.get(flow2["auth_uri"])
            driver.find_element(By.ID, "username").send_keys("nina@contoso.com")
            driver.find_element(By.ID, "password").send_keys("x")
            driver.find_element(By.ID, "submit").click()
            again = app.acquire_token_by_auth_code_flow(flow2, code_from(driver))
            assert again["id_token_claims"]["oid"] == oid
            assert "department" not in again["id_token_claims"]   # each sign-in brings its own claims

            # A name outside the tenant's domains is refused as for any tenant.
            flow3 = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="login")
            driver.get(flow3["auth_uri"])
            driver.find_element(By.ID, "username").send_keys("nina@elsewhere.example")
            driver.find_element(By.ID, "password").send_keys("x")
            driver.find_element(By.ID, "submit").click()
            wait(driver).until(expected_conditions.presence_of_element_located((By.ID, "error")))
            assert "username may be incorrect" in driver.find_element(By.ID, "error").text
    finally:
        driver.quit()


@pytest.mark.filterwarnings("ignore:response_mode='form_post' is recommended")
def test_headless_login_hint_and_claims_parameter(any_user_server):
    server = any_user_server
    with loopback_redirect() as loopback:
        app = app_for(server)
        # MSAL sends its own `claims` (an OpenID Connect claims request) unchanged; mockidp's members sit beside it.
        flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, login_hint="omar@contoso.com",
                                           claims_challenge=json.dumps({"team": "blue",
                                                                        "access_token": {"nbf": {"essential": True}}}))
        r = requests.get(flow["auth_uri"], allow_redirects=False, verify=server.ca)
        assert r.status_code == 302, r.text[:300]
        location = r.headers["Location"]
        response = {k: v[0] for k, v in parse_qs(urlparse(location).query).items()}
        result = app.acquire_token_by_auth_code_flow(flow, response)
        assert result["id_token_claims"]["preferred_username"] == "omar@contoso.com", result
        assert result["id_token_claims"]["team"] == "blue"

        # Claims that would set what the directory decides are refused at the redirect URI, with the reason logged.
        bad = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, login_hint="omar@contoso.com",
                                          claims_challenge=json.dumps({"oid": "00000000-0000-0000-0000-000000000000"}))
        r = requests.get(bad["auth_uri"], allow_redirects=False, verify=server.ca)
        error = parse_qs(urlparse(r.headers["Location"]).query)
        assert error["error"] == ["invalid_request"] and "AADSTS90023" in error["error_description"][0]
        log = requests.get(server.url("/_mockidp/requests"), verify=server.ca).json()["requests"]
        assert any("may not set oid" in (entry.get("reason") or "") for entry in log), log[-3:]


def test_ropc_makes_the_user_with_any_password_and_the_same_oid_each_time(any_user_server):
    # The token endpoint as MSAL's acquire_token_by_username_password calls it (its user-realm call goes to port
    # 443, which test_msal covers).
    server = any_user_server
    token_url = server.url("/organizations/oauth2/v2.0/token")
    body = {"grant_type": "password", "client_id": MOBILE, "username": "Pia@contoso.onmicrosoft.com", "password": "p1",
            "scope": "openid profile User.Read"}
    first = requests.post(token_url, data=body, verify=server.ca).json()
    second = requests.post(token_url, data=dict(body, password="p2"), verify=server.ca).json()
    a = jwt.decode(first["id_token"], options={"verify_signature": False})
    b = jwt.decode(second["id_token"], options={"verify_signature": False})
    assert a["oid"] == b["oid"] and a["preferred_username"] == "pia@contoso.onmicrosoft.com"
    # The configured user's password still counts, and a name outside the domains is unknown.
    wrong = requests.post(token_url, data=dict(body, username="alice@contoso.onmicrosoft.com"), verify=server.ca).json()
    assert wrong["error"] == "invalid_grant" and 50126 in wrong["error_codes"]
    outside = requests.post(token_url, data=dict(body, username="pia@fabrikam.example"), verify=server.ca).json()
    assert outside["error"] == "invalid_grant" and 50034 in outside["error_codes"]
