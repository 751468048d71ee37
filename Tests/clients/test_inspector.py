"""The inspector page (`GET /_mockidp/`) in Debian's Chromium: it loads under its strict CSP, shows the directory
with names as text (never as markup), shows a request (and why it was refused) after it happens without a reload,
and decodes a token with its signature verified.

Set MOCKIDP_SCREENSHOTS=docs/screenshots to refresh the committed screenshots."""
import msal
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

from conftest import CONTOSO, DAEMON, DAEMON_SECRET, own_session, start_server, stop_server
from test_browser import CHROMEDRIVER, CHROMIUM, new_browser, shot, wait

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")

HOSTILE = '<img src=x id=injected onerror="document.title=1">'


def test_inspector_shows_the_directory_live_requests_and_decodes_a_token():
    server = start_server()
    driver = new_browser(server)
    http = own_session(server)
    try:
        # A user whose name is markup, added through the control API: the page must show it as text.
        added = http.post(server.url("/_mockidp/tenants/contoso.onmicrosoft.com/users"),
                              json={"username": "mallory@contoso.onmicrosoft.com", "password": "p", "name": HOSTILE})
        assert added.status_code == 201, added.text
        driver.set_window_size(1280, 1000)
        driver.get(server.url("/_mockidp/"))
        assert driver.title == "mockidp inspector"
        wait(driver).until(lambda d: "Contoso" in d.find_element(By.ID, "tenants").text)
        tenants = driver.find_element(By.ID, "tenants").text
        assert "alice@contoso.onmicrosoft.com" in tenants and HOSTILE in tenants
        assert not driver.find_elements(By.ID, "injected") and driver.title == "mockidp inspector"
        assert server.url("/" + CONTOSO) in tenants
        # The browser ran the page's script under the CSP (it rendered), and nothing else: no console errors.
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], errors
        assert driver.find_element(By.CSS_SELECTOR, "#keys tbody").text.count("signs") == 1

        # A refused request appears, with its reason, without reloading the page.
        marker = driver.find_element(By.ID, "base")
        bad = http.post(server.url("/contoso.onmicrosoft.com/oauth2/v2.0/token"),
                            data={"grant_type": "client_credentials", "client_id": DAEMON, "client_secret": "wrong",
                                  "scope": "api://contoso-api/.default"})
        assert bad.status_code == 401
        wait(driver).until(lambda d: "401" in d.find_element(By.CSS_SELECTOR, "#requests tbody").text)
        first = driver.find_element(By.CSS_SELECTOR, "#requests tbody tr")
        assert "/oauth2/v2.0/token" in first.text and "secret" in first.text.lower(), first.text
        driver.find_element(By.ID, "filter").send_keys("discovery/instance")
        wait(driver).until(lambda d: "/oauth2/v2.0/token" not in d.find_element(By.CSS_SELECTOR, "#requests tbody").text)
        driver.find_element(By.ID, "filter").clear()
        driver.find_element(By.ID, "filter").send_keys(" ")
        driver.find_element(By.ID, "filter").clear()
        assert marker.is_displayed()   # the same document: no reload happened
        driver.execute_script("window.scrollTo(0, 0)")
        shot(driver, "inspector")

        # A token from MSAL, pasted into the decoder: header, claims with their meaning, signature verified.
        app = msal.ConfidentialClientApplication(DAEMON, client_credential=DAEMON_SECRET,
                                                 authority=server.url("/" + CONTOSO), instance_discovery=False,
                                                 http_client=http)
        token = app.acquire_token_for_client(["api://contoso-api/.default"])["access_token"]
        box = driver.find_element(By.ID, "token")
        driver.execute_script("arguments[0].value = arguments[1]", box, token)
        driver.find_element(By.ID, "decode").click()
        wait(driver).until(expected_conditions.text_to_be_present_in_element((By.ID, "signature"), "verified"))
        assert driver.find_element(By.ID, "signature").text.startswith("Signature verified with key")
        claims = driver.find_element(By.ID, "claims").text
        assert "oid" in claims and "Object ID of the user" in claims and DAEMON in claims
        driver.execute_script("document.getElementById('token').scrollIntoView()")
        shot(driver, "inspector-decoder")

        # A token whose signature was changed is decoded but not verified.
        head, payload, signature = token.split(".")
        driver.execute_script("arguments[0].value = arguments[1]", box,
                              ".".join([head, payload, ("B" if signature[0] == "A" else "A") + signature[1:]]))
        driver.find_element(By.ID, "decode").click()
        wait(driver).until(expected_conditions.text_to_be_present_in_element((By.ID, "signature"), "not verified"))
    finally:
        driver.quit()
        assert stop_server(server) == 0


def test_inspector_decodes_a_saml_apps_last_response():
    from html_forms import forms
    from test_saml import server_url
    server = start_server()
    driver = new_browser(server)
    http = own_session(server)
    app = "7b0c2d4e-1f3a-4b5c-8d6e-9f0a1b2c3d4e"
    try:
        added = http.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                          json={"clientId": app, "name": "Inspected SAML SP", "identifierUris": ["https://sp.example.test/i"],
                                "redirectUris": ["https://sp.example.test/i/acs"], "saml": {}})
        assert added.status_code == 201, added.text
        # IdP-initiated sign-on (as My Apps launches it), the sign-in page's form posted by hand.
        launch = server.url("/%s/saml2?appid=%s" % (CONTOSO, app))
        page = http.get(launch)
        form = next(f for f in forms(page.text) if ("mockidp_action", "signin") in f["fields"])
        fields = dict(form["fields"], username="alice@contoso.onmicrosoft.com", password="alice-password")
        posted = http.post(server_url(launch, form["action"]), data=fields)
        assert forms(posted.text)[0]["action"] == "https://sp.example.test/i/acs"

        driver.set_window_size(1280, 1000)
        driver.get(server.url("/_mockidp/"))
        wait(driver).until(lambda d: "Inspected SAML SP" in d.find_element(By.ID, "tenants").text)
        summary = next(s for s in driver.find_elements(By.CSS_SELECTOR, "#tenants summary") if "Inspected SAML SP" in s.text)
        assert "SAML" in summary.text
        summary.click()
        details = summary.find_element(By.XPATH, "..")
        wait(driver).until(lambda d: "Last Response" in details.text)
        text = details.text
        assert "federationmetadata.xml?appid=" + app in text and "https://sts.windows.net/%s/" % CONTOSO in text
        assert "alice@contoso.onmicrosoft.com (emailAddress)" in text and "Success" in text
        assert "Assertion" in text and "http://schemas.microsoft.com/identity/claims/objectidentifier" in text
        # The page refreshes every 5 s: what the reader opened stays open.
        driver.execute_script("return loadState()")
        wait(driver).until(lambda d: any("Last Response" in s.find_element(By.XPATH, "..").text
                                         for s in d.find_elements(By.CSS_SELECTOR, "#tenants summary")))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], errors
    finally:
        driver.quit()
        assert stop_server(server) == 0
