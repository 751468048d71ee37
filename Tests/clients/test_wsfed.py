"""WS-Federation for SAML apps (docs/saml.md, "WS-Federation"): `wa=wsignin1.0` signs Alice in on the ordinary
sign-in page and posts `wa`, `wresult` and `wctx` to `wreply`; the `wresult` (a WS-Trust RequestSecurityTokenResponse
holding a SAML 2.0 assertion, or SAML 1.1 by `wsfedTokenType`) is checked field by field and its signature by two
independent verifiers (signxml and the xmlsec1 command) with the certificate from the app's federation metadata; a tamper
fault shows in the wresult; Entra's refusals; `wsignout1.0` ends the session. Once in Chromium through the real page."""
import base64
import contextlib
import datetime
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs

import pytest
import requests
from lxml import etree
from signxml import XMLVerifier
from signxml.exceptions import InvalidSignature

import test_saml as saml
from conftest import ALICE, ALICE_OID, CONTOSO
from html_forms import forms

SAML2_APP = "3c9a1f7e-2b4d-4e6a-8c1f-5d7e9a0b2c4d"
SAML11_APP = "8e2d4c6a-1f3b-4a5c-9e7d-0b1c2d3e4f5a"
SAML2_REALM = "urn:contoso:wsfed-saml2"
SAML11_REALM = "urn:sharepoint:contoso"
REPLY = "https://rp.example.test/signin-wsfed"
OTHER_REPLY = "https://rp.example.test/_trust/"
TRUST = "http://schemas.xmlsoap.org/ws/2005/02/trust"
NS = {"t": TRUST, "wsu": "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
      "wsp": "http://schemas.xmlsoap.org/ws/2004/09/policy", "wsa": "http://www.w3.org/2005/08/addressing",
      "saml2": "urn:oasis:names:tc:SAML:2.0:assertion", "saml1": "urn:oasis:names:tc:SAML:1.0:assertion",
      "ds": "http://www.w3.org/2000/09/xmldsig#"}
SAML2_ID = ("urn:oasis:names:tc:SAML:2.0:assertion:Assertion", "ID")
SAML11_ID = ("urn:oasis:names:tc:SAML:1.0:assertion:Assertion", "AssertionID")


def add_app(server, client_id, realm, redirect_uris, **saml_settings):
    s = new_session(server)
    added = s.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                   json={"clientId": client_id, "name": "Contoso WS-Fed " + realm, "identifierUris": [realm],
                         "redirectUris": redirect_uris, "saml": saml_settings})
    assert added.status_code == 201, added.text


@pytest.fixture(scope="module")
def wsfed_apps(server):
    add_app(server, SAML2_APP, SAML2_REALM, [REPLY, OTHER_REPLY])
    add_app(server, SAML11_APP, SAML11_REALM, [OTHER_REPLY], wsfedTokenType="saml11")
    return server


def new_session(server):
    s = requests.Session()
    s.verify = server.ca
    return s


def wsfed_url(server, **params):
    return requests.Request("GET", server.url("/%s/wsfed" % CONTOSO), params=params).prepare().url


def app_certificate(session, server, client_id):
    """The app's signing certificate (DER) from its federation metadata, as a relying party configures it."""
    root = etree.fromstring(saml.metadata(session, server, client_id)[3:])
    text = root.find(".//{urn:oasis:names:tc:SAML:2.0:metadata}IDPSSODescriptor//ds:X509Certificate", NS).text
    return base64.b64decode(text)


def pem(der):
    return "-----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----\n" % base64.encodebytes(der).decode().strip()


def wsignin(session, server, **params):
    """Alice signs in through the page; the posted form's action and fields."""
    return saml.sign_in(session, wsfed_url(server, wa="wsignin1.0", **params))


def verified(wresult, certificate, id_attr):
    """signxml's verdict: the signed assertion element, or None."""
    try:
        return XMLVerifier().verify(wresult.encode(), x509_cert=pem(certificate), id_attribute=id_attr).signed_xml
    except InvalidSignature:
        return None


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_wsignin_posts_a_signed_saml2_wresult(wsfed_apps):
    server = wsfed_apps
    session = new_session(server)
    action, fields = wsignin(session, server, wtrealm=SAML2_REALM, wctx="rm=0&id=passive&ru=%2f")
    assert action == REPLY and fields["wa"] == "wsignin1.0" and fields["wctx"] == "rm=0&id=passive&ru=%2f"
    wresult = fields["wresult"]
    root = etree.fromstring(wresult.encode())
    assert root.tag == "{%s}RequestSecurityTokenResponse" % TRUST
    assert [etree.QName(c).localname for c in root] == [
        "Lifetime", "AppliesTo", "RequestedSecurityToken", "RequestedAttachedReference", "RequestedUnattachedReference",
        "TokenType", "RequestType", "KeyType"]
    assert root.findtext("wsp:AppliesTo/wsa:EndpointReference/wsa:Address", namespaces=NS) == SAML2_REALM
    assert root.findtext("t:TokenType", namespaces=NS) == "http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLV2.0"
    assert root.findtext("t:RequestType", namespaces=NS) == TRUST + "/Issue"
    now = datetime.datetime.now(datetime.timezone.utc)
    created, expires = (instant(root.findtext("t:Lifetime/wsu:" + n, namespaces=NS)) for n in ("Created", "Expires"))
    assert created <= now <= expires and expires - created == datetime.timedelta(minutes=65)

    assertion = root.find("t:RequestedSecurityToken/saml2:Assertion", NS)
    assert assertion.findtext("saml2:Issuer", namespaces=NS) == "https://sts.windows.net/%s/" % CONTOSO
    assert assertion.findtext("saml2:Conditions/saml2:AudienceRestriction/saml2:Audience", namespaces=NS) == SAML2_REALM
    assert assertion.findtext("saml2:Subject/saml2:NameID", namespaces=NS) == ALICE
    data = assertion.find("saml2:Subject/saml2:SubjectConfirmation/saml2:SubjectConfirmationData", NS)
    assert data.get("Recipient") == REPLY and data.get("InResponseTo") is None
    attributes = {a.get("Name"): [v.text for v in a] for a in assertion.findall("saml2:AttributeStatement/saml2:Attribute", NS)}
    assert attributes["http://schemas.microsoft.com/identity/claims/objectidentifier"] == [ALICE_OID]
    assert attributes["http://schemas.microsoft.com/identity/claims/tenantid"] == [CONTOSO]

    certificate = app_certificate(session, server, SAML2_APP)
    signed = verified(wresult, certificate, "ID")
    assert signed is not None and signed.get("ID") == assertion.get("ID")
    checked = saml.xmlsec1_verify(wresult.encode(), certificate, *SAML2_ID)
    assert checked.returncode == 0, checked.stderr

    # The session answers the next wsignin at once, to the wreply asked for, without wctx.
    page = session.get(wsfed_url(server, wa="wsignin1.0", wtrealm=SAML2_REALM, wreply=OTHER_REPLY))
    answer = forms(page.text)[0]
    assert answer["action"] == OTHER_REPLY and "wctx" not in dict(answer["fields"])


def test_wsfed_token_type_saml11_posts_a_signed_saml11_assertion(wsfed_apps):
    server = wsfed_apps
    session = new_session(server)
    action, fields = wsignin(session, server, wtrealm=SAML11_REALM, wctx="sp")
    assert action == OTHER_REPLY and fields["wctx"] == "sp"
    wresult = fields["wresult"]
    root = etree.fromstring(wresult.encode())
    assert root.findtext("t:TokenType", namespaces=NS) == "urn:oasis:names:tc:SAML:1.0:assertion"
    assertion = root.find("t:RequestedSecurityToken/saml1:Assertion", NS)
    assert (assertion.get("MajorVersion"), assertion.get("MinorVersion")) == ("1", "1")
    assert assertion.get("AssertionID").startswith("_") and assertion.get("Issuer") == "https://sts.windows.net/%s/" % CONTOSO
    assert [etree.QName(c).localname for c in assertion] == ["Conditions", "AttributeStatement", "AuthenticationStatement", "Signature"]
    conditions = assertion.find("saml1:Conditions", NS)
    assert conditions.findtext("saml1:AudienceRestrictionCondition/saml1:Audience", namespaces=NS) == SAML11_REALM
    assert instant(conditions.get("NotBefore")) <= datetime.datetime.now(datetime.timezone.utc) < instant(conditions.get("NotOnOrAfter"))
    statement = assertion.find("saml1:AttributeStatement", NS)
    assert statement.findtext("saml1:Subject/saml1:NameIdentifier", namespaces=NS) == ALICE
    assert statement.findtext("saml1:Subject/saml1:SubjectConfirmation/saml1:ConfirmationMethod", namespaces=NS) == \
        "urn:oasis:names:tc:SAML:1.0:cm:bearer"
    attributes = {(a.get("AttributeNamespace"), a.get("AttributeName")): [v.text for v in a]
                  for a in statement.findall("saml1:Attribute", NS)}
    assert attributes[("http://schemas.microsoft.com/identity/claims", "objectidentifier")] == [ALICE_OID]
    assert attributes[("http://schemas.xmlsoap.org/ws/2005/05/identity/claims", "name")] == [ALICE]
    authentication = assertion.find("saml1:AuthenticationStatement", NS)
    assert authentication.get("AuthenticationMethod") == "urn:oasis:names:tc:SAML:1.0:am:password"

    certificate = app_certificate(session, server, SAML11_APP)
    signed = verified(wresult, certificate, "AssertionID")
    assert signed is not None and signed.get("AssertionID") == assertion.get("AssertionID")
    checked = saml.xmlsec1_verify(wresult.encode(), certificate, *SAML11_ID)
    assert checked.returncode == 0, checked.stderr
    # Another app's certificate does not verify it.
    assert verified(wresult, app_certificate(session, server, SAML2_APP), "AssertionID") is None


@pytest.mark.parametrize("client_id,realm,ids", [(SAML2_APP, SAML2_REALM, SAML2_ID), (SAML11_APP, SAML11_REALM, SAML11_ID)])
def test_a_tamper_fault_shows_in_the_wresult(wsfed_apps, client_id, realm, ids):
    server = wsfed_apps
    session = new_session(server)
    certificate = app_certificate(session, server, client_id)
    for defect in ("saml-bad-signature", "saml-wrong-audience"):
        added = session.post(server.url("/_mockidp/faults"), json={"tamper": defect, "token": "saml", "clientId": client_id})
        assert added.status_code == 201, added.text
        _, fields = saml.sign_in(new_session(server), wsfed_url(server, wa="wsignin1.0", wtrealm=realm))
        wresult = fields["wresult"]
        if defect == "saml-bad-signature":
            assert verified(wresult, certificate, ids[1]) is None
            assert saml.xmlsec1_verify(wresult.encode(), certificate, *ids).returncode != 0
        else:
            assert verified(wresult, certificate, ids[1]) is not None
            audience = etree.fromstring(wresult.encode()).xpath("//*[local-name()='Audience']")[0].text
            assert audience.startswith("spn:") and audience != realm
            assert "<wsa:Address>%s</wsa:Address>" % realm in wresult


def test_refusals_are_on_the_error_page(wsfed_apps):
    server = wsfed_apps
    session = new_session(server)
    for params, code in [({"wtrealm": "urn:nobody"}, "AADSTS700016"),
                         ({"wtrealm": SAML2_REALM, "wreply": "https://evil.example.test/"}, "AADSTS50011"),
                         ({}, "AADSTS900144")]:
        page = session.get(wsfed_url(server, wa="wsignin1.0", **params))
        assert page.status_code == 400 and code in page.text and "wresult" not in page.text, (params, page.text[:300])
    unknown = session.get(wsfed_url(server, wa="wattr1.0", wtrealm=SAML2_REALM))
    assert unknown.status_code == 400 and "wsignin1.0" in unknown.text


def test_wsignout_ends_the_session(wsfed_apps):
    server = wsfed_apps
    session = new_session(server)
    wsignin(session, server, wtrealm=SAML2_REALM)
    signed_in = session.get(wsfed_url(server, wa="wsignin1.0", wtrealm=SAML2_REALM))
    assert forms(signed_in.text)[0]["action"] == REPLY
    out = session.get(wsfed_url(server, wa="wsignout1.0", wreply=REPLY), allow_redirects=False)
    assert out.status_code == 302 and out.headers["Location"] == REPLY
    again = session.get(wsfed_url(server, wa="wsignin1.0", wtrealm=SAML2_REALM))
    assert again.status_code == 200 and any(("mockidp_action", "signin") in f["fields"] for f in forms(again.text))
    stay = session.get(wsfed_url(server, wa="wsignout1.0", wreply="https://evil.example.test/"), allow_redirects=False)
    assert stay.status_code == 200 and "not a registered reply URL" in stay.text


class Catcher(BaseHTTPRequestHandler):
    """The relying party's reply URL: keeps the form posted to it."""
    posted = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        Catcher.posted.append({k: v[0] for k, v in parse_qs(body).items()})
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"wresult received")

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def reply_listener():
    httpd = HTTPServer(("127.0.0.1", 0), Catcher)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield "http://localhost:%d/signin-wsfed" % httpd.server_address[1]
    finally:
        httpd.shutdown()


def test_wsignin_in_chromium_through_the_sign_in_page(wsfed_apps):
    browser = pytest.importorskip("test_browser")
    if not (browser.CHROMIUM and browser.CHROMEDRIVER):
        pytest.skip("chromium and chromium-driver are not installed")
    from selenium.webdriver.common.by import By
    server = wsfed_apps
    with reply_listener() as reply:
        client_id, realm = "5a7c9e1b-3d5f-4a6b-8c0d-2e4f6a8b0c1d", "urn:contoso:wsfed-chromium"
        add_app(server, client_id, realm, [reply])
        driver = browser.new_browser(server)
        try:
            Catcher.posted.clear()
            driver.get(wsfed_url(server, wa="wsignin1.0", wtrealm=realm, wctx="chromium"))
            assert driver.title == "Sign in to your account"
            driver.find_element(By.ID, "username").send_keys(ALICE)
            driver.find_element(By.ID, "password").send_keys("alice-password")
            driver.find_element(By.ID, "submit").click()
            browser.wait(driver).until(lambda d: Catcher.posted)
        finally:
            driver.quit()
    fields = Catcher.posted[0]
    assert fields["wa"] == "wsignin1.0" and fields["wctx"] == "chromium"
    certificate = app_certificate(new_session(server), server, client_id)
    assert verified(fields["wresult"], certificate, "ID") is not None
