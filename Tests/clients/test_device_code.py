"""MSAL Python's device code flow, completed by a user at /devicelogin (driven over HTTP with a cookie jar)."""
import threading

import msal
import requests

from conftest import ALICE, ALICE_OID, CONTOSO, MOBILE
from test_signin import forms


def device_login(server, user_code, action, username=None, password=None, browser=None):
    b = browser or requests.Session()
    b.verify = server.ca
    entry = b.get(server.url("/devicelogin"))
    form = forms(entry.text)[0]
    fields = [(k, v) for k, v in form["fields"] if k != "user_code"] + [("user_code", user_code.lower())]
    page = b.post(server.url(form["action"]), data=fields)
    assert "Sign in" in page.text, page.text[:300]
    if action == "decline":
        form = next(f for f in forms(page.text) if ("mockidp_action", "decline") in f["fields"])
        return b.post(server.url(form["action"]), data=form["fields"])
    form = next(f for f in forms(page.text) if ("mockidp_action", "signin") in f["fields"])
    fields = [(k, v) for k, v in form["fields"] if k not in ("username", "password")]
    return b.post(server.url(form["action"]), data=fields + [("username", username), ("password", password)])


def run_flow(app, flow):
    box = {}
    thread = threading.Thread(target=lambda: box.update(result=app.acquire_token_by_device_flow(flow)))
    thread.start()
    return thread, box


def test_device_flow_signed_in_at_devicelogin(server):
    app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
    flow = app.initiate_device_flow(["User.Read"])
    assert flow["verification_uri"] == server.url("/devicelogin")
    assert flow["user_code"] in flow["message"]
    thread, box = run_flow(app, flow)
    done = device_login(server, flow["user_code"], "signin", ALICE, "alice-password")
    assert "You have signed in" in done.text
    thread.join(timeout=60)
    result = box["result"]
    assert result.get("id_token_claims", {}).get("oid") == ALICE_OID, result
    # The user code is spent: entering it again is refused.
    again = requests.Session()
    again.verify = server.ca
    page = again.get(server.url("/devicelogin"))
    form = forms(page.text)[0]
    r = again.post(server.url(form["action"]), data=[(k, v) for k, v in form["fields"] if k != "user_code"] + [("user_code", flow["user_code"])])
    assert "Check the code and try again" in r.text


def test_device_flow_declined(server):
    app = msal.PublicClientApplication(MOBILE, authority=server.url("/" + CONTOSO), instance_discovery=False)
    flow = app.initiate_device_flow(["User.Read"])
    thread, box = run_flow(app, flow)
    assert "declined" in device_login(server, flow["user_code"], "decline").text
    thread.join(timeout=60)
    assert box["result"]["error"] == "authorization_declined"
