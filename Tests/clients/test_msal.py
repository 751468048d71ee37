"""MSAL Python, unmodified, against mockidp over real TLS."""
import msal
import pytest

from conftest import ALICE, ALICE_OID, CONTOSO, CONTOSO_DOMAIN, DAEMON, DAEMON_SECRET, MOBILE
from namespace import run_at_real_hosts


def test_client_credentials_with_a_secret(server):
    app = msal.ConfidentialClientApplication(
        DAEMON, client_credential=DAEMON_SECRET, authority=server.url("/" + CONTOSO_DOMAIN),
        instance_discovery=False)
    result = app.acquire_token_for_client(["api://contoso-api/.default"])
    assert "access_token" in result, result
    assert result["token_type"] == "Bearer"
    assert result["expires_in"] > 300
    # The second call is served from MSAL's cache, which proves the response shape is cacheable.
    again = app.acquire_token_for_client(["api://contoso-api/.default"])
    assert again["access_token"] == result["access_token"]
    assert again.get("token_source") == "cache"


def test_client_credentials_with_instance_discovery_served_by_mockidp(server):
    app = msal.ConfidentialClientApplication(
        DAEMON, client_credential=DAEMON_SECRET, authority=server.url("/" + CONTOSO),
        instance_discovery=server.url("/common/discovery/instance"))
    result = app.acquire_token_for_client(["https://graph.microsoft.com/.default"])
    assert "access_token" in result, result


def test_wrong_secret_is_invalid_client(server):
    app = msal.ConfidentialClientApplication(
        DAEMON, client_credential="not-the-secret", authority=server.url("/" + CONTOSO), instance_discovery=False)
    result = app.acquire_token_for_client(["api://contoso-api/.default"])
    assert result["error"] == "invalid_client"
    assert result["error_codes"] == [7000215]
    assert result["error_description"].startswith("AADSTS7000215:")


def test_unknown_tenant_fails_discovery(server):
    with pytest.raises(ValueError, match="Unable to get authority configuration"):
        msal.ConfidentialClientApplication(
            DAEMON, client_credential=DAEMON_SECRET, authority=server.url("/nosuchtenant.onmicrosoft.com"),
            instance_discovery=False)


# MSAL's username/password flow always asks https://<host>:443/common/userrealm/... first, whatever the
# authority's port. These run in a private network namespace (namespace.py), where mockidp listens on a free
# port and on 443 without colliding with anything on the machine's own port 443.
def test_username_password_then_silent_refresh_from_cache():
    run_at_real_hosts(__file__, "username_password_then_silent_refresh_from_cache", hosts=[], ports=("0", "443"))


def test_username_password_errors_are_entras():
    run_at_real_hosts(__file__, "username_password_errors_are_entras", hosts=[], ports=("0", "443"))


def username_password_then_silent_refresh_from_cache(server):
    app = msal.PublicClientApplication(MOBILE, authority=server.url("/organizations"), instance_discovery=False)
    result = app.acquire_token_by_username_password(ALICE, "alice-password", scopes=["User.Read"])
    assert "access_token" in result, result
    assert result["id_token_claims"]["oid"] == ALICE_OID
    assert result["id_token_claims"]["tid"] == CONTOSO
    assert result["id_token_claims"]["preferred_username"] == ALICE
    assert "refresh_token" in result
    # MSAL built an account from client_info: home_account_id = uid.utid.
    accounts = app.get_accounts()
    assert [a["home_account_id"] for a in accounts] == [ALICE_OID + "." + CONTOSO]
    # The realm is the token endpoint's first segment: "organizations" here, as with Entra (a tenant authority
    # asked by domain gives the GUID: see test_tokens_pyjwt).
    assert accounts[0]["realm"] == "organizations"

    cached = app.acquire_token_silent(["User.Read"], account=accounts[0])
    assert cached["token_source"] == "cache"
    refreshed = app.acquire_token_silent(["User.Read"], account=accounts[0], force_refresh=True)
    assert refreshed and "access_token" in refreshed, refreshed
    assert refreshed["token_source"] == "identity_provider"
    assert refreshed["access_token"] != result["access_token"]
    # The user-realm request on port 443 and the refresh-token grant both reached the server.
    log = server.log()
    assert "GET /common/userrealm/" + ALICE in log
    assert log.count("POST /organizations/oauth2/v2.0/token 200") >= 2


def username_password_errors_are_entras(server):
    app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
    wrong = app.acquire_token_by_username_password(ALICE, "wrong", scopes=["User.Read"])
    assert wrong["error"] == "invalid_grant" and wrong["error_codes"] == [50126]
    unknown = app.acquire_token_by_username_password("nobody@contoso.onmicrosoft.com", "x", scopes=["User.Read"])
    assert unknown["error"] == "invalid_grant" and unknown["error_codes"] == [50034]
    mfa = app.acquire_token_by_username_password("bob@contoso.onmicrosoft.com", "bob-password", scopes=["User.Read"])
    assert mfa["error"] == "invalid_grant" and mfa["error_codes"] == [50076]
    assert mfa["suberror"] == "basic_action"
