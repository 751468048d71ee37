"""Consent (docs/sign-in.md, "Consent") with MSAL Python, unmodified, and Debian's Chromium: an app with
consentRequired asks on a consent page after sign-in; MSAL sees AADSTS65001 as consent_required where no page can be
shown (prompt=none, and a silent refresh for a scope never consented to), and succeeds once the page was accepted."""
import msal
import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import ALICE, ALICE_OID, CONTOSO
from test_browser import CHROMEDRIVER, CHROMIUM, code_from, new_browser, redirect_port, wait  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")

NOTES = "5e0c7a3b-9d21-4f4e-8b6a-3c2d1e0f9a8b"


@pytest.fixture
def notes(server, session):
    added = session.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                         json={"clientId": NOTES, "name": "Contoso Notes", "type": "public",
                               "redirectUris": ["http://localhost"], "consentRequired": True})
    assert added.status_code == 201, added.text
    yield msal.PublicClientApplication(NOTES, authority=server.url("/" + CONTOSO), instance_discovery=False)
    session.delete(server.url("/_mockidp/consents"), json={"clientId": NOTES})


def permissions(driver):
    """The consent page's permissions, each as "words / scope"."""
    return [" / ".join(li.text.splitlines()) for li in driver.find_elements(By.CSS_SELECTOR, "ul.permissions li")]


@pytest.mark.filterwarnings("ignore:response_mode=.form_post. is recommended")
def test_consent_page_then_silent_in_chromium(server, session, notes, redirect_port):
    loopback = "http://localhost:%d" % redirect_port
    driver = new_browser(server)
    try:
        # Sign-in, then the consent page with the permissions in words; Cancel is access_denied (AADSTS65004).
        flow = notes.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback)
        driver.get(flow["auth_uri"])
        driver.find_element(By.ID, "username").send_keys(ALICE)
        driver.find_element(By.ID, "password").send_keys("alice-password")
        driver.find_element(By.ID, "submit").click()
        wait(driver).until(lambda d: d.title == "Permissions requested")
        shown = permissions(driver)
        assert "Sign you in and read your profile / User.Read" in shown and "Sign you in / openid" in shown, shown
        assert "Contoso Notes" in driver.page_source
        driver.find_element(By.ID, "cancel").click()
        declined = notes.acquire_token_by_auth_code_flow(flow, code_from(driver))
        assert declined["error"] == "access_denied" and declined["error_description"].startswith("AADSTS65004"), declined

        # Signed in but not consented: prompt=none answers consent_required with AADSTS65001.
        silent = notes.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="none")
        driver.get(silent["auth_uri"])
        refused = notes.acquire_token_by_auth_code_flow(silent, code_from(driver))
        assert refused["error"] == "consent_required" and refused["error_description"].startswith("AADSTS65001"), refused

        # The session's account goes straight to the consent page; Accept, and MSAL gets its tokens.
        flow = notes.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback)
        driver.get(flow["auth_uri"])
        wait(driver).until(lambda d: d.title == "Permissions requested")
        driver.find_element(By.ID, "accept").click()
        result = notes.acquire_token_by_auth_code_flow(flow, code_from(driver))
        assert result.get("id_token_claims", {}).get("oid") == ALICE_OID, result
        grants = session.get(server.url("/_mockidp/consents")).json()["consents"]
        assert [g["scope"] for g in grants if g["clientId"] == NOTES] == ["openid profile offline_access User.Read"], grants

        # Now prompt=none succeeds, and MSAL's silent refresh for the consented scope too.
        silent = notes.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="none")
        driver.get(silent["auth_uri"])
        assert "access_token" in notes.acquire_token_by_auth_code_flow(silent, code_from(driver))
        account = notes.get_accounts(username=ALICE)[0]
        assert "access_token" in notes.acquire_token_silent(["User.Read"], account, force_refresh=True)

        # A scope never consented to: the refresh is AADSTS65001, which MSAL classifies as consent_required.
        more = notes.acquire_token_silent_with_error(["Mail.Read"], account)
        assert more["error"] == "invalid_grant" and more["error_codes"] == [65001], more
        assert more["suberror"] == "consent_required" and more["classification"] == "consent_required", more

        # The consent page asks for that scope alone; once accepted, the silent call succeeds.
        flow = notes.initiate_auth_code_flow(["Mail.Read"], redirect_uri=loopback)
        driver.get(flow["auth_uri"])
        wait(driver).until(lambda d: d.title == "Permissions requested")
        assert permissions(driver) == ["Read your mail / Mail.Read"], permissions(driver)
        driver.find_element(By.ID, "accept").click()
        assert "access_token" in notes.acquire_token_by_auth_code_flow(flow, code_from(driver))
        assert "access_token" in notes.acquire_token_silent_with_error(["Mail.Read"], account, force_refresh=True)
    finally:
        driver.quit()


def test_revoked_consent_is_asked_again(server, session, notes):
    granted = session.post(server.url("/_mockidp/consents"),
                           json={"username": ALICE, "clientId": NOTES, "scope": "openid profile offline_access User.Read"})
    assert granted.status_code == 201, granted.text
    bad = session.post(server.url("/_mockidp/consents"), json={"username": ALICE, "clientId": NOTES, "scopes": "User.Read"})
    assert bad.status_code == 400 and "unknown key 'scopes'" in bad.json()["error_description"], bad.text
    revoked = session.delete(server.url("/_mockidp/consents"), json={"username": ALICE, "clientId": NOTES})
    assert revoked.json() == {"revoked": 1}, revoked.text
    left = session.get(server.url("/_mockidp/consents")).json()["consents"]
    assert all(g["clientId"] != NOTES for g in left), left


def test_device_code_asks_for_consent_after_sign_in(server, notes):
    from test_device_code import device_login, run_flow
    from test_signin import forms

    # Cancel on the consent page declines the device's request.
    flow = notes.initiate_device_flow(["User.Read"])
    thread, box = run_flow(notes, flow)
    browser = requests.Session()
    page = device_login(server, flow["user_code"], "signin", ALICE, "alice-password", browser=browser)
    assert "Permissions requested" in page.text and "Sign you in and read your profile" in page.text, page.text[:500]
    form = next(f for f in forms(page.text) if ("mockidp_action", "consent") in f["fields"])
    assert "declined" in browser.post(server.url(form["action"]), data=form["fields"] + [("consent", "cancel")]).text
    thread.join(timeout=60)
    assert box["result"]["error"] == "authorization_declined", box["result"]

    # Accept: the device gets its tokens, and the consent is recorded.
    flow = notes.initiate_device_flow(["User.Read"])
    thread, box = run_flow(notes, flow)
    browser = requests.Session()
    page = device_login(server, flow["user_code"], "signin", ALICE, "alice-password", browser=browser)
    form = next(f for f in forms(page.text) if ("mockidp_action", "consent") in f["fields"])
    done = browser.post(server.url(form["action"]), data=form["fields"] + [("consent", "accept")])
    assert "You have signed in" in done.text, done.text[:500]
    thread.join(timeout=60)
    assert box["result"].get("id_token_claims", {}).get("oid") == ALICE_OID, box["result"]
    assert any(g["clientId"] == NOTES and g["username"] == ALICE for g in browser.get(server.url("/_mockidp/consents")).json()["consents"])
