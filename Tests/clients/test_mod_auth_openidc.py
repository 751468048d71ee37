"""Apache's mod_auth_openidc (Debian's `libapache2-mod-auth-openidc`, unchanged) as a relying party in front of a
static page, configured as its Microsoft Entra ID guide configures it (OIDCProviderMetadataURL at the tenant's v2.0
document, client ID and secret, OIDCRedirectURI, `Require valid-user`). A browser without JavaScript (requests and the
HTML form helpers) asks for the page, signs in on mockidp's page, and gets the page; the module redeemed the code,
validated the ID token and called UserInfo over TLS trusting only mockidp's CA."""
import json
import os
import shutil
from urllib.parse import urlparse

import pytest
from apache import installed, running
from conftest import own_session
from northwind import NINA, NINA_EMAIL, NINA_PASSWORD, NORTHWIND, PORTAL, PORTAL_SECRET, northwind  # noqa: F401
from test_signin import submit_sign_in

PAGE = "<html><body><h1>Northwind intranet</h1></body></html>\n"

pytestmark = pytest.mark.skipif(not installed("auth_openidc"),
                                reason="apache2 and libapache2-mod-auth-openidc are not installed (scripts/setup installs them)")


@pytest.fixture(scope="module")
def apache(northwind):
    def files(root, site):
        shutil.copyfile(northwind.ca, os.path.join(root, "ca.pem"))
        return {"htdocs/secure/index.html": PAGE}

    def config(root, site):
        return f"""LogLevel warn auth_openidc:info
OIDCProviderMetadataURL {northwind.url("/%s/v2.0/.well-known/openid-configuration" % NORTHWIND)}
OIDCClientID {PORTAL}
OIDCClientSecret {PORTAL_SECRET}
OIDCRedirectURI {site}/secure/redirect_uri
OIDCCryptoPassphrase mockidp-test-passphrase
OIDCScope "openid email profile"
OIDCRemoteUserClaim preferred_username
OIDCCABundlePath {root}/ca.pem
OIDCInfoHook id_token userinfo session
<Location /secure>
    AuthType openid-connect
    Require valid-user
</Location>
"""
    with running(["auth_openidc"], config, files) as server:
        yield server.site, server.root


def test_static_page_behind_mod_auth_openidc(northwind, apache):
    site, root = apache
    b = own_session(northwind)
    first = b.get(site + "/secure/index.html", allow_redirects=False)
    assert first.status_code == 302, (first.status_code, first.text[:300], open(os.path.join(root, "error.log")).read())
    authorize = urlparse(first.headers["Location"])
    assert authorize.path == "/%s/oauth2/v2.0/authorize" % NORTHWIND
    page = b.get(first.headers["Location"])
    back = submit_sign_in(b, northwind, page, NINA, NINA_PASSWORD)
    assert back.status_code == 302 and back.headers["Location"].startswith(site + "/secure/redirect_uri?"), back.headers
    done = b.get(back.headers["Location"])
    assert done.status_code == 200 and done.text == PAGE, (done.status_code, done.text[:300],
                                                           open(os.path.join(root, "error.log")).read()[-3000:])
    # The module's own record of the session: the validated ID token, UserInfo, and REMOTE_USER.
    info = json.loads(b.get(site + "/secure/redirect_uri?info=json").text)
    assert info["id_token"]["iss"] == northwind.url("/%s/v2.0" % NORTHWIND) and info["id_token"]["aud"] == PORTAL
    assert info["id_token"]["preferred_username"] == NINA
    assert info["userinfo"]["sub"] == info["id_token"]["sub"] and info["userinfo"]["email"] == NINA_EMAIL
    # REMOTE_USER from OIDCRemoteUserClaim (the session's "r" in this module version's session dump).
    assert info["session"]["state"]["r"] == NINA
    log = northwind.log()
    assert "POST /%s/oauth2/v2.0/token 200" % NORTHWIND in log and "/oidc/userinfo 200" in log, log[-2000:]
