"""Apache's mod_auth_openidc (Debian's `libapache2-mod-auth-openidc`, unchanged) as a relying party in front of a
static page, configured as its Microsoft Entra ID guide configures it (OIDCProviderMetadataURL at the tenant's v2.0
document, client ID and secret, OIDCRedirectURI, `Require valid-user`). A browser without JavaScript (requests and the
HTML form helpers) asks for the page, signs in on mockidp's page, and gets the page; the module redeemed the code,
validated the ID token and called UserInfo over TLS trusting only mockidp's CA."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from urllib.parse import urlparse

import pytest
from conftest import own_session
from northwind import NINA, NINA_EMAIL, NINA_PASSWORD, NORTHWIND, PORTAL, PORTAL_SECRET, northwind  # noqa: F401
from test_signin import submit_sign_in

APACHE = shutil.which("apache2") or "/usr/sbin/apache2"
MODULES = "/usr/lib/apache2/modules"
PAGE = "<html><body><h1>Northwind intranet</h1></body></html>\n"

pytestmark = pytest.mark.skipif(not (os.path.exists(APACHE) and os.path.exists(MODULES + "/mod_auth_openidc.so")),
                                reason="apache2 and libapache2-mod-auth-openidc are not installed (scripts/setup installs them)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def apache(northwind):
    root = tempfile.mkdtemp(prefix="mockidp-apache-")
    os.chmod(root, 0o755)
    os.makedirs(os.path.join(root, "htdocs", "secure"))
    with open(os.path.join(root, "htdocs", "secure", "index.html"), "w") as f:
        f.write(PAGE)
    ca = os.path.join(root, "ca.pem")
    shutil.copyfile(northwind.ca, ca)
    for dirpath, _, files in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in files:
            os.chmod(os.path.join(dirpath, name), 0o644)
    port = free_port()
    site = "http://127.0.0.1:%d" % port
    conf = os.path.join(root, "httpd.conf")
    modules = ["mpm_event", "authn_core", "authz_core", "authz_user", "mime", "auth_openidc"]
    with open(conf, "w") as f:
        f.write("".join("LoadModule %s_module %s/mod_%s.so\n" % (m, MODULES, m) for m in modules))
        f.write(f"""ServerName 127.0.0.1
Listen 127.0.0.1:{port}
User www-data
Group www-data
DefaultRuntimeDir {root}
PidFile {root}/httpd.pid
ErrorLog {root}/error.log
LogLevel warn auth_openidc:info
TypesConfig /etc/mime.types
DocumentRoot {root}/htdocs
<Directory {root}/htdocs>
    Require all granted
</Directory>

OIDCProviderMetadataURL {northwind.url("/%s/v2.0/.well-known/openid-configuration" % NORTHWIND)}
OIDCClientID {PORTAL}
OIDCClientSecret {PORTAL_SECRET}
OIDCRedirectURI {site}/secure/redirect_uri
OIDCCryptoPassphrase mockidp-test-passphrase
OIDCScope "openid email profile"
OIDCRemoteUserClaim preferred_username
OIDCCABundlePath {ca}
OIDCInfoHook id_token userinfo session
<Location /secure>
    AuthType openid-connect
    Require valid-user
</Location>
""")
    startup = open(os.path.join(root, "startup.log"), "w")
    process = subprocess.Popen([APACHE, "-f", conf, "-DFOREGROUND"], stdout=startup, stderr=subprocess.STDOUT)
    deadline = time.time() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.time() > deadline:
                process.kill()
                log = "".join(open(os.path.join(root, name)).read() for name in ("startup.log", "error.log")
                              if os.path.exists(os.path.join(root, name)))
                raise RuntimeError("apache2 did not start: %s" % log)
            time.sleep(0.1)
    yield site, root
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(root, ignore_errors=True)


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
