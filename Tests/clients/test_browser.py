"""A real browser: Debian's headless Chromium driven by Selenium through MSAL Python's auth-code flow.

Set MOCKIDP_SCREENSHOTS=DIR to save a screenshot of each page (docs/screenshots/ holds the committed ones)."""
import base64
import contextlib
import os
import shutil
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

import msal
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait
from selenium.common.exceptions import WebDriverException

from conftest import ALICE, ALICE_OID, CONTOSO, MOBILE, WEB, WEB_SECRET

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")


def spki_pin(server):
    """base64(SHA-256(SubjectPublicKeyInfo)) of the server's certificate, as Chromium's pin list takes it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    with open(os.path.join(server.state_dir, "server.pem"), "rb") as f:
        certificate = x509.load_pem_x509_certificate(f.read())
    spki = certificate.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(spki)
    return base64.b64encode(digest.finalize()).decode()


def new_browser(server):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=800,760", "--disable-dev-shm-usage"]:
        options.add_argument(arg)
    # The server's CA is not in Chromium's trust store: trust exactly this server's key (any other certificate
    # error still fails), so the name checks of TLS still apply.
    if server.ca:
        options.add_argument("--ignore-certificate-errors-spki-list=" + spki_pin(server))
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def shot(driver, name):
    folder = os.environ.get("MOCKIDP_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        driver.save_screenshot(os.path.join(folder, name + ".png"))


class Catcher(BaseHTTPRequestHandler):
    """The app's side of the loopback redirect: answers every request with a short page."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"redirect received")

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def loopback_redirect():
    """An app's loopback redirect URI (`http://localhost:PORT`) with a listener behind it."""
    httpd = HTTPServer(("127.0.0.1", 0), Catcher)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield "http://localhost:%d" % httpd.server_address[1]
    finally:
        httpd.shutdown()


@pytest.fixture(scope="module")
def redirect_port():
    with loopback_redirect() as uri:
        yield int(uri.rsplit(":", 1)[1])


def wait(driver):
    """Waits up to 10 s; a find during the navigation a click starts fails with "aborted by navigation", which is
    retried, not fatal (Chromium reports it as a WebDriverException rather than a missing element)."""
    return WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,))


def code_from(driver):
    # The redirect lands on the loopback catcher; the address bar holds the response parameters.
    wait(driver).until(lambda d: urlparse(d.current_url).hostname == "localhost")
    query = parse_qs(urlparse(driver.current_url).query)
    return {k: v[0] for k, v in query.items()}


@pytest.mark.filterwarnings("ignore:response_mode='form_post' is recommended")
def test_sign_in_in_chromium_then_single_sign_on_and_prompt_none(server, redirect_port):
    loopback = "http://localhost:%d" % redirect_port
    driver = new_browser(server)
    try:
        app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
        flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback)
        driver.get(flow["auth_uri"])
        assert driver.title == "Sign in to your account"
        tiles = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".tiles button")]
        assert any(ALICE in t for t in tiles), tiles
        shot(driver, "signin")
        driver.find_element(By.ID, "username").send_keys(ALICE)
        driver.find_element(By.ID, "password").send_keys("wrong-password")
        driver.find_element(By.ID, "submit").click()
        wait(driver).until(expected_conditions.presence_of_element_located((By.ID, "error")))
        assert "incorrect" in driver.find_element(By.ID, "error").text
        shot(driver, "signin-error")
        driver.find_element(By.ID, "password").send_keys("alice-password")
        driver.find_element(By.ID, "submit").click()
        result = app.acquire_token_by_auth_code_flow(flow, code_from(driver))
        assert result.get("id_token_claims", {}).get("oid") == ALICE_OID, result

        # A second app signs in through the same browser's session cookie, with no page at all.
        web = msal.ConfidentialClientApplication(WEB, client_credential=WEB_SECRET, authority=server.url("/organizations"),
                                                 instance_discovery=False)
        flow2 = web.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback)
        driver.get(flow2["auth_uri"])
        assert web.acquire_token_by_auth_code_flow(flow2, code_from(driver))["id_token_claims"]["oid"] == ALICE_OID

        # select_account shows the picker with the signed-in account; consent shows the consent page.
        driver.get(app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="select_account")["auth_uri"])
        assert "signed in" in driver.find_element(By.CSS_SELECTOR, ".tiles").text
        shot(driver, "picker")
        flow3 = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="consent")
        driver.get(flow3["auth_uri"])
        assert driver.title == "Permissions requested"
        shot(driver, "consent")
        driver.find_element(By.ID, "accept").click()
        assert "code" in code_from(driver)

        # The device code page, as a user opening the verification URI sees it.
        device = app.initiate_device_flow(["User.Read"])
        driver.get(device["verification_uri"])
        driver.find_element(By.ID, "user_code").send_keys(device["user_code"])
        shot(driver, "devicecode")
        box = {}
        poller = threading.Thread(target=lambda: box.update(result=app.acquire_token_by_device_flow(device)))
        poller.start()
        driver.find_element(By.ID, "next").click()
        wait(driver).until(expected_conditions.presence_of_element_located((By.ID, "decline")))
        # Alice is signed in in this browser: pick her account.
        driver.find_element(By.ID, "account-0").click()
        wait(driver).until(expected_conditions.presence_of_element_located((By.ID, "message")))
        assert "You have signed in" in driver.find_element(By.ID, "message").text
        poller.join(timeout=60)
        assert box["result"].get("id_token_claims", {}).get("oid") == ALICE_OID, box

        # Logout shows the signed-out page when no registered address is given.
        driver.get(server.url("/%s/oauth2/v2.0/logout" % CONTOSO))
        assert "signed out" in driver.page_source
        shot(driver, "signedout")
        driver.get(server.url("/common/oauth2/v2.0/authorize?client_id=%s&redirect_uri=https://attacker.example&response_type=code&scope=openid" % MOBILE))
        assert "AADSTS50011" in driver.page_source
        shot(driver, "error")
    finally:
        driver.quit()

    # A fresh browser has no session: prompt=none answers login_required.
    fresh = new_browser(server)
    try:
        flow4 = app.initiate_auth_code_flow(["User.Read"], redirect_uri=loopback, prompt="none")
        fresh.get(flow4["auth_uri"])
        response = code_from(fresh)
        assert response["error"] == "login_required", response
        assert app.acquire_token_by_auth_code_flow(flow4, response)["error"] == "login_required"
    finally:
        fresh.quit()
