"""pysaml2 (PyPI `pysaml2`, unchanged) as a SAML service provider (docs/saml.md, "Service providers"): a
`Saml2Client` configured from the app's federation metadata URL (`?appid=`, fetched over TLS trusting mockidp's CA),
its AuthnRequest over the HTTP-Redirect binding, Alice's sign-in on mockidp's page, and `parse_authn_request_response`
of the posted Response: her NameID and attributes; and its refusal of each tamper defect (docs/saml.md, "Tamper
defects"). pysaml2 checks signatures with the xmlsec1 command."""
import shutil

import pytest
from conftest import ALICE, ALICE_OID, CONTOSO, own_session
from test_saml import add_saml_app, app_metadata_url, sign_in, tamper_next

saml2 = pytest.importorskip("saml2", reason="pysaml2 is not installed (Tests/clients/requirements.txt lists it)")
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT  # noqa: E402
from saml2.client import Saml2Client  # noqa: E402
from saml2.config import SPConfig  # noqa: E402

XMLSEC1 = shutil.which("xmlsec1")
pytestmark = pytest.mark.skipif(not XMLSEC1, reason="the xmlsec1 command is not installed (scripts/setup installs it)")

PYSAML2_APP = "2c8f4a3b-7d5e-4b9f-8a1c-3e4f5a6b7c8d"
ENTITY = "https://pysaml2.example.test/saml/metadata"
ACS = "https://pysaml2.example.test/saml/acs"


@pytest.fixture(scope="module")
def client(server):
    add_saml_app(server, PYSAML2_APP, "Contoso pysaml2", ENTITY, ACS)
    config = SPConfig()
    config.load({
        "entityid": ENTITY,
        "service": {"sp": {"endpoints": {"assertion_consumer_service": [(ACS, BINDING_HTTP_POST)]},
                           "want_assertions_signed": True, "want_response_signed": False,
                           "allow_unsolicited": False}},
        "allow_unknown_attributes": True,
        "metadata": {"remote": [{"url": app_metadata_url(server, PYSAML2_APP)}]},
        "xmlsec_binary": XMLSEC1,
        "ca_certs": server.ca,
    })
    return Saml2Client(config=config)


@pytest.fixture(scope="module")
def browser(server):
    return own_session(server)


def sign_on(client, browser):
    """An AuthnRequest over the Redirect binding, Alice's sign-on, and the posted Response: returns pysaml2's parse
    of it (the request it answers outstanding)."""
    request_id, info = client.prepare_for_authenticate(relay_state="/after", binding=BINDING_HTTP_REDIRECT)
    action, fields = sign_in(browser, dict(info["headers"])["Location"])
    assert action == ACS and fields["RelayState"] == "/after"
    return client.parse_authn_request_response(fields["SAMLResponse"], BINDING_HTTP_POST,
                                               outstanding={request_id: "/after"})


def test_pysaml2_signs_alice_in(client, browser):
    response = sign_on(client, browser)
    assert response is not None
    assert response.issuer() == "https://sts.windows.net/%s/" % CONTOSO
    assert response.name_id.text == ALICE
    assert response.name_id.format == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
    identity = response.get_identity()
    assert identity["http://schemas.microsoft.com/identity/claims/objectidentifier"] == [ALICE_OID]
    assert identity["http://schemas.microsoft.com/identity/claims/tenantid"] == [CONTOSO]
    # The attributes pysaml2 knows by their URI get its friendly names.
    assert identity["name"] == [ALICE] and identity["emailAddress"] == ["alice@contoso.com"]




# How pysaml2 refuses each defect, as measured: the exception parse_authn_request_response raises, or None for a
# Response it reads no assertion from (its Destination check logs "destination ... not in return addresses" and leaves
# the assertion unread). It accepts two: it checks the confirmation's Recipient only when the caller passes conv_info
# (parse_authn_request_response's default is none), and it reads the whole NameID text across the comment.
REFUSED = {
    "saml-unsigned": "Signature missing for assertion",
    "saml-bad-signature": "Failed to verify signature",
    "saml-foreign-key": "Failed to verify signature",
    "saml-wrong-issuer": "https://issuer.invalid/",  # MissingKey: no metadata for that issuer
    "saml-wrong-audience": "AudienceRestrictions conditions not satisfied",
    "saml-wrong-destination": None,
    "saml-wrong-inresponseto": "Unsolicited response",
    "saml-expired": "Can't use response, too old",
    "saml-not-yet-valid": "Can't use response yet",
    "saml-xsw": "Signature missing for assertion",
}
ACCEPTED = ["saml-wrong-recipient", "saml-comment-nameid"]


@pytest.mark.parametrize("defect", sorted(REFUSED) + ACCEPTED)
def test_pysaml2_refuses_each_tamper_defect(client, browser, server, defect):
    tamper_next(server, PYSAML2_APP, defect)
    if defect in ACCEPTED:
        response = sign_on(client, browser)
        assert response.name_id.text == ALICE and response.get_identity()["name"] == [ALICE]
    elif REFUSED[defect] is None:
        response = sign_on(client, browser)
        assert response.assertion is None and response.name_id is None
    else:
        with pytest.raises(Exception) as refused:
            sign_on(client, browser)
        assert REFUSED[defect] in str(refused.value), refused.value
