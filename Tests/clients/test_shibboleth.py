"""Shibboleth SP 3 (Debian's `libapache2-mod-shib`: shibd and Apache's mod_shib, unmodified) as a SAML service
provider of a mockidp enterprise app, set up as for Microsoft Entra ID (docs/saml.md, "Shibboleth SP"): a
MetadataProvider on the app's federation metadata, SSO to the tenant's entity ID, an attribute map of Entra's claim
URIs. A browser without JavaScript (requests and the HTML form helpers) asks for a protected page, follows the
AuthnRequest (HTTP-Redirect) to mockidp, signs in, posts the Response to the ACS and sees Alice's attributes; IdP-
initiated sign-on lands on the page too. Of the tamper defects (docs/saml.md, "Tamper defects") shibd refuses ten;
it reads the NameID with a comment correctly, and takes a wrong InResponseTo unless the application's policy is the
shipped "blockUnsolicited", which refuses it."""
import base64
import html
import os
import shutil
import subprocess
import tempfile
import time
from urllib.parse import parse_qs, quote, urlparse

import pytest
import requests

from apache import MODULES, free_port, running, write_public
from conftest import ALICE, ALICE_OID, CONTOSO
from test_saml import sign_in

SHIBD = shutil.which("shibd") or "/usr/sbin/shibd"
SHIB_APP = "2b7d4e1f-6a3c-4d5e-8f9a-0b1c2d3e4f5a"
SP_ENTITY = "https://shib-sp.example.test/shibboleth"

pytestmark = pytest.mark.skipif(not (os.path.exists(SHIBD) and os.path.exists(MODULES + "/mod_shib.so")),
                                reason="libapache2-mod-shib (shibd and mod_shib) is not installed "
                                       "(scripts/setup installs it)")

# Entra's claim URIs to the ids Shibboleth exports (docs/saml.md, "Shibboleth SP").
ATTRIBUTE_MAP = """<Attributes xmlns="urn:mace:shibboleth:2.0:attribute-map">
    <Attribute name="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" id="nameid"/>
    <Attribute name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name" id="upn"/>
    <Attribute name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress" id="mail"/>
    <Attribute name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname" id="givenName"/>
    <Attribute name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname" id="sn"/>
    <Attribute name="http://schemas.microsoft.com/identity/claims/displayname" id="displayName"/>
    <Attribute name="http://schemas.microsoft.com/identity/claims/objectidentifier" id="oid"/>
    <Attribute name="http://schemas.microsoft.com/identity/claims/tenantid" id="tid"/>
    <Attribute name="http://schemas.microsoft.com/identity/claims/identityprovider" id="idp"/>
    <Attribute name="http://schemas.microsoft.com/claims/authnmethodsreferences" id="amr"/>
    <Attribute name="http://schemas.microsoft.com/ws/2008/06/identity/claims/groups" id="groups"/>
    <Attribute name="http://schemas.microsoft.com/ws/2008/06/identity/claims/role" id="role"/>
</Attributes>
"""

LOGGER = """log4j.rootCategory=%s, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.fileName=%s
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=%%d{%%H:%%M:%%S} %%p %%c %%x: %%m%%n
"""

# The page behind the session: mod_include prints the request's environment, where mod_shib puts REMOTE_USER and
# the attributes by their ids.
PAGE = '<html><body><pre>REMOTE_USER=<!--#echo var="REMOTE_USER" -->\n<!--#printenv --></pre></body></html>\n'


def shibboleth2_xml(root, idp_entity):
    return f"""<SPConfig xmlns="urn:mace:shibboleth:3.0:native:sp:config" clockSkew="180">
    <OutOfProcess logger="{root}/shibd.logger"/>
    <InProcess logger="{root}/native.logger"/>
    <UnixListener address="{root}/shibd.sock"/>
    <ApplicationDefaults entityID="{SP_ENTITY}" REMOTE_USER="upn nameid">
        <Sessions lifetime="28800" timeout="3600" relayState="ss:mem" checkAddress="false"
                  handlerSSL="false" cookieProps="http" redirectLimit="exact">
            <SSO entityID="{idp_entity}">SAML2</SSO>
            <Logout>Local</Logout>
        </Sessions>
        <Errors supportContact="root@localhost"/>
        <MetadataProvider type="XML" path="{root}/idp-metadata.xml"/>
        <AttributeExtractor type="XML" validate="true" reloadChanges="false" path="{root}/attribute-map.xml"/>
        <CredentialResolver type="File" key="{root}/sp-key.pem" certificate="{root}/sp-cert.pem"/>
        <!-- The shipped "blockUnsolicited" policy: InResponseTo must name a request this browser sent. -->
        <ApplicationOverride id="strict" policyId="blockUnsolicited">
            <Sessions lifetime="28800" timeout="3600" relayState="ss:mem" checkAddress="false"
                      handlerURL="/strict/Shibboleth.sso" handlerSSL="false" cookieProps="http" redirectLimit="exact">
                <SSO entityID="{idp_entity}">SAML2</SSO>
            </Sessions>
        </ApplicationOverride>
    </ApplicationDefaults>
    <SecurityPolicyProvider type="XML" validate="true" path="security-policy.xml"/>
    <ProtocolProvider type="XML" validate="true" reloadChanges="false" path="protocols.xml"/>
</SPConfig>
"""


def site_config(shib_conf):
    """mod_shib's part of Apache's configuration (apache.running writes the rest)."""
    return lambda root, site: f"""LoadModule mod_shib {MODULES}/mod_shib.so
ShibConfig {shib_conf}
ShibCompatValidUser Off
<Location /Shibboleth.sso>
    AuthType None
    Require all granted
    SetHandler shib
</Location>
<Location /secure>
    AuthType shibboleth
    ShibRequestSetting requireSession 1
    Require shib-session
    Options +Includes
    AddOutputFilter INCLUDES .shtml
</Location>
<Location /strict>
    AuthType shibboleth
    ShibRequestSetting applicationId strict
    ShibRequestSetting requireSession 1
    Require shib-session
    Options +Includes
    AddOutputFilter INCLUDES .shtml
</Location>
<Location /strict/Shibboleth.sso>
    AuthType None
    Require all granted
    SetHandler shib
</Location>
"""


def wait_for(check, process, what, logs, timeout=20):
    deadline = time.time() + timeout
    while not check():
        if process.poll() is not None or time.time() > deadline:
            process.kill()
            text = "".join(open(p, errors="replace").read()[-4000:] for p in logs if os.path.exists(p))
            raise RuntimeError("%s did not start: %s" % (what, text))
        time.sleep(0.1)


class Site:
    def __init__(self, root, url):
        self.root = root
        self.url = url

    def log(self):
        with open(os.path.join(self.root, "shibd.log"), errors="replace") as f:
            return f.read()


@pytest.fixture(scope="module")
def shib(server):
    """One shibd and one Apache with mod_shib for the module, configured from the app's federation metadata."""
    root = tempfile.mkdtemp(prefix="mockidp-shib-")
    port = free_port()
    site = "http://127.0.0.1:%d" % port
    control = requests.Session()
    control.verify = server.ca
    added = control.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                         json={"clientId": SHIB_APP, "name": "Shibboleth SP", "identifierUris": [SP_ENTITY],
                               "redirectUris": [site + "/Shibboleth.sso/SAML2/POST",
                                                site + "/strict/Shibboleth.sso/SAML2/POST"],
                               "saml": {}})
    assert added.status_code == 201, added.text
    metadata = control.get(server.url("/%s/federationmetadata/2007-06/federationmetadata.xml" % CONTOSO),
                           params={"appid": SHIB_APP})
    assert metadata.status_code == 200 and metadata.content.startswith(b"\xef\xbb\xbf<"), metadata.text[:200]
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30",
                    "-subj", "/CN=shib-sp.example.test", "-keyout", root + "/sp-key.pem",
                    "-out", root + "/sp-cert.pem"],
                   check=True, capture_output=True)
    # Apache's children run as www-data: they read the configuration, write the in-process log and reach the socket.
    write_public(root, {"idp-metadata.xml": metadata.content.decode("utf-8"),  # as served, byte order mark included
                        "attribute-map.xml": ATTRIBUTE_MAP,
                        "shibboleth2.xml": shibboleth2_xml(root, "https://sts.windows.net/%s/" % CONTOSO),
                        "shibd.logger": LOGGER % ("DEBUG", root + "/shibd.log"),
                        "native.logger": LOGGER % ("INFO", root + "/native.log")})
    open(os.path.join(root, "native.log"), "a").close()
    os.chmod(os.path.join(root, "native.log"), 0o666)

    shibd_out = open(os.path.join(root, "shibd.out"), "w")
    shibd = subprocess.Popen([SHIBD, "-F", "-f", "-c", root + "/shibboleth2.xml", "-p", root + "/shibd.pid"],
                             stdout=shibd_out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: os.path.exists(root + "/shibd.sock"), shibd, "shibd", [root + "/shibd.out", root + "/shibd.log"])
        pages = {"htdocs/secure/index.shtml": PAGE, "htdocs/strict/index.shtml": PAGE}
        with running(["include"], site_config(root + "/shibboleth2.xml"), files=pages, port=port):
            yield Site(root, site)
    finally:
        shibd.terminate()
        shibd.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


def browser(server):
    b = requests.Session()
    b.trust_env = False
    b.verify = server.ca
    return b


def shown(page):
    """The environment the protected page printed: name -> value."""
    assert page.status_code == 200, (page.status_code, page.text[:500])
    text = html.unescape(page.text.split("<pre>", 1)[1].split("</pre>", 1)[0])
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def test_shibboleth_signs_alice_in(server, shib):
    b = browser(server)
    first = b.get(shib.url + "/secure/index.shtml?x=1", allow_redirects=False)
    assert first.status_code == 302, (first.status_code, first.text[:500], shib.log()[-3000:])
    location = urlparse(first.headers["Location"])
    assert server.url(location.path) == server.url("/%s/saml2" % CONTOSO)
    query = parse_qs(location.query)
    assert "SAMLRequest" in query and query["RelayState"][0].startswith("ss:mem:")
    action, fields = sign_in(b, first.headers["Location"])
    assert action == shib.url + "/Shibboleth.sso/SAML2/POST"
    page = b.post(action, data=fields)
    assert page.url == shib.url + "/secure/index.shtml?x=1", (page.url, page.text[:1000], shib.log()[-5000:])
    env = shown(page)
    assert env["REMOTE_USER"] == ALICE
    assert env["upn"] == ALICE and env["oid"] == ALICE_OID and env["tid"] == CONTOSO
    assert env["mail"] and env["displayName"]
    assert env["Shib-Identity-Provider"] == "https://sts.windows.net/%s/" % CONTOSO
    assert env["Shib-AuthnContext-Class"] == "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"
    assert env["Shib-Session-Index"]


def test_idp_initiated_sign_on_lands_on_the_relay_state(server, shib):
    b = browser(server)
    target = shib.url + "/secure/index.shtml?launched=1"
    action, fields = sign_in(b, server.url("/%s/saml2?appid=%s&RelayState=%s" % (CONTOSO, SHIB_APP, quote(target))))
    assert action == shib.url + "/Shibboleth.sso/SAML2/POST" and fields["RelayState"] == target
    assert b'InResponseTo="' not in base64.b64decode(fields["SAMLResponse"])
    page = b.post(action, data=fields)
    assert page.url == target, (page.url, page.text[:1000], shib.log()[-3000:])
    env = shown(page)
    assert env["REMOTE_USER"] == ALICE and env["oid"] == ALICE_OID


def tampered_sign_in(server, shib, defect, path="/secure"):
    """Alice asks for the page under `path`, signs in with `defect` in the Response, and the browser posts it to
    the ACS; returns the browser, the ACS's answer (redirects not followed) and what shibd logged meanwhile."""
    b = browser(server)
    if defect:
        added = b.post(server.url("/_mockidp/faults"),
                       json={"tamper": defect, "token": "saml", "clientId": SHIB_APP, "count": 1})
        assert added.status_code == 201, added.text
    first = b.get(shib.url + path + "/index.shtml", allow_redirects=False)
    assert first.status_code == 302, (first.status_code, first.text[:500])
    action, fields = sign_in(b, first.headers["Location"])
    assert action == shib.url + path.replace("/secure", "") + "/Shibboleth.sso/SAML2/POST"
    before = len(shib.log())
    answer = b.post(action, data=fields, allow_redirects=False)
    return b, answer, shib.log()[before:]


def assert_no_session(b, shib, path="/secure"):
    again = b.get(shib.url + path + "/index.shtml", allow_redirects=False)
    assert again.status_code == 302 and "/saml2?SAMLRequest=" in again.headers["Location"], again.status_code


# Each defect shibd refuses (with the shipped default security policy): its error page's message and its log's.
REFUSED = {
    "saml-unsigned": ("Unable to establish security of incoming assertion.", "detected a problem with assertion"),
    "saml-bad-signature": ("Message was signed, but signature could not be verified.",
                           "unable to verify message signature with supplied trust engine"),
    "saml-foreign-key": ("Message was signed, but signature could not be verified.",
                         "unable to verify message signature with supplied trust engine"),
    "saml-wrong-issuer": ("Unable to establish security of incoming assertion.",
                          "no metadata found, can't establish identity of issuer (https://issuer.invalid/"),
    "saml-wrong-audience": ("Assertion contains an unacceptable AudienceRestriction.",
                            "unacceptable AudienceRestriction in assertion"),
    "saml-wrong-recipient": ("Unable to locate satisfiable bearer SubjectConfirmation in assertion.",
                             "bearer confirmation failed with recipient mismatch"),
    "saml-wrong-destination": ("SAML message delivered with POST to incorrect server URL.",
                               "POST targeted at (https://destination.invalid/Shibboleth.sso/SAML2/POST)"),
    "saml-expired": ("Message expired, was issued too long ago.", "rejected expired message"),
    "saml-not-yet-valid": ("Assertion is not yet valid.", "Assertion is not yet valid."),
    "saml-xsw": ("Unable to establish security of incoming assertion.", "detected a problem with assertion"),
}


@pytest.mark.parametrize("defect", sorted(REFUSED))
def test_shibboleth_refuses_each_tamper_defect(server, shib, defect):
    b, answer, log = tampered_sign_in(server, shib, defect)
    page_message, log_message = REFUSED[defect]
    assert answer.status_code == 500, (answer.status_code, answer.headers.get("Location"), log[-3000:])
    assert page_message in html.unescape(answer.text), answer.text
    assert log_message in log, log[-3000:]
    assert_no_session(b, shib)


def test_a_comment_in_the_name_id_does_not_fool_shibboleth(server, shib):
    b, answer, log = tampered_sign_in(server, shib, "saml-comment-nameid")
    assert answer.status_code == 302 and answer.headers["Location"] == shib.url + "/secure/index.shtml", log[-3000:]
    # The signature verifies (exclusive c14n leaves the comment out); shibd reads the NameID's whole text.
    env = shown(b.get(answer.headers["Location"]))
    assert env["nameid"] == ALICE and env["REMOTE_USER"] == ALICE


def test_inresponseto_is_checked_only_under_the_block_unsolicited_policy(server, shib):
    # The default policy does not correlate InResponseTo with a request (the Bearer rule's checkCorrelation is off by
    # default, https://wiki.shibboleth.net/confluence/display/SP3/Bearer+Rule): a Response to a request never sent
    # is taken.
    b, answer, log = tampered_sign_in(server, shib, "saml-wrong-inresponseto")
    assert answer.status_code == 302 and answer.headers["Location"] == shib.url + "/secure/index.shtml", log[-3000:]
    assert shown(b.get(answer.headers["Location"]))["REMOTE_USER"] == ALICE
    # The shipped "blockUnsolicited" policy tracks the request in a cookie: a clean Response is taken, a Response
    # to a request never sent is refused.
    b, answer, log = tampered_sign_in(server, shib, None, path="/strict")
    assert answer.status_code == 302 and answer.headers["Location"] == shib.url + "/strict/index.shtml", log[-3000:]
    assert shown(b.get(answer.headers["Location"]))["REMOTE_USER"] == ALICE
    b, answer, log = tampered_sign_in(server, shib, "saml-wrong-inresponseto", path="/strict")
    assert answer.status_code == 500, log[-3000:]
    assert "Rejecting non-correlated response to request ID." in html.unescape(answer.text), answer.text
    assert "response correlation ID did not match request ID" in log, log[-3000:]
    assert_no_session(b, shib, "/strict")
