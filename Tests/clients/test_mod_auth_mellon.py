"""Apache's mod_auth_mellon (Debian's `libapache2-mod-auth-mellon`, unchanged) as a SAML service provider in front of
a page that prints the request's environment (docs/saml.md, "Service providers"): its SP key, certificate and metadata
made by `mellon_create_metadata`, `MellonIdPMetadataFile` the app's federation metadata (`?appid=`), and the app set
to require signed requests with mellon's certificate. A browser without JavaScript (requests and the HTML form
helpers) asks for the page, signs in on mockidp's page, submits the auto-posting form to mellon, and gets the page
with the user's attributes; IdP-initiated sign-on, certificate rotation, and mellon's refusal of each tamper defect
(docs/saml.md, "Tamper defects")."""
import re
import subprocess
from urllib.parse import parse_qs, urlencode, urlparse, urlunparse

import pytest
import requests
from apache import MODULES, installed, running
from conftest import ALICE, ALICE_OID, CONTOSO, own_session
from html_forms import forms
from test_saml import DEFECTS, add_saml_app, app_metadata_url, sign_in, tamper_next

MELLON_APP = "1b7e3f2a-6c4d-4a8e-9f0b-2d3c4e5f6a7b"
ALICE_MAIL = "alice@contoso.com"
PAGE = "<html><body><h1>Contoso intranet</h1><pre><!--#printenv --></pre></body></html>\n"
EMAIL = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"
OID = "http://schemas.microsoft.com/identity/claims/objectidentifier"
TENANT = "http://schemas.microsoft.com/identity/claims/tenantid"

pytestmark = pytest.mark.skipif(not installed("auth_mellon"),
                                reason="apache2 and libapache2-mod-auth-mellon are not installed (scripts/setup installs them)")


def app_metadata(server):
    response = requests.get(app_metadata_url(server, MELLON_APP), verify=server.ca)
    assert response.status_code == 200, response.text
    return response.text


@pytest.fixture(scope="module")
def mellon(server):
    def config(root, site):
        return f"""LoadModule include_module {MODULES}/mod_include.so
LogLevel notice auth_mellon:info
<Directory {root}/htdocs/secure>
    Options +Includes
    AddOutputFilter INCLUDES .shtml
</Directory>
<Location />
    MellonEndpointPath /mellon
    MellonSPPrivateKeyFile {root}/{prefix(site)}.key
    MellonSPCertFile {root}/{prefix(site)}.cert
    MellonSPMetadataFile {root}/{prefix(site)}.xml
    MellonIdPMetadataFile {root}/idp-metadata.xml
    MellonSetEnv email {EMAIL}
    MellonSetEnv oid {OID}
    MellonSetEnv tenant {TENANT}
</Location>
<Location /secure>
    AuthType Mellon
    MellonEnable auth
    Require valid-user
</Location>
"""

    def setup(root, site):
        made = subprocess.run(["mellon_create_metadata", site + "/mellon/metadata", site + "/mellon"], cwd=root,
                              capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        entity = site + "/mellon/metadata"
        cert = "%s/%s.cert" % (root, prefix(site))
        add_saml_app(server, MELLON_APP, "Contoso mellon", entity, site + "/mellon/postResponse",
                     {"requireSignedRequests": True, "nameIdFormat": "emailAddress", "logoutUrl": site + "/mellon/logout"},
                     certificates=[cert])
        return {"htdocs/secure/index.shtml": PAGE, "idp-metadata.xml": app_metadata(server)}

    with running(["auth_mellon"], config, setup) as apache:
        yield apache


def prefix(site):
    """The file name mellon_create_metadata gives the entity ID's key, certificate and metadata."""
    return re.sub("_+", "_", re.sub("[^0-9A-Za-z.]", "_", site + "/mellon/metadata"))


@pytest.fixture(scope="module")
def browser(server, mellon):
    """A browser already signed in to mockidp (Alice), so that each test's sign-on needs no password."""
    b = own_session(server)
    first = b.get(mellon.site + "/secure/index.shtml", allow_redirects=False)
    assert first.status_code in (302, 303), (first.status_code, first.text[:300], mellon.error_log()[-3000:])
    action, fields = sign_in(b, first.headers["Location"])
    assert action == mellon.site + "/mellon/postResponse"
    done = b.post(action, data=fields)
    assert done.status_code == 200, (done.status_code, done.text[:500], mellon.error_log()[-3000:])
    return b


def forget_mellon(b):
    """Drops mellon's session cookie, keeping mockidp's."""
    for cookie in [c for c in b.cookies if c.name == "mellon-cookie"]:
        b.cookies.clear(cookie.domain, cookie.path, cookie.name)


def fresh_sign_on(b, mellon):
    """Forgets mellon's session, asks for the page, and returns the auto-posting form's action and fields (mockidp's
    session signs Alice in without a page)."""
    forget_mellon(b)
    login = b.get(mellon.site + "/secure/index.shtml", allow_redirects=False)
    assert login.status_code in (302, 303), (login.status_code, login.text[:300])
    request = b.get(login.headers["Location"], allow_redirects=False)
    assert request.status_code in (302, 303), (request.status_code, request.text[:300])
    page = b.get(request.headers["Location"])
    assert page.status_code == 200, page.text[:500]
    answer = forms(page.text)[0]
    return request.headers["Location"], answer["action"], dict(answer["fields"])


def environment(page):
    return dict(line.split("=", 1) for line in page.split("<pre>", 1)[1].split("</pre>", 1)[0].splitlines() if "=" in line)


def test_mellon_signs_alice_in_with_her_attributes(browser, mellon):
    page = browser.get(mellon.site + "/secure/index.shtml")
    assert page.status_code == 200 and "Contoso intranet" in page.text, page.text[:500]
    env = environment(page.text)
    assert env["REMOTE_USER"] == ALICE and env["MELLON_NAME_ID"] == ALICE, sorted(env.items())
    assert env["MELLON_email"] == ALICE_MAIL and env["MELLON_oid"] == ALICE_OID and env["MELLON_tenant"] == CONTOSO, env


def test_mellon_signs_its_requests_and_mockidp_requires_it(browser, mellon, server):
    login, _, _ = fresh_sign_on(browser, mellon)
    query = parse_qs(urlparse(login).query)
    assert query["SigAlg"] and query["Signature"], login
    unsigned = urlunparse(urlparse(login)._replace(query=urlencode({"SAMLRequest": query["SAMLRequest"][0]})))
    refused = browser.get(unsigned)
    assert refused.status_code == 400 and "AADSTS75005" in refused.text, refused.text[:500]


def test_idp_initiated_sign_on(browser, mellon, server):
    forget_mellon(browser)
    page = browser.get(server.url("/%s/saml2" % CONTOSO), params={"appid": MELLON_APP,
                                                                "RelayState": mellon.site + "/secure/index.shtml"})
    assert page.status_code == 200, page.text[:500]
    answer = forms(page.text)[0]
    assert answer["action"] == mellon.site + "/mellon/postResponse"
    done = browser.post(answer["action"], data=dict(answer["fields"]))
    assert done.status_code == 200 and done.url == mellon.site + "/secure/index.shtml", (done.status_code, done.url,
                                                                                       mellon.error_log()[-2000:])
    assert environment(done.text)["MELLON_NAME_ID"] == ALICE


# What mellon does with each defect, as measured: it refuses all but two. It does not match InResponseTo to the
# requests it sent (it takes IdP-initiated Responses too), so an InResponseTo of no request of its own passes; and it
# reads the whole NameID text across the comment, so it is not fooled by saml-comment-nameid.
ACCEPTED = {"saml-wrong-inresponseto", "saml-comment-nameid"}


@pytest.mark.parametrize("defect", DEFECTS)
def test_mellon_refuses_each_tamper_defect(browser, mellon, server, defect):
    tamper_next(server, MELLON_APP, defect)
    _, action, fields = fresh_sign_on(browser, mellon)
    posted = browser.post(action, data=fields, allow_redirects=False)
    after = browser.get(mellon.site + "/secure/index.shtml", allow_redirects=False)
    if defect in ACCEPTED:
        assert posted.status_code == 303 and after.status_code == 200, (posted.status_code, after.status_code)
        assert environment(after.text)["MELLON_NAME_ID"] == ALICE
    else:
        # An error status, no session: the page still sends the browser to sign in.
        assert posted.status_code == 400 and after.status_code in (302, 303), (posted.status_code, after.status_code)


def test_mellon_with_both_certificates_after_rotation(browser, mellon, server):
    before = app_metadata(server)
    rotated = requests.post(server.url("/_mockidp/tenants/%s/apps/%s/saml/rotate" % (CONTOSO, MELLON_APP)),
                            verify=server.ca)
    assert rotated.status_code == 200, rotated.text
    # The old metadata alone no longer verifies the new certificate's signatures.
    _, action, fields = fresh_sign_on(browser, mellon)
    assert browser.post(action, data=fields, allow_redirects=False).status_code == 400
    after = app_metadata(server)
    # Both certificates in the IDPSSODescriptor (and the RoleDescriptor), beside the signature's own.
    assert after.count("<X509Certificate>") == before.count("<X509Certificate>") + 2
    with open(mellon.path("idp-metadata.xml"), "w") as f:
        f.write(after)
    mellon.reload()
    _, action, fields = fresh_sign_on(browser, mellon)
    assert browser.post(action, data=fields, allow_redirects=False).status_code == 303, mellon.error_log()[-2000:]
    page = browser.get(mellon.site + "/secure/index.shtml", allow_redirects=False)
    assert page.status_code == 200 and environment(page.text)["MELLON_NAME_ID"] == ALICE


def test_single_logout_from_mellon(server, mellon):
    """mellon's /mellon/logout sends a signed LogoutRequest over HTTP-Redirect; mockidp ends its session and answers
    a signed LogoutResponse to the app's logoutUrl. Its Issuer is Entra's logout issuer,
    `https://login.microsoftonline.com/{tid}/`, not the metadata's entity ID (docs/saml.md, "Single logout"), and
    mellon (Lasso) finds no provider of that name: it refuses the LogoutResponse, as it does Entra's."""
    b = own_session(server)
    first = b.get(mellon.site + "/secure/index.shtml", allow_redirects=False)
    action, fields = sign_in(b, first.headers["Location"])
    assert b.post(action, data=fields).status_code == 200
    out = b.get(mellon.site + "/mellon/logout", params={"ReturnTo": mellon.site + "/done"}, allow_redirects=False)
    assert out.status_code in (302, 303), (out.status_code, out.text[:300], mellon.error_log()[-2000:])
    request = urlparse(out.headers["Location"])
    assert request.path == "/%s/saml2" % CONTOSO and "Signature" in parse_qs(request.query), out.headers["Location"]
    answer = b.get(out.headers["Location"], allow_redirects=False)
    assert answer.status_code == 302, (answer.status_code, answer.text[:500])
    assert answer.headers["Location"].startswith(mellon.site + "/mellon/logout?SAMLResponse="), answer.headers["Location"]
    back = b.get(answer.headers["Location"], allow_redirects=False)
    assert back.status_code == 400, (back.status_code, mellon.error_log()[-1500:].splitlines())
    assert "Lasso error: [-201] The identifier of a provider is unknown" in mellon.error_log()
    # mockidp's session ended: signing in to the app again shows mockidp's sign-in page.
    forget_mellon(b)
    again = b.get(mellon.site + "/secure/index.shtml", allow_redirects=False)
    page = b.get(again.headers["Location"])
    assert any(("mockidp_action", "signin") in f["fields"] for f in forms(page.text)), page.text[:500]
