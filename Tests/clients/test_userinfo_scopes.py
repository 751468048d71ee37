"""UserInfo answers what the access token's scopes allow, as Entra does (learn.microsoft.com, "Microsoft identity
platform UserInfo endpoint"): `sub` always, the name claims and `picture` with `profile`, `email` with `email`. The
tokens come from MSAL Python's username/password flow: its public API always adds `openid profile offline_access`, so
`openid` alone goes through MSAL's own OAuth2 client (msal.oauth2cli), which sends the scope as given."""
import jwt
import msal
import requests

from conftest import ALICE, CONTOSO, MOBILE
from namespace import run_at_real_hosts

PASSWORD = "alice-password"
PROFILE_CLAIMS = {"name", "family_name", "given_name", "picture"}


def app(server):
    return msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)


def userinfo(server, access_token):
    doc = requests.get(server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO)).json()
    r = requests.get(doc["userinfo_endpoint"], headers={"Authorization": "Bearer " + access_token})
    assert r.status_code == 200, r.text
    return r.json()


def scp(access_token):
    return jwt.decode(access_token, options={"verify_signature": False})["scp"].split(" ")


def test_openid_alone_gets_sub_only(server):
    result = app(server).client.obtain_token_by_username_password(ALICE, PASSWORD, scope=["openid"])
    assert "access_token" in result, result
    assert scp(result["access_token"]) == ["openid"]
    info = userinfo(server, result["access_token"])
    assert set(info) == {"sub"}, info


# MSAL's username/password flow asks https://<host>:443/common/userrealm/... first (see test_msal): the tests that
# go through its public API run in a private network namespace where mockidp also listens on 443.
def test_openid_profile_gets_the_names_and_picture_but_no_email():
    run_at_real_hosts(__file__, "openid_profile_gets_the_names_and_picture_but_no_email", hosts=[], ports=("0", "443"))


def test_email_through_msals_public_api_comes_with_the_profile():
    run_at_real_hosts(__file__, "email_through_msals_public_api_comes_with_the_profile", hosts=[], ports=("0", "443"))


def openid_profile_gets_the_names_and_picture_but_no_email(server):
    # MSAL sends "User.Read openid profile offline_access".
    result = app(server).acquire_token_by_username_password(ALICE, PASSWORD, scopes=["User.Read"])
    assert "access_token" in result, result
    assert {"openid", "profile", "User.Read"} <= set(scp(result["access_token"]))
    assert "offline_access" not in scp(result["access_token"]) and "email" not in scp(result["access_token"])
    info = userinfo(server, result["access_token"])
    assert set(info) == {"sub"} | PROFILE_CLAIMS, info
    assert (info["name"], info["given_name"], info["family_name"]) == ("Alice Adams", "Alice", "Adams")
    assert info["picture"] == "https://graph.microsoft.com/v1.0/me/photo/$value"


def test_openid_email_gets_the_email_and_no_names(server):
    result = app(server).client.obtain_token_by_username_password(ALICE, PASSWORD, scope=["openid", "email"])
    assert "access_token" in result, result
    info = userinfo(server, result["access_token"])
    assert info == {"sub": info["sub"], "email": "alice@contoso.com"}, info


def email_through_msals_public_api_comes_with_the_profile(server):
    # MSAL adds openid profile offline_access to "email": everything, and the same pairwise sub as before.
    result = app(server).acquire_token_by_username_password(ALICE, PASSWORD, scopes=["email"])
    assert "access_token" in result, result
    info = userinfo(server, result["access_token"])
    assert set(info) == {"sub", "email"} | PROFILE_CLAIMS, info
    only = app(server).client.obtain_token_by_username_password(ALICE, PASSWORD, scope=["openid"])
    assert userinfo(server, only["access_token"])["sub"] == info["sub"]
