"""SAML 2.0 enterprise apps (docs/saml.md): OneLogin's python3-saml, unmodified, configured from mockidp's federation
metadata, signs Alice in end to end over the HTTP-Redirect binding (the browser's sign-in done by the page's form
posts), RelayState included; the signatures of the metadata and of the Response are checked by independent
verifiers (the xmlsec1 command and signxml); an AuthnRequest from an unknown service provider is refused on the
error page; a Response with each tamper defect (docs/saml.md, "Tamper defects") is refused by python3-saml; single
logout (docs/saml.md, "Single logout") ends the browser session and python3-saml accepts the signed LogoutResponse."""
import base64
import os
import shutil
import ssl
import subprocess
import tempfile
from urllib.parse import parse_qsl, urlencode, urlparse

import pytest
import requests
from lxml import etree
from onelogin.saml2.auth import OneLogin_Saml2_Auth
from onelogin.saml2.idp_metadata_parser import OneLogin_Saml2_IdPMetadataParser
from onelogin.saml2.logout_response import OneLogin_Saml2_Logout_Response
from onelogin.saml2.response import OneLogin_Saml2_Response
from onelogin.saml2.settings import OneLogin_Saml2_Settings
from onelogin.saml2.utils import OneLogin_Saml2_Utils
from signxml import XMLVerifier

from conftest import ALICE, ALICE_OID, CONTOSO
from html_forms import forms

SP_APP = "4d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a"
SP_ENTITY = "https://sp.example.test/saml/metadata"
SP_ACS = "https://sp.example.test/saml/acs"
ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion"
PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol"
NS = {"saml": ASSERTION, "samlp": PROTOCOL, "md": "urn:oasis:names:tc:SAML:2.0:metadata",
      "ds": "http://www.w3.org/2000/09/xmldsig#"}


@pytest.fixture(scope="module")
def saml_app(server):
    add_saml_app(server, SP_APP, "Contoso SAML SP", SP_ENTITY, SP_ACS, {"attributes": {"department": "department"}})
    return SP_APP


def add_saml_app(server, client_id, name, entity, acs, saml=None, **extra):
    """Adds a SAML app to Contoso through the control API: `entity` its identifier, `acs` its reply URL."""
    added = requests.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO), verify=server.ca,
                          json=dict(clientId=client_id, name=name, identifierUris=[entity], redirectUris=[acs],
                                    saml=saml or {}, **extra))
    assert added.status_code == 201, added.text


def app_metadata_url(server, client_id):
    return server.url("/%s/federationmetadata/2007-06/federationmetadata.xml?appid=%s" % (CONTOSO, client_id))


def tamper_next(server, client_id, defect):
    """The app's next Response carries `defect` (docs/saml.md, "Tamper defects")."""
    added = requests.post(server.url("/_mockidp/faults"), verify=server.ca,
                          json={"tamper": defect, "token": "saml", "clientId": client_id, "count": 1})
    assert added.status_code == 201, added.text
    assert added.json()["tamper"] == defect and added.json()["token"] == "saml"


def metadata(session, server, appid=None):
    url = server.url("/%s/federationmetadata/2007-06/federationmetadata.xml" % CONTOSO)
    response = session.get(url, params={"appid": appid} if appid else None)
    assert response.status_code == 200, response.text
    return response.content


def sp_settings(idp, entity=SP_ENTITY):
    return {
        "strict": True,
        "sp": {"entityId": entity,
               "assertionConsumerService": {"url": SP_ACS, "binding": "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"},
               "NameIDFormat": "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"},
        "idp": idp["idp"],
        "security": {"wantAssertionsSigned": True, "wantMessagesSigned": False, "requestedAuthnContext": False},
    }


def sp_request(path, post=None):
    return {"https": "on", "http_host": "sp.example.test", "script_name": path,
            "get_data": {}, "post_data": post or {}}


def xmlsec1_verify(xml, certificate_der, id_element, id_attr="ID"):
    """The xmlsec1 command's verdict on `xml`, keyed by the certificate alone; `id_attr` of `id_element` is the ID."""
    folder = tempfile.mkdtemp(prefix="mockidp-saml-")
    try:
        document, cert = os.path.join(folder, "signed.xml"), os.path.join(folder, "cert.pem")
        with open(document, "wb") as f:
            f.write(xml)
        with open(cert, "w") as f:
            f.write(ssl.DER_cert_to_PEM_cert(certificate_der))
        return subprocess.run(["xmlsec1", "--verify", "--enabled-reference-uris", "same-doc", "--id-attr:" + id_attr, id_element,
                               "--pubkey-cert-pem", cert, document], capture_output=True, text=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sign_in(session, url, username=ALICE, password="alice-password"):
    """Follows mockidp's sign-in page as a browser without JavaScript: the page, the sign-in form, then the
    auto-submitting form to the service provider, whose action and fields are returned. A browser already signed in
    gets the auto-submitting form at once."""
    page = session.get(url)
    assert page.status_code == 200, page.text
    form = next((f for f in forms(page.text) if ("mockidp_action", "signin") in f["fields"]), None)
    if form is None:
        answer = forms(page.text)[0]
        return answer["action"], dict(answer["fields"])
    fields = dict(form["fields"])
    fields.update(username=username, password=password)
    posted = session.post(server_url(page.url, form["action"]), data=fields)
    assert posted.status_code == 200, posted.text
    answer = forms(posted.text)[0]
    return answer["action"], dict(answer["fields"])


def server_url(base, action):
    parts = urlparse(base)
    return "%s://%s%s" % (parts.scheme, parts.netloc, action)


def test_metadata_is_signed_with_a_byte_order_mark(session, server, saml_app):
    tenant_doc = metadata(session, server)
    assert tenant_doc.startswith(b"\xef\xbb\xbf<?xml")
    root = etree.fromstring(tenant_doc[3:])
    assert root.get("entityID") == "https://sts.windows.net/%s/" % CONTOSO
    sso = root.find("md:IDPSSODescriptor/md:SingleSignOnService", NS)
    assert sso.get("Binding") == "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
    assert sso.get("Location") == server.url("/%s/saml2" % CONTOSO)
    assert root.find("md:IDPSSODescriptor/md:SingleLogoutService", NS).get("Location") == server.url("/%s/saml2" % CONTOSO)
    passive = root.find("md:RoleDescriptor/{http://docs.oasis-open.org/wsfed/federation/200706}PassiveRequestorEndpoint", NS)
    assert passive is not None and server.url("/%s/wsfed" % CONTOSO) in etree.tostring(passive).decode()
    # The tenant document is signed by the tenant's token-signing key; the app's by the app's own certificate.
    tenant_cert = root.find("ds:Signature/ds:KeyInfo/ds:X509Data/ds:X509Certificate", NS).text
    app_doc = metadata(session, server, saml_app)
    app_root = etree.fromstring(app_doc[3:])
    app_cert = app_root.find("md:IDPSSODescriptor/md:KeyDescriptor/ds:KeyInfo/ds:X509Data/ds:X509Certificate", NS).text
    assert app_cert != tenant_cert
    for document, cert in ((tenant_doc, tenant_cert), (app_doc, app_cert)):
        der = base64.b64decode(cert)
        result = xmlsec1_verify(document[3:], der, "urn:oasis:names:tc:SAML:2.0:metadata:EntityDescriptor")
        assert result.returncode == 0, result.stderr
        XMLVerifier().verify(document[3:], x509_cert=ssl.DER_cert_to_PEM_cert(der))
    # Case does not matter in the path.
    upper = session.get(server.url("/%s/FederationMetadata/2007-06/FederationMetadata.xml" % CONTOSO))
    assert upper.status_code == 200 and upper.content.startswith(b"\xef\xbb\xbf")


def test_python3_saml_signs_alice_in(session, server, saml_app):
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, saml_app))
    assert idp["idp"]["entityId"] == "https://sts.windows.net/%s/" % CONTOSO
    auth = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp))
    login = auth.login(return_to="https://sp.example.test/after?x=1")
    request_id = auth.get_last_request_id()
    action, fields = sign_in(session, login)
    assert action == SP_ACS
    assert fields["RelayState"] == "https://sp.example.test/after?x=1"
    response = OneLogin_Saml2_Auth(sp_request("/saml/acs", fields), sp_settings(idp))
    response.process_response(request_id=request_id)
    assert response.get_errors() == [], response.get_last_error_reason()
    assert response.is_authenticated()
    assert response.get_nameid() == ALICE
    assert response.get_nameid_format() == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
    attributes = response.get_attributes()
    assert attributes["http://schemas.microsoft.com/identity/claims/tenantid"] == [CONTOSO]
    assert attributes["http://schemas.microsoft.com/identity/claims/objectidentifier"] == [ALICE_OID]
    assert attributes["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"] == [ALICE]
    assert response.get_session_index()

    # The Response as Entra's: the assertion signed (not the Response), the signature right after its Issuer,
    # the attributes in Entra's order; xmlsec1 verifies it with the app's certificate from the metadata.
    xml = base64.b64decode(fields["SAMLResponse"])
    root = etree.fromstring(xml)
    assert root.get("InResponseTo") == request_id and root.get("Destination") == SP_ACS
    assert root.find("ds:Signature", NS) is None
    assertion = root.find("saml:Assertion", NS)
    assert [etree.QName(c).localname for c in assertion][:3] == ["Issuer", "Signature", "Subject"]
    names = [a.get("Name") for a in assertion.findall("saml:AttributeStatement/saml:Attribute", NS)]
    assert names[:5] == ["http://schemas.microsoft.com/identity/claims/tenantid",
                         "http://schemas.microsoft.com/identity/claims/objectidentifier",
                         "http://schemas.microsoft.com/identity/claims/displayname",
                         "http://schemas.microsoft.com/identity/claims/identityprovider",
                         "http://schemas.microsoft.com/claims/authnmethodsreferences"]
    certificate = base64.b64decode(OneLogin_Saml2_Utils.format_cert(idp["idp"]["x509cert"], heads=False))
    result = xmlsec1_verify(xml, certificate, "urn:oasis:names:tc:SAML:2.0:assertion:Assertion")
    assert result.returncode == 0, result.stderr

    # The browser session is shared: a second sign-on needs no password and answers at once.
    again = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp))
    page = session.get(again.login(return_to="second"))
    answer = forms(page.text)[0]
    assert answer["action"] == SP_ACS and dict(answer["fields"])["RelayState"] == "second"


def test_an_unknown_service_provider_is_refused_on_the_error_page(session, server, saml_app):
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, saml_app))
    auth = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp, entity="https://unknown.example.test/sp"))
    page = session.get(auth.login())
    assert page.status_code == 400
    assert "AADSTS700016" in page.text
    assert "SAMLResponse" not in page.text


def test_rotation_publishes_both_certificates_until_retired(session, server, saml_app):
    before = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, saml_app))["idp"]["x509cert"]
    rotated = session.post(server.url("/_mockidp/tenants/%s/apps/%s/saml/rotate" % (CONTOSO, saml_app)))
    assert rotated.status_code == 200, rotated.text
    assert len(rotated.json()["thumbprints"]) == 2
    root = etree.fromstring(metadata(session, server, saml_app)[3:])
    certs = [c.text for c in root.findall("md:IDPSSODescriptor/md:KeyDescriptor/ds:KeyInfo/ds:X509Data/ds:X509Certificate", NS)]
    assert len(certs) == 2 and certs[1] == before and certs[0] != before
    retired = session.post(server.url("/_mockidp/keys/retire"), json={})
    assert retired.status_code == 200, retired.text
    root = etree.fromstring(metadata(session, server, saml_app)[3:])
    assert [c.text for c in root.findall("md:IDPSSODescriptor/md:KeyDescriptor/ds:KeyInfo/ds:X509Data/ds:X509Certificate", NS)] == certs[:1]


SIGNED_APP = "8e1f0a2b-3c4d-4e5f-9a6b-7c8d9e0f1a2b"
SIGNED_ENTITY = "https://signed-sp.example.test/saml/metadata"


def sp_key_pair(folder):
    """An RSA key and a self-signed certificate for a service provider that signs its requests; the certificate's
    path is what the app's `certificates` lists."""
    import datetime
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "signed-sp.example.test")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=30)).sign(key, hashes.SHA256()))
    cert_pem = cert.public_bytes(serialization.Encoding.PEM).decode()
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    path = os.path.join(folder, "sp-cert.pem")
    with open(path, "w") as f:
        f.write(cert_pem)
    return key_pem, cert_pem, path


def test_a_signed_redirect_request_is_required_and_checked(session, server, saml_app):
    folder = tempfile.mkdtemp(prefix="mockidp-saml-sp-")
    try:
        key_pem, cert_pem, path = sp_key_pair(folder)
        added = session.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                             json={"clientId": SIGNED_APP, "identifierUris": [SIGNED_ENTITY], "redirectUris": [SP_ACS],
                                   "certificates": [path], "saml": {"requireSignedRequests": True}})
        assert added.status_code == 201, added.text
        idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, SIGNED_APP))
        unsigned = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp, entity=SIGNED_ENTITY))
        refused = session.get(unsigned.login())
        assert refused.status_code == 400 and "AADSTS75005" in refused.text and "requires signed requests" in refused.text
        settings = sp_settings(idp, entity=SIGNED_ENTITY)
        settings["sp"].update(x509cert=cert_pem, privateKey=key_pem)
        settings["security"].update(authnRequestsSigned=True,
                                    signatureAlgorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
        signed = OneLogin_Saml2_Auth(sp_request("/saml/login"), settings)
        url = signed.login(return_to="signed")
        assert "Signature=" in url and "SigAlg=" in url
        # Accepted: the sign-in page, then the Response for the service provider.
        action, fields = sign_in(session, url)
        assert action == SP_ACS and fields["RelayState"] == "signed"
        # A request whose signature no longer matches its query is refused.
        tampered = session.get(url.replace("RelayState=signed", "RelayState=other"))
        assert tampered.status_code == 400 and "AADSTS75005" in tampered.text
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# Each SAML tamper defect (docs/saml.md, "Tamper defects") and the reason python3-saml gives for refusing it.
REFUSED = {
    "saml-unsigned": "The Assertion of the Response is not signed",
    "saml-bad-signature": "Signature validation failed",
    "saml-foreign-key": "Signature validation failed",
    "saml-wrong-issuer": "Invalid issuer",
    "saml-wrong-audience": "is not a valid audience",
    "saml-wrong-recipient": "A valid SubjectConfirmation was not found",
    "saml-wrong-destination": "The response was received at",
    "saml-wrong-inresponseto": "The InResponseTo of the Response",
    "saml-expired": "Could not validate timestamp: expired",
    "saml-not-yet-valid": "Could not validate timestamp: not yet valid",
    "saml-xsw": "SAML Response must contain 1 assertion",
}
# Every SAML tamper defect: those python3-saml refuses, and the one it is not fooled by.
DEFECTS = sorted(REFUSED) + ["saml-comment-nameid"]


def tampered(session, server, saml_app, defect):
    """Alice signs in to the service provider with `defect` (none: a clean Response) in the Response; returns
    python3-saml's verdict (strict, the certificate from the app's metadata), the response object and the XML."""
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, saml_app))
    if defect:
        tamper_next(server, saml_app, defect)
    auth = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp))
    login = auth.login()
    request_id = auth.get_last_request_id()
    _, fields = sign_in(session, login)
    response = OneLogin_Saml2_Response(OneLogin_Saml2_Settings(sp_settings(idp)), fields["SAMLResponse"])
    valid = response.is_valid(sp_request("/saml/acs", fields), request_id)
    return valid, response, base64.b64decode(fields["SAMLResponse"])


def test_python3_saml_accepts_an_untampered_response(session, server, saml_app):
    valid, response, _ = tampered(session, server, saml_app, None)
    assert valid, response.get_error()
    assert response.get_nameid() == ALICE


@pytest.mark.parametrize("defect", sorted(REFUSED))
def test_python3_saml_refuses_each_tamper_defect(session, server, saml_app, defect):
    valid, response, xml = tampered(session, server, saml_app, defect)
    assert not valid
    assert REFUSED[defect] in response.get_error(), response.get_error()
    faults = session.get(server.url("/_mockidp/faults")).json()["faults"]
    assert not [f for f in faults if f.get("token") == "saml"]
    if defect == "saml-xsw":
        # The signed assertion, untouched, in Extensions; in its place an unsigned one naming Bob.
        root = etree.fromstring(xml)
        wrapped = root.find("samlp:Extensions/saml:Assertion", NS)
        assert wrapped.find("ds:Signature", NS) is not None
        assert wrapped.find("saml:Subject/saml:NameID", NS).text == ALICE
        forged = root.find("saml:Assertion", NS)
        assert forged.find("ds:Signature", NS) is None
        assert forged.find("saml:Subject/saml:NameID", NS).text == "bob@contoso.onmicrosoft.com"


def test_a_comment_in_the_name_id_fools_only_a_careless_parser(session, server, saml_app):
    valid, response, xml = tampered(session, server, saml_app, "saml-comment-nameid")
    assert b">alice@contoso<!---->.onmicrosoft.com</NameID>" in xml
    # The signature (exclusive c14n without comments) still verifies; python3-saml drops comments before reading,
    # so it reads Alice's whole name: not fooled.
    assert valid, response.get_error()
    assert response.get_nameid() == ALICE
    # A parser that keeps comments and reads the text before the first child reads the truncated name.
    careless = etree.fromstring(xml).find("saml:Assertion/saml:Subject/saml:NameID", NS)
    assert careless.text == "alice@contoso"


def test_saml_and_jwt_defects_are_not_mixed_up(session, server):
    for body, problem in (({"tamper": "saml-unsigned", "token": "id"}, "applies to SAML Responses only"),
                          ({"tamper": "expired", "token": "saml"}, "is a JWT defect"),
                          ({"tamper": "saml-typo", "token": "saml"}, "saml-comment-nameid")):
        refused = session.post(server.url("/_mockidp/faults"), json=body)
        assert refused.status_code == 400 and problem in refused.text, refused.text


def inspected_app(session, server, saml_app):
    tenant = next(t for t in session.get(server.url("/_mockidp/inspection")).json()["tenants"] if t["id"] == CONTOSO)
    return next(a for a in tenant["apps"] if a["clientId"] == saml_app)["saml"]


def test_the_inspector_shows_the_app_and_its_last_response_as_sent(session, server, saml_app):
    valid, _, xml = tampered(session, server, saml_app, None)
    assert valid
    shown = inspected_app(session, server, saml_app)
    assert shown["entityId"] == "https://sts.windows.net/%s/" % CONTOSO
    assert shown["metadataUrl"] == server.url("/%s/federationmetadata/2007-06/federationmetadata.xml?appid=%s" % (CONTOSO, saml_app))
    assert session.get(shown["metadataUrl"]).content.startswith(b"\xef\xbb\xbf<")
    assert shown["idpInitiatedUrl"] == server.url("/%s/saml2?appid=%s" % (CONTOSO, saml_app))
    signing = [c for c in shown["certificates"] if c["signing"]]
    assert len(signing) == 1 and len(signing[0]["thumbprint"]) == 40
    last = shown["lastResponse"]
    assert last["xml"].encode() == xml and last["destination"] == SP_ACS and last["defect"] is None

    # A tampered Response is kept as sent, with its defect named (a new browser: no session to sign in with).
    session.cookies.clear()
    _, _, xml = tampered(session, server, saml_app, "saml-wrong-audience")
    last = inspected_app(session, server, saml_app)["lastResponse"]
    assert last["xml"].encode() == xml and last["defect"] == "saml-wrong-audience"

    # Reset forgets it; apps without `saml` show none of this.
    assert session.post(server.url("/_mockidp/reset")).status_code == 200
    restored = session.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                            json={"clientId": SP_APP, "name": "Contoso SAML SP", "identifierUris": [SP_ENTITY],
                                  "redirectUris": [SP_ACS], "saml": {"attributes": {"department": "department"}}})
    assert restored.status_code == 201
    assert inspected_app(session, server, saml_app)["lastResponse"] is None
    tenant = next(t for t in session.get(server.url("/_mockidp/inspection")).json()["tenants"] if t["id"] == CONTOSO)
    assert all(a["saml"] is None for a in tenant["apps"] if a["clientId"] != saml_app)


SLO_APP = "5e2d7c1f-0b4a-4f8e-9d6c-1a2b3c4d5e6f"
SLO_ENTITY = "https://slo-sp.example.test/saml/metadata"
SP_SLS = "https://sp.example.test/saml/sls"
REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"


@pytest.fixture(scope="module")
def slo_app(server):
    import requests
    s = requests.Session()
    s.verify = server.ca
    added = s.post(server.url("/_mockidp/tenants/%s/apps" % CONTOSO),
                   json={"clientId": SLO_APP, "identifierUris": [SLO_ENTITY], "redirectUris": [SP_ACS],
                         "saml": {"logoutUrl": SP_SLS}})
    assert added.status_code == 201, added.text
    return SLO_APP


def slo_settings(idp, entity=SLO_ENTITY, issuer=None):
    """python3-saml strict, wanting signed logout messages, the IdP certificate from the app's metadata; `issuer`
    replaces the metadata's entity ID, which python3-saml also expects as the LogoutResponse's Issuer."""
    settings = sp_settings(idp, entity=entity)
    settings["idp"] = dict(settings["idp"], entityId=issuer or settings["idp"]["entityId"])
    settings["sp"]["singleLogoutService"] = {"url": SP_SLS, "binding": REDIRECT}
    settings["security"].update(wantMessagesSigned=True)
    return settings


def sls_request(location):
    """The service provider's view of the redirect to its single logout service: the query as sent and decoded."""
    query = urlparse(location).query
    return {"https": "on", "http_host": "sp.example.test", "script_name": "/saml/sls", "post_data": {},
            "get_data": dict(parse_qsl(query, keep_blank_values=True)), "query_string": query,
            "validate_signature_from_qs": True}


def test_single_logout_ends_the_session_and_python3_saml_accepts_the_logout_response(session, server, slo_app):
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, slo_app))
    assert idp["idp"]["singleLogoutService"]["url"] == server.url("/%s/saml2" % CONTOSO)
    # Alice signs in to the service provider.
    auth = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp, entity=SLO_ENTITY))
    login = auth.login()
    request_id = auth.get_last_request_id()
    _, fields = sign_in(session, login)
    signed_in = OneLogin_Saml2_Auth(sp_request("/saml/acs", fields), sp_settings(idp, entity=SLO_ENTITY))
    signed_in.process_response(request_id=request_id)
    assert signed_in.is_authenticated(), signed_in.get_last_error_reason()
    old_session = session.cookies.get("mockidp_session")
    assert old_session

    # The service provider's LogoutRequest, with the browser's session cookie: a redirect to its logout service.
    issuer = "https://login.microsoftonline.com/%s/" % CONTOSO
    sp = OneLogin_Saml2_Auth(sp_request("/saml/logout"), slo_settings(idp, issuer=issuer))
    logout = sp.logout(return_to="after-logout", name_id=signed_in.get_nameid(),
                       session_index=signed_in.get_session_index(), name_id_format=signed_in.get_nameid_format())
    logout_id = sp.get_last_request_id()
    answer = session.get(logout, allow_redirects=False)
    assert answer.status_code == 302, answer.text
    location = answer.headers["Location"]
    assert location.startswith(SP_SLS + "?SAMLResponse=")
    assert "mockidp_session" not in session.cookies, "the session cookie is cleared"
    request = sls_request(location)
    assert request["get_data"]["RelayState"] == "after-logout"
    assert request["get_data"]["SigAlg"] == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"

    # python3-saml (strict, signed messages wanted) accepts it: the query signature verifies with the certificate
    # from the metadata, InResponseTo is its request's, Destination its logout service.
    sls = OneLogin_Saml2_Auth(request, slo_settings(idp, issuer=issuer))
    ended = []
    sls.process_slo(request_id=logout_id, delete_session_cb=lambda: ended.append(True))
    assert sls.get_errors() == [], sls.get_last_error_reason()
    assert ended == [True]
    root = etree.fromstring(sls.get_last_response_xml())
    assert etree.QName(root).localname == "LogoutResponse" and root.get("InResponseTo") == logout_id
    assert root.get("ID").startswith("_") and root.get("Destination") == SP_SLS
    assert root.find("saml:Issuer", NS).text == issuer
    # Entra's LogoutResponse Issuer is not the metadata's entity ID: python3-saml, strict and configured from the
    # metadata alone, says so.
    from_metadata = OneLogin_Saml2_Auth(sls_request(location), slo_settings(idp))
    from_metadata.process_slo(request_id=logout_id)
    assert "invalid_logout_response" in from_metadata.get_errors()
    response = OneLogin_Saml2_Logout_Response(OneLogin_Saml2_Settings(slo_settings(idp)), request["get_data"]["SAMLResponse"])
    assert not response.is_valid(sls_request(location), logout_id)
    assert "Invalid issuer in the Logout Response" in response.get_error()

    # The session is over on the server: even its old cookie brings the sign-in page again.
    again = OneLogin_Saml2_Auth(sp_request("/saml/login"), sp_settings(idp, entity=SLO_ENTITY))
    page = session.get(again.login(), headers={"Cookie": "mockidp_session=%s" % old_session})
    assert page.status_code == 200
    assert any(("mockidp_action", "signin") in f["fields"] for f in forms(page.text)), page.text[:300]
    assert "SAMLResponse" not in page.text


def test_python3_saml_refuses_a_logout_response_with_a_tampered_signature(session, server, slo_app):
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, slo_app))
    issuer = "https://login.microsoftonline.com/%s/" % CONTOSO
    sp = OneLogin_Saml2_Auth(sp_request("/saml/logout"), slo_settings(idp, issuer=issuer))
    logout = sp.logout(name_id=ALICE)
    answer = session.get(logout, allow_redirects=False)
    assert answer.status_code == 302, answer.text
    location = answer.headers["Location"]
    # Untouched, it is accepted; with one bit of the signature flipped, refused.
    clean = OneLogin_Saml2_Auth(sls_request(location), slo_settings(idp, issuer=issuer))
    clean.process_slo(request_id=sp.get_last_request_id())
    assert clean.get_errors() == [], clean.get_last_error_reason()
    request = sls_request(location)
    signature = bytearray(base64.b64decode(request["get_data"]["Signature"]))
    signature[10] ^= 0x01
    flipped = base64.b64encode(bytes(signature)).decode()
    request["get_data"]["Signature"] = flipped
    request["query_string"] = request["query_string"].split("&Signature=")[0] + "&" + urlencode({"Signature": flipped})
    forged = OneLogin_Saml2_Auth(request, slo_settings(idp, issuer=issuer))
    forged.process_slo(request_id=sp.get_last_request_id())
    assert "invalid_logout_response_signature" in forged.get_errors()


def test_single_logout_refusals_on_the_error_page(session, server, saml_app, slo_app):
    # A LogoutRequest from a service provider the tenant does not know.
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, slo_app))
    unknown = OneLogin_Saml2_Auth(sp_request("/saml/logout"), slo_settings(idp, entity="https://unknown.example.test/sp"))
    page = session.get(unknown.logout(name_id=ALICE), allow_redirects=False)
    assert page.status_code == 400 and "AADSTS700016" in page.text and "SAMLResponse" not in page.text
    # An app without logoutUrl: nowhere to answer.
    idp = OneLogin_Saml2_IdPMetadataParser.parse(metadata(session, server, saml_app))
    no_logout_url = OneLogin_Saml2_Auth(sp_request("/saml/logout"), slo_settings(idp, entity=SP_ENTITY))
    page = session.get(no_logout_url.logout(name_id=ALICE), allow_redirects=False)
    assert page.status_code == 400 and "AADSTS500113" in page.text and "SAMLResponse" not in page.text
