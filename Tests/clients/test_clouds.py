"""Unmodified MSAL Python at the clouds' real host names: production authority URLs, no instance_discovery or
validate_authority switches. The names resolve to mockidp inside a private namespace (see namespace.py); every
function below that takes `server` runs in there, the test_ functions start it."""
from urllib.parse import urlparse

import jwt
import msal
import pytest
import requests

from conftest import own_session, serving
from namespace import run_at_real_hosts
from test_browser import CHROMEDRIVER, CHROMIUM, loopback_redirect

SOVEREIGN = ["config/default.yaml", "config/examples/sovereign.yaml", "config/examples/b2c.yaml"]
CLOUD_HOSTS = ["login.microsoftonline.com", "login.windows.net", "login.microsoftonline.us", "login-us.microsoftonline.com",
               "login.usgovcloudapi.net",
               "login.chinacloudapi.cn", "login.partner.microsoftonline.cn", "login.microsoftonline.de",
               "fabrikamb2c.b2clogin.com"]

GOV = "4712c55e-5996-4a23-b912-9014db0ff64d"
GOV_CONSOLE = "f8478eca-024f-4bf7-a149-d93360a90d31"
CHINA = "df00500f-fe5b-423d-9c74-f51641e59d90"
CHINA_SERVICE = "715b8751-0aeb-4640-a512-d1bf0abe9a01"
CHINA_DESKTOP = "1a44b59b-2361-4008-8afa-0b6c815faf51"
GERMANY = "db6a725b-51ed-4fca-ac7b-55c6fb045799"
GERMANY_DESKTOP = "fe18e240-73f6-4544-ae95-b046a08486da"
GERMANY_API = "17cde191-86cf-4ba8-81ab-c4d897ed68e3"
CONTOSO = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
DAEMON = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"


def verify(token, discovery_url, audience):
    """Verifies a token as an API would: keys and issuer from the discovery document at the real host name."""
    doc = requests.get(discovery_url).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in requests.get(doc["jwks_uri"]).json()["keys"]}
    kid = jwt.get_unverified_header(token)["kid"]
    issuer = doc["issuer"]
    if "{tenantid}" in issuer:  # common and organizations; a B2C user flow's token has no tid and its issuer no slot
        issuer = issuer.replace("{tenantid}", jwt.decode(token, options={"verify_signature": False})["tid"])
    return jwt.decode(token, keys[kid].key, algorithms=["RS256"], audience=audience, issuer=issuer)


# --- US Government: login.microsoftonline.us -------------------------------------------------------------------

def us_government(server):
    app = msal.PublicClientApplication(GOV_CONSOLE, authority="https://login.microsoftonline.us/contosogov.onmicrosoft.us")
    result = app.acquire_token_by_username_password("grace@contosogov.onmicrosoft.us", "grace-password",
                                                    scopes=["https://graph.microsoft.us/User.Read"])
    assert "access_token" in result, result
    claims = result["id_token_claims"]
    assert claims["iss"] == "https://login.microsoftonline.us/%s/v2.0" % GOV and claims["tid"] == GOV
    [account] = app.get_accounts()
    assert account["environment"] == "login.microsoftonline.us" and account["realm"] == GOV
    assert account["home_account_id"] == claims["oid"] + "." + GOV
    refreshed = app.acquire_token_silent(["https://graph.microsoft.us/User.Read"], account=account, force_refresh=True)
    assert refreshed and refreshed["token_source"] == "identity_provider", refreshed
    # Another alias of the same cloud, sharing the cache: MSAL asks that host's instance discovery for the
    # cloud's aliases and finds the account cached under login.microsoftonline.us.
    alias = msal.PublicClientApplication(GOV_CONSOLE, authority="https://login.usgovcloudapi.net/" + GOV,
                                         token_cache=app.token_cache)
    [same] = alias.get_accounts()
    assert same["home_account_id"] == account["home_account_id"]
    silent = alias.acquire_token_silent(["https://graph.microsoft.us/User.Read"], account=same)
    assert silent and "access_token" in silent, silent
    at = jwt.decode(result["access_token"], options={"verify_signature": False})
    assert at["aud"] == "https://graph.microsoft.us" and at["ver"] == "1.0"
    doc = requests.get("https://login.microsoftonline.us/%s/v2.0/.well-known/openid-configuration" % GOV).json()
    assert doc["cloud_instance_name"] == "microsoftonline.us" and doc["msgraph_host"] == "graph.microsoft.us"
    # The legacy host is the same cloud: same issuer.
    legacy = requests.get("https://login-us.microsoftonline.com/%s/v2.0/.well-known/openid-configuration" % GOV).json()
    assert legacy["issuer"] == doc["issuer"]
    realm = requests.get("https://login.microsoftonline.us/common/userrealm/grace@contosogov.onmicrosoft.us?api-version=1.0").json()
    assert realm["account_type"] == "Managed" and realm["cloud_instance_name"] == "microsoftonline.us"
    log = server.log()
    assert "GET /common/discovery/instance 200" in log and "GET /common/userrealm/grace@contosogov.onmicrosoft.us 200" in log


def test_msal_at_login_microsoftonline_us():
    run_at_real_hosts(__file__, "us_government", CLOUD_HOSTS, SOVEREIGN)


def us_government_community(server):
    # Contoso Government is a GCC High tenant (regionSubScope: DODCON): both documents say so at the cloud's hosts,
    # right after tenant_region_scope, as Entra's do (MicrosoftDocs/azure-docs issue 56915, cisagov/ScubaGear).
    for host in ("login.microsoftonline.us", "login.usgovcloudapi.net"):
        for path in ("/contosogov.onmicrosoft.us/.well-known/openid-configuration",
                     "/%s/v2.0/.well-known/openid-configuration" % GOV):
            doc = requests.get("https://" + host + path).json()
            assert doc["tenant_region_scope"] == "USGov" and doc["tenant_region_sub_scope"] == "DODCON", doc
            keys = list(doc)
            assert keys[keys.index("tenant_region_scope") + 1] == "tenant_region_sub_scope"
            assert doc["cloud_instance_name"] == "microsoftonline.us"
    # A commercial tenant has no such member.
    public = requests.get("https://login.microsoftonline.com/%s/v2.0/.well-known/openid-configuration" % CONTOSO).json()
    assert public["tenant_region_scope"] == "WW" and "tenant_region_sub_scope" not in public


def test_tenant_region_sub_scope_at_login_microsoftonline_us():
    run_at_real_hosts(__file__, "us_government_community", CLOUD_HOSTS, SOVEREIGN)


def test_a_us_government_tenant_without_a_sub_scope_is_gcc_high(tmp_path):
    # Every tenant at login.microsoftonline.us is GCC High or DoD: one configured with neither says DODCON in both
    # documents; DOD stays configurable.
    path = tmp_path / "usgov.yaml"
    path.write_text("tenants:\n"
                    "  - {id: 0e0e0e0e-1111-4222-8333-444444444444, domains: [agency.onmicrosoft.us], cloud: usgov}\n"
                    "  - {id: 0d0d0d0d-1111-4222-8333-444444444444, domains: [army.onmicrosoft.us], cloud: usgov, regionSubScope: DOD}\n")
    with serving(str(path)) as s:
        for tenant, expected in (("agency.onmicrosoft.us", "DODCON"), ("army.onmicrosoft.us", "DOD")):
            for document in ("/%s/.well-known/openid-configuration" % tenant, "/%s/v2.0/.well-known/openid-configuration" % tenant):
                doc = own_session(s).get(s.url(document)).json()
                assert doc["tenant_region_scope"] == "USGov" and doc["tenant_region_sub_scope"] == expected, (document, doc)
                keys = list(doc)
                assert keys[keys.index("tenant_region_scope") + 1] == "tenant_region_sub_scope"


# --- China: login.chinacloudapi.cn ------------------------------------------------------------------------------

def china(server):
    daemon = msal.ConfidentialClientApplication(CHINA_SERVICE, client_credential="china-service-secret",
                                                authority="https://login.chinacloudapi.cn/" + CHINA)
    result = daemon.acquire_token_for_client(["https://microsoftgraph.chinacloudapi.cn/.default"])
    assert "access_token" in result, result
    claims = verify(result["access_token"], "https://login.chinacloudapi.cn/%s/.well-known/openid-configuration" % CHINA,
                    "https://microsoftgraph.chinacloudapi.cn")
    assert claims["iss"] == "https://sts.chinacloudapi.cn/%s/" % CHINA and claims["roles"] == ["User.Read.All"]

    desktop = msal.PublicClientApplication(CHINA_DESKTOP, authority="https://login.chinacloudapi.cn/contosocn.partner.onmschina.cn")
    user = desktop.acquire_token_by_username_password("hao@contosocn.partner.onmschina.cn", "hao-password",
                                                      scopes=["https://microsoftgraph.chinacloudapi.cn/User.Read"])
    assert "access_token" in user, user
    # Entra: China's endpoints stay on the host asked for; its v2 issuer is login.partner.microsoftonline.cn.
    assert user["id_token_claims"]["iss"] == "https://login.partner.microsoftonline.cn/%s/v2.0" % CHINA
    doc = requests.get("https://login.chinacloudapi.cn/%s/v2.0/.well-known/openid-configuration" % CHINA).json()
    assert doc["token_endpoint"].startswith("https://login.chinacloudapi.cn/")
    assert doc["cloud_instance_name"] == "partner.microsoftonline.cn"


def test_msal_at_login_chinacloudapi_cn():
    run_at_real_hosts(__file__, "china", CLOUD_HOSTS, SOVEREIGN)


# --- Germany: login.microsoftonline.de --------------------------------------------------------------------------

def germany(server):
    app = msal.PublicClientApplication(GERMANY_DESKTOP, authority="https://login.microsoftonline.de/contosode.onmicrosoft.de")
    result = app.acquire_token_by_username_password("klaus@contosode.onmicrosoft.de", "klaus-password",
                                                    scopes=["api://contosode-api/access_as_user"])
    assert "access_token" in result, result
    claims = verify(result["access_token"], "https://login.microsoftonline.de/%s/v2.0/.well-known/openid-configuration" % GERMANY,
                    GERMANY_API)
    assert claims["iss"] == "https://login.microsoftonline.de/%s/v2.0" % GERMANY and claims["scp"] == "access_as_user"
    assert app.get_accounts()[0]["environment"] == "login.microsoftonline.de"


def test_msal_at_login_microsoftonline_de():
    run_at_real_hosts(__file__, "germany", CLOUD_HOSTS, SOVEREIGN)


# --- Public cloud, across clouds, B2C host ----------------------------------------------------------------------

def public_and_across_clouds(server):
    daemon = msal.ConfidentialClientApplication(DAEMON, client_credential="daemon-secret",
                                                authority="https://login.microsoftonline.com/contoso.onmicrosoft.com")
    result = daemon.acquire_token_for_client(["api://contoso-api/.default"])
    assert "access_token" in result, result
    verify(result["access_token"], "https://login.windows.net/%s/v2.0/.well-known/openid-configuration" % CONTOSO,
           "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5")
    # A public-cloud tenant is not found at the US Government cloud's host, as in Entra (AADSTS90002).
    with pytest.raises(ValueError, match="Unable to get authority configuration"):
        msal.ConfidentialClientApplication(DAEMON, client_credential="daemon-secret",
                                           authority="https://login.microsoftonline.us/contoso.onmicrosoft.com")
    refused = requests.get("https://login.microsoftonline.us/%s/v2.0/.well-known/openid-configuration" % CONTOSO)
    assert refused.status_code == 400 and refused.json()["error_codes"] == [90002]
    # The B2C host serves B2C tenants only.
    other = requests.get("https://fabrikamb2c.b2clogin.com/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
    assert other.status_code == 400 and other.json()["error_codes"] == [90002]


def test_public_cloud_names_cross_cloud_refusal_and_the_b2c_host():
    run_at_real_hosts(__file__, "public_and_across_clouds", CLOUD_HOSTS, SOVEREIGN)


# --- B2C: https://fabrikamb2c.b2clogin.com/tfp/fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin ---------------------

B2C_TENANT = "a4cf0827-8d79-45b2-ab17-599d4e41cad3"
B2C_MOBILE = "8a1d2b3c-4e5f-4a6b-9c7d-e8f9a0b1c2d3"
B2C_API = "5386caa5-bae5-45ee-b4fb-5203bcc41917"


def sign_in_at_b2clogin(server, auth_uri):
    """Frank signs in on the B2C page at https://fabrikamb2c.b2clogin.com in headless Chromium, which resolves the
    name through the namespace's hosts file and accepts only this server's key. Returns the redirect's query."""
    from selenium.webdriver.common.by import By
    from test_b2c import FRANK, FRANK_PASSWORD
    from test_browser import code_from, new_browser
    driver = new_browser(server)
    try:
        driver.get(auth_uri)
        assert urlparse(driver.current_url).hostname == "fabrikamb2c.b2clogin.com", driver.current_url
        driver.find_element(By.ID, "signInName").send_keys(FRANK)
        driver.find_element(By.ID, "password").send_keys(FRANK_PASSWORD)
        driver.find_element(By.ID, "next").click()
        return code_from(driver)
    finally:
        driver.quit()


def b2c_at_b2clogin(server):
    from test_b2c import FRANK_OID
    # MSAL recognises *.b2clogin.com as B2C by itself: no switch, no instance discovery.
    app = msal.PublicClientApplication(
        B2C_MOBILE, authority="https://fabrikamb2c.b2clogin.com/tfp/fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin")
    with loopback_redirect() as redirect_uri:
        flow = app.initiate_auth_code_flow(["api://fabrikamb2c-api/read"], redirect_uri=redirect_uri)
        assert flow["auth_uri"].startswith("https://fabrikamb2c.b2clogin.com/")
        answer = sign_in_at_b2clogin(server, flow["auth_uri"])
    result = app.acquire_token_by_auth_code_flow(flow, answer)
    assert "access_token" in result, result
    policy = "https://fabrikamb2c.b2clogin.com/fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin"
    doc = requests.get(policy + "/v2.0/.well-known/openid-configuration").json()
    assert doc["issuer"] == "https://fabrikamb2c.b2clogin.com/%s/v2.0/" % B2C_TENANT
    claims = verify(result["access_token"], policy + "/v2.0/.well-known/openid-configuration", B2C_API)
    assert claims["oid"] == FRANK_OID and claims["tfp"] == "B2C_1_signupsignin"
    assert app.get_accounts()[0]["environment"] == "fabrikamb2c.b2clogin.com"


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="chromium and chromium-driver are not installed")
@pytest.mark.filterwarnings("ignore:response_mode=.form_post. is recommended")
def test_msal_at_the_b2clogin_host():
    run_at_real_hosts(__file__, "b2c_at_b2clogin", CLOUD_HOSTS, SOVEREIGN)
