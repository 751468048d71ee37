"""The authorize endpoint with MSAL Python's auth-code flow, the sign-in page driven over HTTP with a cookie jar
(as a browser without JavaScript would), single sign-on through the session cookie, and the error paths."""
from urllib.parse import parse_qs, urlparse

import msal
import pytest
import requests

from conftest import ALICE, ALICE_OID, CONTOSO, MOBILE, WEB, WEB_SECRET
from html_forms import forms


def browser(server):
    s = requests.Session()
    s.verify = server.ca
    return s


def sign_in_form(page_html):
    return next(f for f in forms(page_html) if ("mockidp_action", "signin") in f["fields"])


def submit_sign_in(b, server, page, username, password):
    form = sign_in_form(page.text)
    fields = [(k, v) for k, v in form["fields"] if k not in ("username", "password")]
    fields += [("username", username), ("password", password)]
    return b.post(server.url(form["action"]), data=fields, allow_redirects=False)


def redirect_query(response):
    assert response.status_code == 302, (response.status_code, response.text[:300])
    location = urlparse(response.headers["Location"])
    return location, {k: v[0] for k, v in parse_qs(location.query).items()}


@pytest.mark.filterwarnings("ignore:response_mode='form_post' is recommended")
def test_auth_code_flow_with_the_sign_in_page_then_single_sign_on_for_a_second_app(server):
    b = browser(server)
    app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
    flow = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:53123", login_hint=ALICE)
    page = b.get(flow["auth_uri"], allow_redirects=False)
    assert page.status_code == 200 and "Sign in" in page.text
    assert 'value="%s"' % ALICE in page.text  # login_hint prefills the username

    wrong = submit_sign_in(b, server, page, ALICE, "not-her-password")
    assert wrong.status_code == 200 and "incorrect" in wrong.text

    response = submit_sign_in(b, server, wrong, ALICE, "alice-password")
    location, query = redirect_query(response)
    assert location.netloc == "localhost:53123" and location.path == "/"   # Entra adds the trailing slash
    assert query["state"] == flow["state"] and "client_info" in query and "session_state" in query
    result = app.acquire_token_by_auth_code_flow(flow, query)
    assert "access_token" in result, result
    assert result["id_token_claims"]["oid"] == ALICE_OID
    sent_nonce = parse_qs(urlparse(flow["auth_uri"]).query)["nonce"][0]
    assert result["id_token_claims"]["nonce"] == sent_nonce   # echoed exactly (MSAL checks it too)

    # A second app in the same browser signs in silently through the session cookie.
    web = msal.ConfidentialClientApplication(WEB, client_credential=WEB_SECRET, authority=server.url("/organizations"),
                                             instance_discovery=False)
    flow2 = web.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost")
    _, query2 = redirect_query(b.get(flow2["auth_uri"], allow_redirects=False))
    result2 = web.acquire_token_by_auth_code_flow(flow2, query2)
    assert result2["id_token_claims"]["oid"] == ALICE_OID

    # prompt=none works with the session, and fails with login_required in a fresh browser.
    flow3 = app.initiate_auth_code_flow(["User.Read"], redirect_uri="http://localhost:53123", prompt="none")
    _, ok = redirect_query(b.get(flow3["auth_uri"], allow_redirects=False))
    assert "code" in ok
    _, fresh = redirect_query(browser(server).get(flow3["auth_uri"], allow_redirects=False))
    assert fresh["error"] == "login_required" and fresh["error_description"].startswith("AADSTS50058")
    assert fresh["state"] == flow3["state"]

    # Logout ends the session: prompt=none fails afterwards.
    out = b.get(server.url("/%s/oauth2/v2.0/logout?post_logout_redirect_uri=http://localhost:53123&state=bye" % CONTOSO),
                allow_redirects=False)
    assert out.status_code == 302 and out.headers["Location"] == "http://localhost:53123?state=bye"
    _, after = redirect_query(b.get(flow3["auth_uri"], allow_redirects=False))
    assert after["error"] == "login_required"


def test_form_post_and_escaping(server):
    b = browser(server)
    evil = '"><script>alert(1)</script>'
    url = server.url("/%s/oauth2/v2.0/authorize" % CONTOSO)
    params = {"client_id": MOBILE, "redirect_uri": "http://localhost:53124", "response_type": "code",
              "scope": "openid User.Read", "response_mode": "form_post", "state": evil, "login_hint": evil}
    page = b.get(url, params=params)
    assert page.status_code == 200 and "<script>alert(1)" not in page.text
    response = submit_sign_in(b, server, page, ALICE, "alice-password")
    assert response.status_code == 200
    assert "<script>alert(1)" not in response.text
    post = forms(response.text)[0]
    assert post["action"] == "http://localhost:53124"
    fields = dict(post["fields"])
    assert fields["state"] == evil and fields["code"]


def test_errors_that_never_redirect_and_the_form_token(server):
    b = browser(server)
    url = server.url("/%s/oauth2/v2.0/authorize" % CONTOSO)
    for params, code in [({"client_id": MOBILE, "redirect_uri": "https://attacker.example/cb", "response_type": "code",
                           "scope": "openid"}, "AADSTS50011"),
                         ({"client_id": "00000000-0000-0000-0000-0000000000ee", "redirect_uri": "http://localhost",
                           "response_type": "code", "scope": "openid"}, "AADSTS700016")]:
        r = b.get(url, params=params, allow_redirects=False)
        assert r.status_code == 400 and "Location" not in r.headers and code in r.text
    # Once the redirect URI is verified, errors go back to it.
    _, q = redirect_query(b.get(url, params={"client_id": MOBILE, "redirect_uri": "http://localhost", "response_type": "code",
                                             "scope": "openid", "prompt": "sometimes", "state": "s"}, allow_redirects=False))
    assert q["error"] == "invalid_request" and q["state"] == "s"
    # A sign-in post from another site (no form cookie) is refused.
    page = b.get(url, params={"client_id": MOBILE, "redirect_uri": "http://localhost", "response_type": "code", "scope": "openid"})
    form = sign_in_form(page.text)
    forged = requests.post(server.url(form["action"]), data=form["fields"] + [("username", ALICE), ("password", "alice-password")],
                           verify=server.ca, allow_redirects=False)
    assert forged.status_code == 400 and "Location" not in forged.headers
    # Logout never redirects to an unregistered address.
    out = b.get(server.url("/%s/oauth2/v2.0/logout?post_logout_redirect_uri=https://attacker.example/" % CONTOSO),
                allow_redirects=False)
    assert out.status_code == 200 and "Location" not in out.headers
