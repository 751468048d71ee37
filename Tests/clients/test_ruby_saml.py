"""ruby-saml (Debian's `ruby-saml`, OneLogin::RubySaml, unchanged) as a SAML service provider (docs/saml.md, "Service
providers"): Tests/clients/saml_sps/ruby_saml_sp.rb, configured from the app's federation metadata URL
(`IdpMetadataParser#parse_remote`, over TLS trusting mockidp's CA), makes the AuthnRequest; Alice signs in on mockidp's
page; `OneLogin::RubySaml::Response` validates the posted Response: her NameID and attributes; and which tamper defects
(docs/saml.md, "Tamper defects") it refuses. One Ruby process serves the whole module."""
import json
import os
import shutil
import subprocess

import pytest
from conftest import ALICE, ALICE_OID, CONTOSO, own_session
from test_saml import add_saml_app, app_metadata_url, sign_in, tamper_next

RUBY = shutil.which("ruby")
SCRIPT = os.path.join(os.path.dirname(__file__), "saml_sps", "ruby_saml_sp.rb")


def ruby_saml_installed():
    return bool(RUBY) and subprocess.run([RUBY, "-e", "require 'onelogin/ruby-saml'"], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not ruby_saml_installed(),
                                reason="ruby and ruby-saml are not installed (scripts/setup installs Debian's ruby-saml)")

RUBY_APP = "3d9a5b4c-8e6f-4c0a-9b2d-4f5a6b7c8d9e"
ENTITY = "https://ruby-saml.example.test/saml/metadata"
ACS = "https://ruby-saml.example.test/saml/acs"


class RubySP:
    def __init__(self, process):
        self.process = process
        self.ready = self.read()

    def read(self):
        line = self.process.stdout.readline()
        assert line, "ruby_saml_sp.rb ended: %s" % self.process.stderr.read()
        return json.loads(line)

    def ask(self, **command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self.read()


@pytest.fixture(scope="module")
def sp(server):
    add_saml_app(server, RUBY_APP, "Contoso ruby-saml", ENTITY, ACS)
    url = app_metadata_url(server, RUBY_APP)
    env = dict(os.environ, SSL_CERT_FILE=server.ca)
    process = subprocess.Popen([RUBY, SCRIPT, url, ENTITY, ACS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        yield RubySP(process)
    finally:
        process.stdin.close()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(server):
    return own_session(server)


def sign_on(sp, browser):
    login = sp.ask(**{"do": "login", "relay_state": "/after"})
    action, fields = sign_in(browser, login["url"])
    assert action == ACS and fields["RelayState"] == "/after"
    return sp.ask(**{"do": "response", "SAMLResponse": fields["SAMLResponse"], "request_id": login["id"]})


def test_ruby_saml_signs_alice_in(sp, browser):
    assert sp.ready["idp_entity_id"] == "https://sts.windows.net/%s/" % CONTOSO
    answer = sign_on(sp, browser)
    assert answer["valid"], answer["errors"]
    assert answer["nameid"] == ALICE
    attributes = answer["attributes"]
    assert attributes["http://schemas.microsoft.com/identity/claims/objectidentifier"] == [ALICE_OID]
    assert attributes["http://schemas.microsoft.com/identity/claims/tenantid"] == [CONTOSO]
    assert attributes["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"] == [ALICE]


# The first error ruby-saml gives for each defect, as measured with Debian's 1.13.0-1+deb12u1. It refuses every one
# but saml-comment-nameid, and reads that NameID whole across the comment (the fix of CVE-2017-11428 reads the
# element's text nodes together): not fooled. saml-xsw is refused by ruby-saml's count of assertions, before any
# signature is looked at; so this defect does not reach the signature-reference code that CVE-2024-45409's fix (in
# this Debian package, by its changelog) changed.
REFUSED = {
    "saml-unsigned": "Found an unexpected number of Signature Element",
    "saml-bad-signature": "Invalid Signature on SAML Response",
    "saml-foreign-key": "Invalid Signature on SAML Response",
    "saml-wrong-issuer": "Doesn't match the issuer",
    "saml-wrong-audience": "Invalid Audience",
    "saml-wrong-recipient": "A valid SubjectConfirmation was not found",
    "saml-wrong-destination": "The response was received at https://destination.invalid/",
    "saml-wrong-inresponseto": "does not match the ID of the AuthNRequest sent by the SP",
    "saml-expired": "Current time is on or after NotOnOrAfter condition",
    "saml-not-yet-valid": "Current time is earlier than NotBefore condition",
    "saml-xsw": "SAML Response must contain 1 assertion",
}


@pytest.mark.parametrize("defect", sorted(REFUSED))
def test_ruby_saml_refuses_each_tamper_defect(sp, browser, server, defect):
    tamper_next(server, RUBY_APP, defect)
    answer = sign_on(sp, browser)
    assert not answer["valid"] and REFUSED[defect] in answer["errors"][0], answer


def test_ruby_saml_reads_the_whole_name_id_across_a_comment(sp, browser, server):
    tamper_next(server, RUBY_APP, "saml-comment-nameid")
    answer = sign_on(sp, browser)
    assert answer["valid"], answer["errors"]
    assert answer["nameid"] == ALICE

