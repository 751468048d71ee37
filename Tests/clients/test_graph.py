"""Microsoft Graph's directory slice with the real Graph SDK (msgraph-sdk) and azure-identity from PyPI, unchanged.

App-only calls run here with the SDK's base URL pointed at mockidp; delegated calls run in a private network
namespace (namespace.py) where login.microsoftonline.com and graph.microsoft.com reach mockidp, so MSAL and the SDK
keep their production URLs.
"""
import asyncio
import os
import uuid

import jwt
import msal
import pytest
import requests
from azure.core.credentials import AccessToken
from azure.identity import ClientSecretCredential
from kiota_abstractions.base_request_configuration import RequestConfiguration
from msgraph import GraphServiceClient
from msgraph.generated.models.o_data_errors.o_data_error import ODataError
from msgraph.generated.users.item.check_member_groups.check_member_groups_post_request_body import CheckMemberGroupsPostRequestBody
from msgraph.generated.users.item.get_member_objects.get_member_objects_post_request_body import GetMemberObjectsPostRequestBody
from msgraph.generated.users.users_request_builder import UsersRequestBuilder

from conftest import serving
from namespace import run_at_real_hosts

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(HERE, "graph", "graph.yaml")
CONTOSO = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
DAEMON, DAEMON_SECRET = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d", "daemon-secret"
OTHER, OTHER_SECRET = "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a", "other-secret"
MOBILE = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
ALICE_OID = "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a"
GRAPH_DEFAULT = ["https://graph.microsoft.com/.default"]


@pytest.fixture(scope="module")
def graph_server():
    previous = os.environ.get("SSL_CERT_FILE")
    with serving(CONFIG) as s:
        yield s
    os.environ.pop("SSL_CERT_FILE", None)
    if previous is not None:
        os.environ["SSL_CERT_FILE"] = previous


def graph_client(credential, ca, base_url=None, scopes=GRAPH_DEFAULT):
    """The Graph SDK as an app builds it: `GraphServiceClient(credentials, scopes)`, its HTTP client (httpx) trusting
    mockidp's CA through SSL_CERT_FILE and, outside the namespace, the request adapter's base URL pointed at mockidp."""
    os.environ["SSL_CERT_FILE"] = ca
    client = GraphServiceClient(credentials=credential, scopes=scopes)
    if base_url:
        client.request_adapter.base_url = base_url
    return client


def app_client(server, client_id=DAEMON, secret=DAEMON_SECRET, scopes=GRAPH_DEFAULT):
    credential = ClientSecretCredential(CONTOSO, client_id, secret, authority=server.base_url, disable_instance_discovery=True)
    return graph_client(credential, server.ca, base_url=server.url("/v1.0"), scopes=scopes)


LOOP = asyncio.new_event_loop()   # one loop for every call: the SDK's HTTP client keeps its connections on it


def run(coroutine):
    return LOOP.run_until_complete(coroutine)


def users_query(**options):
    return RequestConfiguration(query_parameters=UsersRequestBuilder.UsersRequestBuilderGetQueryParameters(**options))


def test_app_only_lists_users_page_by_page_following_next_links(graph_server):
    client = app_client(graph_server)

    async def every_page():
        pages = [await client.users.get(request_configuration=users_query(top=2, select=["displayName", "id"]))]
        while pages[-1].odata_next_link:
            pages.append(await client.users.with_url(pages[-1].odata_next_link).get())
        return pages

    pages = run(every_page())
    assert [len(p.value) for p in pages] == [2, 2, 1]
    names = [u.display_name for p in pages for u in p.value]
    assert names == ["Alice Adams", "Adele Vance", "Bob Brown", "Carol Chen", "Dan Jump"]
    assert all(u.id and u.user_principal_name is None for p in pages for u in p.value)   # $select kept on every page


def test_app_only_filters_users_with_eq_startswith_and(graph_server):
    client = app_client(graph_server)
    found = run(client.users.get(request_configuration=users_query(filter="startswith(displayName,'a')")))
    assert sorted(u.display_name for u in found.value) == ["Adele Vance", "Alice Adams"]
    both = run(client.users.get(request_configuration=users_query(
        filter="startswith(displayName,'A') and jobTitle eq 'Retail Manager'")))
    assert [u.user_principal_name for u in both.value] == ["adele@contoso.onmicrosoft.com"]
    alice = run(client.users.by_user_id("alice@contoso.onmicrosoft.com").get())
    assert (alice.id, alice.job_title, alice.mail, alice.business_phones) == (ALICE_OID, "Buyer", "alice@contoso.com", ["+1 425 555 0109"])
    assert (alice.given_name, alice.surname) == ("Alice", "Adams")


def test_count_needs_consistency_level_eventual(graph_server):
    client = app_client(graph_server)
    with pytest.raises(ODataError) as refused:
        run(client.users.get(request_configuration=users_query(count=True)))
    assert refused.value.response_status_code == 400 and refused.value.error.code == "Request_BadRequest"
    config = users_query(count=True, top=1)
    config.headers.add("ConsistencyLevel", "eventual")
    counted = run(client.users.get(request_configuration=config))
    assert counted.odata_count == 5 and len(counted.value) == 1


def test_malformed_filter_and_huge_top_get_graphs_errors(graph_server):
    client = app_client(graph_server)
    with pytest.raises(ODataError) as malformed:
        run(client.users.get(request_configuration=users_query(filter="displayName eq")))
    assert malformed.value.response_status_code == 400 and malformed.value.error.code == "BadRequest"
    with pytest.raises(ODataError) as unsupported:
        run(client.users.get(request_configuration=users_query(filter="displayName ne 'x'")))
    assert unsupported.value.error.code == "Request_UnsupportedQuery"
    with pytest.raises(ODataError) as huge:
        run(client.users.get(request_configuration=users_query(top=1000)))
    assert huge.value.error.code == "Request_BadRequest" and "1000" in huge.value.error.message
    with pytest.raises(ODataError) as orderby:
        run(client.users.get(request_configuration=users_query(orderby=["displayName"])))
    assert orderby.value.response_status_code == 400


def test_groups_added_at_run_time_are_served_until_reset(graph_server):
    s = requests.Session()
    s.verify = graph_server.ca
    ops = "c1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e"
    bad = s.post(graph_server.url("/_mockidp/tenants/%s/groups" % CONTOSO), json={"id": "not-a-guid"})
    assert bad.status_code == 400 and "GUID" in bad.json()["error_description"]
    added = s.post(graph_server.url("/_mockidp/tenants/%s/groups" % CONTOSO), json={"id": ops, "displayName": "Ops", "mail": "ops@contoso.com"})
    assert added.status_code == 201, added.text
    client = app_client(graph_server)
    group = run(client.groups.by_group_id(ops).get())
    assert (group.display_name, group.mail_enabled, group.security_enabled) == ("Ops", True, True)
    listed = run(client.groups.get())
    assert [g.display_name for g in listed.value] == ["Sales", "Newsletter", "Ops"]
    s.post(graph_server.url("/_mockidp/reset")).raise_for_status()
    with pytest.raises(ODataError) as gone:
        run(client.groups.by_group_id(ops).get())
    assert gone.value.response_status_code == 404 and gone.value.error.code == "Request_ResourceNotFound"


def test_token_without_the_permission_is_403_authorization_request_denied(graph_server):
    client = app_client(graph_server, OTHER, OTHER_SECRET)
    with pytest.raises(ODataError) as denied:
        run(client.users.get())
    assert denied.value.response_status_code == 403
    assert denied.value.error.code == "Authorization_RequestDenied"
    assert denied.value.error.inner_error.request_id
    org = run(client.organization.get())   # Organization.Read.All is enough here
    assert org.value[0].id == CONTOSO and org.value[0].verified_domains[0].name == "contoso.onmicrosoft.com"


def test_token_for_another_api_and_me_app_only_are_refused(graph_server):
    s = requests.Session()
    s.verify = graph_server.ca
    token = ClientSecretCredential(CONTOSO, DAEMON, DAEMON_SECRET, authority=graph_server.base_url,
                                   disable_instance_discovery=True).get_token(*GRAPH_DEFAULT).token
    id_like = jwt.encode({"aud": DAEMON}, "k", algorithm="HS256")
    for bearer, code in [(None, "InvalidAuthenticationToken"), ("not-a-jwt", "InvalidAuthenticationToken"),
                         (id_like, "InvalidAuthenticationToken")]:
        r = s.get(graph_server.url("/v1.0/users"), headers={"Authorization": "Bearer " + bearer} if bearer else {})
        assert r.status_code == 401 and r.json()["error"]["code"] == code, r.text
        assert r.headers["request-id"] == r.json()["error"]["innerError"]["request-id"]
    me = s.get(graph_server.url("/v1.0/me"), headers={"Authorization": "Bearer " + token})
    assert me.status_code == 400 and me.json()["error"]["message"] == "/me request is only valid with delegated authentication flow."
    unknown = s.get(graph_server.url("/v1.0/users/nobody@contoso.onmicrosoft.com"), headers={"Authorization": "Bearer " + token})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "Request_ResourceNotFound"
    segment = s.get(graph_server.url("/v1.0/users/%s/drive" % ALICE_OID), headers={"Authorization": "Bearer " + token})
    assert segment.status_code == 400 and segment.json()["error"]["message"] == "Resource not found for the segment 'drive'."
    log = s.get(graph_server.url("/_mockidp/requests")).json()["requests"]
    assert any(e["path"] == "/v1.0/users/%s/drive" % ALICE_OID and "drive" in (e["reason"] or "") for e in log)


def test_an_expired_graph_token_is_401_for_the_sdk(graph_server):
    s = requests.Session()
    s.verify = graph_server.ca
    token = ClientSecretCredential(CONTOSO, DAEMON, DAEMON_SECRET, authority=graph_server.base_url,
                                   disable_instance_discovery=True).get_token(*GRAPH_DEFAULT).token
    stale = graph_client(StaticToken(token), graph_server.ca, base_url=graph_server.url("/v1.0"))
    assert run(stale.users.get()).value
    s.post(graph_server.url("/_mockidp/clock"), json={"advance": 2 * 3600}).raise_for_status()
    try:
        with pytest.raises(ODataError) as expired:
            run(stale.users.get())
    finally:
        s.post(graph_server.url("/_mockidp/reset")).raise_for_status()
    assert expired.value.response_status_code == 401 and expired.value.error.code == "InvalidAuthenticationToken"


class StaticToken:
    """A credential for a token an app already holds (MSAL's, here), as azure-core's protocol wants it."""

    def __init__(self, token):
        self.token = token

    def get_token(self, *scopes, **kwargs):
        claims = jwt.decode(self.token, options={"verify_signature": False})
        return AccessToken(self.token, claims["exp"])


# Delegated: MSAL's username/password flow at login.microsoftonline.com (it asks port 443 for the user realm), and
# the Graph SDK at graph.microsoft.com with no base URL changed.
def test_delegated_me_photo_and_groups_overage_at_graph_microsoft_com():
    run_at_real_hosts(__file__, "delegated_me_photo_and_groups_overage", hosts=["login.microsoftonline.com", "graph.microsoft.com"],
                      configs=["Tests/clients/graph/graph.yaml"])


def delegated_me_photo_and_groups_overage(server):
    control = requests.Session()
    control.verify = server.ca
    groups = [str(uuid.UUID(int=0x5000 + i)) for i in range(250)]
    for group_id in groups[:3]:
        r = control.post(server.url("/_mockidp/tenants/%s/groups" % CONTOSO), json={"id": group_id, "displayName": "Team %s" % group_id[-3:]})
        assert r.status_code == 201, r.text
    r = control.post(server.url("/_mockidp/tenants/%s/users" % CONTOSO),
                     json={"username": "megan@contoso.onmicrosoft.com", "password": "megan-password", "name": "Megan Bowen", "groups": groups})
    assert r.status_code == 201, r.text
    megan_oid = r.json()["oid"]

    app = msal.PublicClientApplication(MOBILE, authority="https://login.microsoftonline.com/" + CONTOSO)
    alice = app.acquire_token_by_username_password("alice@contoso.onmicrosoft.com", "alice-password", scopes=["User.Read"])
    assert "access_token" in alice, alice
    assert alice["id_token_claims"]["groups"] == ["a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d"]   # SecurityGroup: Newsletter is not one
    client = graph_client(StaticToken(alice["access_token"]), server.ca)
    me = run(client.me.get())
    assert (me.id, me.display_name, me.user_principal_name, me.job_title) == (ALICE_OID, "Alice Adams", "alice@contoso.onmicrosoft.com", "Buyer")
    photo = run(client.me.photo.content.get())
    assert photo == open(os.path.join(HERE, "graph", "alice.png"), "rb").read()
    meta = run(client.me.photo.get())
    assert (meta.width, meta.height) == (64, 64)
    member_of = run(client.me.member_of.get())
    assert sorted(g.display_name for g in member_of.value) == ["Newsletter", "Sales"]
    assert all(g.odata_type == "#microsoft.graph.group" for g in member_of.value)
    with pytest.raises(ODataError) as denied:
        run(client.users.get())   # User.Read reads the signed-in user only
    assert denied.value.response_status_code == 403 and denied.value.error.code == "Authorization_RequestDenied"

    # 250 groups: the ID token carries Entra's overage form; the endpoint names the user, Graph reads every group back.
    megan = app.acquire_token_by_username_password("megan@contoso.onmicrosoft.com", "megan-password", scopes=["User.Read"])
    assert "access_token" in megan, megan
    claims = megan["id_token_claims"]
    assert "groups" not in claims and claims["_claim_names"] == {"groups": "src1"}
    endpoint = claims["_claim_sources"]["src1"]["endpoint"]
    assert endpoint == "https://graph.windows.net/%s/users/%s/getMemberObjects" % (CONTOSO, megan_oid)
    user_id = endpoint.split("/users/")[1].split("/")[0]
    client = graph_client(StaticToken(megan["access_token"]), server.ca)
    ids = run(client.users.by_user_id(user_id).get_member_objects.post(GetMemberObjectsPostRequestBody(security_enabled_only=True)))
    assert sorted(ids.value) == sorted(groups)

    async def every_group():
        page = await client.me.member_of.get()
        found = list(page.value)
        while page.odata_next_link:
            page = await client.me.member_of.with_url(page.odata_next_link).get()
            found += page.value
        return found

    found = run(every_group())
    assert sorted(g.id for g in found) == sorted(groups)
    assert [g.display_name for g in found[:3]] == ["Team %s" % g[-3:] for g in groups[:3]]
    # checkMemberGroups needs more than User.Read (User.ReadBasic.All and GroupMember.Read.All, or Directory.Read.All).
    with pytest.raises(ODataError) as needs_more:
        run(client.users.by_user_id(user_id).check_member_groups.post(CheckMemberGroupsPostRequestBody(group_ids=groups[:2])))
    assert needs_more.value.response_status_code == 403

    # An ID token is not a Graph token: 401 with Graph's code.
    r = control.get("https://graph.microsoft.com/v1.0/me", headers={"Authorization": "Bearer " + alice["id_token"]})
    assert r.status_code == 401 and r.json()["error"]["code"] == "InvalidAuthenticationToken", r.text
    assert r.json()["error"]["message"] == "Access token validation failure. Invalid audience."
