"""social-auth-core's Azure AD backends, unchanged, as a Django or Flask site runs them (python-social-auth's
"Microsoft Azure Active Directory" page): the v1 backend with `resource`, the v2 backend, the tenant backends, and
the B2C backend on a user flow. Each builds its authorize URL (`auth_url`), the user signs in on mockidp's page (the
same HTML form helpers as the other client tests), and `auth_complete` redeems the code, validates the ID token
against the discovered issuer and key set (the backends check `iss`, `aud`, the signing key's `issuer`, `tid`, the
B2C policy) and runs the pipeline's own detail and uid steps."""
from urllib.parse import parse_qs, urlparse

import jwt
import pytest
from social_core.backends.azuread import AzureADOAuth2, AzureADOAuth2V2
from social_core.backends.azuread_b2c import AzureADB2COAuth2
from social_core.backends.azuread_tenant import AzureADTenantOAuth2, AzureADV2TenantOAuth2
from social_core.exceptions import AuthResponseError
from social_core.storage import BaseStorage, NonceMixin
from social_core.strategy import BaseStrategy
from social_core.utils import setting_name

from conftest import own_session, serving
from northwind import NINA, NINA_EMAIL, NINA_NAME, NINA_PASSWORD, NORTHWIND, PORTAL, PORTAL_SECRET, TAILSPIN, northwind  # noqa: F401
from test_b2c import CONFIG as B2C_CONFIG, FRANK, FRANK_OID, FRANK_PASSWORD, SUSI, TENANT as B2C_TENANT, WEB as B2C_WEB
from test_b2c import WEB_SECRET as B2C_WEB_SECRET
from test_signin import redirect_query, submit_sign_in

SITE = "https://portal.northwind.example"


class Captured:
    """What the pipeline had when it reached the site's own step: the backend's details, uid and extra data."""

    def __init__(self, backend, details, uid, response, pipeline_kwargs):
        self.details = details
        self.uid = uid
        self.response = response
        self.extra_data = backend.extra_data(None, uid, response, details, pipeline_kwargs)


def capture(backend, details, uid, response, *args, **kwargs):
    """The site's last pipeline step: returning something that is not a dict ends the pipeline with it."""
    return Captured(backend, details, uid, response, kwargs)


PIPELINE = ["social_core.pipeline.social_auth.social_details", "social_core.pipeline.social_auth.social_uid",
            "test_social_auth.capture"]


class Nonces(NonceMixin):
    """The one-use state values the OAuth 2 backends keep between auth_url() and auth_complete()."""
    live = set()

    @classmethod
    def use(cls, server_url, timestamp, salt):
        key = (server_url, timestamp, salt)
        if key in cls.live:
            return False
        cls.live.add(key)
        return True

    @classmethod
    def consume(cls, server_url, timestamp, salt):
        key = (server_url, timestamp, salt)
        if key not in cls.live:
            return False
        cls.live.remove(key)
        return True


class Storage(BaseStorage):
    nonce = Nonces


class Strategy(BaseStrategy):
    """The smallest framework strategy: settings, a session dict and the callback's query as the request."""

    def __init__(self, settings):
        super().__init__(storage=Storage)
        self.settings = {setting_name("PIPELINE"): PIPELINE, **settings}
        self.session = {}
        self.request = {}

    def get_setting(self, name):
        return self.settings[name]

    def get_request_data(self, merge=True):
        return dict(self.request)

    def request_host(self):
        return urlparse(SITE).netloc

    def session_get(self, name, default=None):
        return self.session.get(name, default)

    def session_set(self, name, value):
        self.session[name] = value

    def session_pop(self, name):
        return self.session.pop(name, None)

    def build_absolute_uri(self, path=None):
        return path if path and "://" in path else SITE + (path or "/")

    def request_is_secure(self):
        return True

    def redirect(self, url):
        return url

    def html(self, content):
        return content


def make_backend(cls, server, **settings):
    prefix = "SOCIAL_AUTH_" + cls.name.upper().replace("-", "_") + "_"
    values = {"AUTHORITY_HOST": urlparse(server.base_url).netloc, "VERIFY_SSL": server.ca, **settings}
    strategy = Strategy({prefix + k: v for k, v in values.items()})
    return cls(strategy, redirect_uri="%s/complete/%s/" % (SITE, cls.name))


def sign_in(server, backend, username, password):
    """The user follows `auth_url()` to mockidp's sign-in page and back: the callback's query becomes the request."""
    url = backend.auth_url()
    b = own_session(server)
    page = b.get(url)
    assert page.status_code == 200, (page.status_code, page.text[:300])
    location, query = redirect_query(submit_sign_in(b, server, page, username, password))
    assert "%s://%s%s" % (location.scheme, location.netloc, location.path) == backend.get_redirect_uri(), location
    assert "error" not in query, query
    backend.strategy.request = query
    backend.data = backend.strategy.request_data()  # what a framework's callback view hands the backend
    return url


@pytest.fixture(scope="module")
def b2c():
    with serving(B2C_CONFIG) as s:
        yield s


def test_v1_backend_with_resource_signs_in_through_common(northwind):
    backend = make_backend(AzureADOAuth2, northwind, KEY=PORTAL, SECRET=PORTAL_SECRET, RESOURCE="api://northwind-api")
    url = sign_in(northwind, backend, NINA, NINA_PASSWORD)
    query = parse_qs(urlparse(url).query)
    assert urlparse(url).path == "/common/oauth2/authorize" and query["resource"] == ["api://northwind-api"]
    assert query["scope"] == ["openid profile user_impersonation email"]
    result = backend.auth_complete()
    assert isinstance(result, Captured), result
    # The backend checked the v1 ID token: signed, `aud` its client ID, `iss` common's {tenantid} issuer made concrete.
    assert result.response["iss"] == "https://sts.windows.net/%s/" % NORTHWIND and result.response["aud"] == PORTAL
    # A v1 ID token has no `email` for a member: the backend falls back to `upn`, as against Entra.
    assert result.details == {"username": NINA_NAME, "email": NINA, "fullname": NINA_NAME,
                              "first_name": "Nina", "last_name": "Novak"}
    assert result.uid == result.response["sub"] and result.response["upn"] == NINA and "email" not in result.response
    data = result.extra_data
    assert data["tid"] == NORTHWIND and data["resource"] == "api://northwind-api" and data["refresh_token"]
    access = jwt.decode(data["access_token"], options={"verify_signature": False})
    assert access["aud"] == "api://northwind-api" and access["scp"] == "user_impersonation"
    # The site refreshes the stored token as the backend does (v1: refresh_token with resource).
    renewed = backend.refresh_token(data["refresh_token"])
    assert jwt.decode(renewed["access_token"], options={"verify_signature": False})["aud"] == "api://northwind-api"


def test_v2_backend_signs_in_through_common_and_checks_the_key_issuer(northwind):
    backend = make_backend(AzureADOAuth2V2, northwind, KEY=PORTAL, SECRET=PORTAL_SECRET)
    url = sign_in(northwind, backend, NINA, NINA_PASSWORD)
    assert urlparse(url).path == "/common/oauth2/v2.0/authorize"
    assert parse_qs(urlparse(url).query)["scope"] == ["User.Read profile openid email"]
    result = backend.auth_complete()
    assert isinstance(result, Captured), result
    assert result.response["iss"] == "%s/%s/v2.0" % (northwind.base_url, NORTHWIND) and result.response["tid"] == NORTHWIND
    assert result.details["email"] == NINA_EMAIL and result.details["fullname"] == NINA_NAME
    assert result.uid == result.response["sub"] and result.extra_data["oid"] == result.response["oid"]
    graph = jwt.decode(result.extra_data["access_token"], options={"verify_signature": False})
    assert graph["aud"] == "00000003-0000-0000-c000-000000000000" and "User.Read" in graph["scp"].split()


@pytest.mark.parametrize("cls", [AzureADTenantOAuth2, AzureADV2TenantOAuth2])
def test_tenant_backends_use_appid_discovery_and_refuse_another_tenant(northwind, cls):
    backend = make_backend(cls, northwind, KEY=PORTAL, SECRET=PORTAL_SECRET, TENANT_ID=NORTHWIND)
    url = sign_in(northwind, backend, NINA, NINA_PASSWORD)
    assert urlparse(url).path.startswith("/%s/oauth2/" % NORTHWIND)
    result = backend.auth_complete()
    assert isinstance(result, Captured), result
    assert result.response["tid"] == NORTHWIND and result.uid == result.response["sub"]
    if cls is AzureADV2TenantOAuth2:
        assert result.details["email"] == NINA and result.extra_data["refresh_token"]
    # The discovery documents the backends read carry ?appid= into jwks_uri (the key set is the tenant's).
    config = backend.openid_configuration()
    assert config["jwks_uri"].endswith("?appid=" + PORTAL), config["jwks_uri"]
    # A site configured for another tenant refuses Northwind's token: by `tid` (v1), or already by the v2 signing
    # key's `issuer`, which names the other tenant.
    other = make_backend(cls, northwind, KEY=PORTAL, SECRET=PORTAL_SECRET, TENANT_ID=TAILSPIN)
    with pytest.raises(AuthResponseError) as refused:
        other.validate_and_return_id_token(result.extra_data["id_token"])
    assert refused.value.code == "invalid_claim" and refused.value.claim in ("tid", None)


def test_b2c_backend_on_a_user_flow(b2c):
    backend = make_backend(AzureADB2COAuth2, b2c, KEY=B2C_WEB, SECRET=B2C_WEB_SECRET, TENANT_NAME="fabrikamb2c",
                           POLICY=SUSI)
    backend.redirect_uri = "https://app.fabrikam.com/signin-oidc"
    url = sign_in(b2c, backend, FRANK, FRANK_PASSWORD)
    assert urlparse(url).path == "/fabrikamb2c.onmicrosoft.com/oauth2/v2.0/authorize"
    assert parse_qs(urlparse(url).query)["p"] == [SUSI]
    result = backend.auth_complete()
    assert isinstance(result, Captured), result
    # scope=openid email: B2C's ID-token-only response, which the backend takes as its access token.
    response = result.response
    assert response["access_token"] == response["id_token"] and "expires_in" not in response, response.keys()
    assert response["id_token_expires_in"] == 3600 and response["profile_info"]
    assert response["iss"] == "%s/%s/v2.0/" % (b2c.base_url, B2C_TENANT) and response["tfp"] == SUSI and "tid" not in response
    assert result.uid == FRANK_OID
    assert result.details == {"username": "Frank Fischer", "email": FRANK, "fullname": "Frank Fischer",
                              "first_name": "Frank", "last_name": "Fischer"}
    assert result.extra_data["policy"] == SUSI and result.extra_data["expires"] == 3600
    # The ID token of another policy is refused by a site configured for this one.
    reset = make_backend(AzureADB2COAuth2, b2c, KEY=B2C_WEB, SECRET=B2C_WEB_SECRET, TENANT_NAME="fabrikamb2c",
                         POLICY="B2C_1_passwordreset")
    with pytest.raises(AuthResponseError) as refused:
        reset.validate_and_return_id_token(response["id_token"])
    assert refused.value.code == "invalid_claim"
