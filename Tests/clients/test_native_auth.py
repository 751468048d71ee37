"""External ID's native authentication API, driven by a wire replica of MSAL for iOS and macOS's native-auth requests
(MSAL/src/native_auth/network in AzureAD/microsoft-authentication-library-for-objc: the same endpoints as
`MSALNativeAuthEndpoint`, the same parameters as the request-parameter types' `makeRequestBody`, the same grant types
as `MSALNativeAuthGrantType`, capabilities as `MSALNativeAuthInternalCapability`, form-encoded POSTs with the headers
MSAL's HTTP layer adds): sign-in with a password and with a one-time passcode, sign-up with attributes asked again,
password reset with polling, MFA, and every error; each token verified by PyJWT from the discovered key set."""
import json
import uuid

import jwt
import pytest

from conftest import own_session, serving_yaml

TENANT = "5e1b2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
DOMAIN = "contosocustomers.onmicrosoft.com"
OTP_TENANT = "6f2c3d4e-5a6b-4c7d-9e8f-0a1b2c3d4e5f"
NATIVE = "8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d"
OTHER_NATIVE = "9b0c1d2e-3f4a-4b5c-9d7e-8f9a0b1c2d3e"
PLAIN = "0c1d2e3f-4a5b-4c6d-8e8f-9a0b1c2d3e4f"
DAEMON, DAEMON_SECRET = "1d2e3f4a-5b6c-4d7e-9f9a-0b1c2d3e4f5a", "daemon-secret"
DANA, DANA_PASSWORD = "dana@example.com", "Dana-passw0rd"
ERIN, ERIN_PASSWORD = "erin@example.com", "Erin-passw0rd"
FINN = "finn@example.com"

CONFIG = """
tenants:
  - id: %(tenant)s
    domains: [%(domain)s]
    name: Contoso Customers
    externalId:
      subdomain: contosocustomers
      attributes: [displayName, city]
    users:
      - username: dana@contosocustomers.onmicrosoft.com
        email: %(dana)s
        password: %(dana_password)s
      - username: %(erin)s
        password: %(erin_password)s
        requireMfa: true
    apps:
      - clientId: %(native)s
        type: public
        nativeAuth: true
      - clientId: %(other)s
        type: public
        nativeAuth: true
      - clientId: %(plain)s
        type: public
      - clientId: %(daemon)s
        secret: %(daemon_secret)s
        apiPermissions:
          https://graph.microsoft.com: [User.Read.All]
  - id: %(otp)s
    domains: [fabrikamcustomers.onmicrosoft.com]
    externalId:
      subdomain: fabrikamcustomers
      signIn: otp
      signUp: false
    users:
      - username: %(finn)s
        password: unused-Passw0rd
    apps:
      - clientId: %(native)s
        type: public
        nativeAuth: true
""" % {"tenant": TENANT, "domain": DOMAIN, "dana": DANA, "dana_password": DANA_PASSWORD, "erin": ERIN,
       "erin_password": ERIN_PASSWORD, "native": NATIVE, "other": OTHER_NATIVE, "plain": PLAIN, "daemon": DAEMON,
       "daemon_secret": DAEMON_SECRET, "otp": OTP_TENANT, "finn": FINN}

# MSALNativeAuthInternalChallengeType and MSALNativeAuthInternalCapability, joined with spaces as
# MSALNativeAuthInternalConfiguration's challengeTypesString and capabilitiesString join them.
CHALLENGE_TYPES = "oob password redirect"
CAPABILITIES = "mfa_required registration_required"


@pytest.fixture(scope="module")
def ciam():
    with serving_yaml(CONFIG, "external-id.yaml") as s:
        yield s


class NativeAuthClient:
    """What MSAL's native-auth request layer puts on the wire: a form-encoded POST of `makeRequestBody`'s
    parameters to `authority + MSALNativeAuthEndpoint`, with MSAL's client headers and a correlation ID."""

    def __init__(self, server, tenant=TENANT, client_id=NATIVE, challenge_types=CHALLENGE_TYPES, capabilities=None):
        self.server, self.tenant, self.client_id = server, tenant, client_id
        self.challenge_types, self.capabilities = challenge_types, capabilities
        self.session = own_session(server)
        self.correlation_id = str(uuid.uuid4())

    def post(self, path, **body):
        headers = {"x-client-SKU": "MSAL.iOS", "x-client-Ver": "2.0.0", "x-client-OS": "17.0", "x-client-DM": "iPhone",
                   "client-request-id": self.correlation_id, "return-client-request-id": "true",
                   "x-app-name": "Contoso", "x-app-ver": "1.0", "Accept": "application/json"}
        form = {"client_id": self.client_id}
        form.update({k: v for k, v in body.items() if v is not None})
        return self.session.post(self.server.url("/%s%s" % (self.tenant, path)), data=form, headers=headers)

    # MSALNativeAuthSignInInitiateRequestParameters … MSALNativeAuthTokenRequestParameters.
    def initiate(self, username):
        return self.post("/oauth2/v2.0/initiate", username=username, challenge_type=self.challenge_types, capabilities=self.capabilities)

    def challenge(self, token, mfa_id=None):
        return self.post("/oauth2/v2.0/challenge", continuation_token=token, challenge_type=self.challenge_types, id=mfa_id)

    def introspect(self, token):
        return self.post("/oauth2/v2.0/introspect", continuation_token=token)

    def token(self, grant_type, token, username=None, password=None, oob=None, scope="openid profile offline_access"):
        return self.post("/oauth2/v2.0/token", username=username, continuation_token=token, grant_type=grant_type,
                         scope=scope, password=password, oob=oob, client_info="true")

    def signup_start(self, username, password=None, attributes=None):
        return self.post("/signup/v1.0/start", username=username, password=password,
                         attributes=json.dumps(attributes) if attributes is not None else None,
                         challenge_type=self.challenge_types, capabilities=self.capabilities)

    def signup_challenge(self, token):
        return self.post("/signup/v1.0/challenge", continuation_token=token, challenge_type=self.challenge_types)

    def signup_continue(self, token, grant_type, password=None, oob=None, attributes=None):
        return self.post("/signup/v1.0/continue", grant_type=grant_type, continuation_token=token, password=password, oob=oob,
                         attributes=json.dumps(attributes) if attributes is not None else None)

    def reset_start(self, username):
        return self.post("/resetpassword/v1.0/start", username=username, challenge_type=self.challenge_types, capabilities=self.capabilities)

    def reset_challenge(self, token):
        return self.post("/resetpassword/v1.0/challenge", continuation_token=token, challenge_type=self.challenge_types)

    def reset_continue(self, token, oob):
        return self.post("/resetpassword/v1.0/continue", continuation_token=token, grant_type="oob", oob=oob)

    def reset_submit(self, token, new_password):
        return self.post("/resetpassword/v1.0/submit", continuation_token=token, new_password=new_password)

    def reset_poll(self, token):
        return self.post("/resetpassword/v1.0/poll_completion", continuation_token=token)


def ok(reply):
    assert reply.status_code == 200, reply.text
    return reply.json()


def refused(reply, error, code=None, status=400, suberror=None):
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["error"] == error, body
    if code is not None:
        assert body["error_codes"] == [code] and body["error_description"].startswith("AADSTS%d: " % code), body
    assert isinstance(body["error_codes"], list) and all(isinstance(c, int) for c in body["error_codes"])
    assert "Trace ID: " in body["error_description"] and "Correlation ID: " in body["error_description"]
    assert body["trace_id"] and body["correlation_id"] and body["timestamp"]
    if suberror is not None:
        assert body.get("suberror") == suberror, body
    return body


def outbox_code(server, address):
    s = own_session(server)
    messages = s.get(server.url("/_mockidp/outbox")).json()["messages"]
    return [m for m in messages if m["to"] == address][-1]


def verified(server, tokens, tenant=TENANT, audience=NATIVE):
    """The ID token's claims, the ID and access tokens verified by PyJWT against the discovered key set."""
    s = own_session(server)
    doc = s.get(server.url("/%s/v2.0/.well-known/openid-configuration" % tenant)).json()
    keys = {k["kid"]: jwt.PyJWK(k) for k in s.get(doc["jwks_uri"]).json()["keys"]}

    def key(token):
        return keys[jwt.get_unverified_header(token)["kid"]].key

    claims = jwt.decode(tokens["id_token"], key(tokens["id_token"]), algorithms=["RS256"], audience=audience, issuer=doc["issuer"],
                        options={"require": ["exp", "iat", "nbf", "iss", "aud"]})
    # The access token is Microsoft Graph's (its issuer is Graph's token version's): its signature and lifetime.
    access = jwt.decode(tokens["access_token"], key(tokens["access_token"]), algorithms=["RS256"], options={"verify_aud": False})
    assert access["tid"] == tenant and access["oid"] == claims["oid"]
    assert claims["tid"] == tenant and claims["ver"] == "2.0" and "tfp" not in claims
    assert tokens["refresh_token"] and tokens["client_info"]
    return claims


def password_step(client, username):
    initiated = ok(client.initiate(username))
    challenged = ok(client.challenge(initiated["continuation_token"]))
    assert challenged["challenge_type"] == "password"
    return challenged["continuation_token"]


def test_sign_in_with_a_password_gives_a_browser_sign_ins_tokens_and_refresh_works(ciam):
    client = NativeAuthClient(ciam)
    tokens = ok(client.token("password", password_step(client, DANA), username=DANA, password=DANA_PASSWORD))
    claims = verified(ciam, tokens)
    assert claims["preferred_username"] == "dana@contosocustomers.onmicrosoft.com"
    refreshed = ok(client.post("/oauth2/v2.0/token", grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                               scope="openid profile offline_access", client_info="1"))
    assert verified(ciam, refreshed)["oid"] == claims["oid"]


def test_a_wrong_password_is_50126_and_the_step_stays_open_then_the_token_is_spent(ciam):
    client = NativeAuthClient(ciam)
    step = password_step(client, DANA)
    refused(client.token("password", step, username=DANA, password="wrong"), "invalid_grant", 50126)
    verified(ciam, ok(client.token("password", step, username=DANA, password=DANA_PASSWORD)))
    refused(client.token("password", step, username=DANA, password=DANA_PASSWORD), "invalid_grant", 55200)


def test_sign_in_with_a_one_time_passcode_from_the_outbox(ciam):
    client = NativeAuthClient(ciam, tenant=OTP_TENANT)
    initiated = ok(client.initiate(FINN))
    challenged = ok(client.challenge(initiated["continuation_token"]))
    assert challenged["challenge_type"] == "oob" and challenged["code_length"] == 8 and challenged["binding_method"] == "prompt"
    assert challenged["challenge_channel"] == "email" and "***" in challenged["challenge_target_label"]
    message = outbox_code(ciam, FINN)
    assert message["purpose"] == "signIn" and len(message["code"]) == 8 and message["code"].isdigit()
    wrong = "00000000" if message["code"] != "00000000" else "11111111"
    refused(client.token("oob", challenged["continuation_token"], oob=wrong), "invalid_grant", suberror="invalid_oob_value")
    tokens = ok(client.token("oob", challenged["continuation_token"], oob=message["code"]))
    verified(ciam, tokens, tenant=OTP_TENANT)
    # The code is used: its token is spent.
    refused(client.token("oob", challenged["continuation_token"], oob=message["code"]), "invalid_grant")


def test_sign_up_with_attributes_asked_again_then_signed_in_and_listed_by_graph(ciam):
    client = NativeAuthClient(ciam)
    started = ok(client.signup_start("gail@example.com", password="Gail-passw0rd", attributes={"city": "Oslo", "unknown": "x"}))
    challenged = ok(client.signup_challenge(started["continuation_token"]))
    assert challenged["challenge_type"] == "oob" and challenged["interval"] == 300
    code = outbox_code(ciam, "gail@example.com")
    assert code["purpose"] == "signUp"
    needs = refused(client.signup_continue(challenged["continuation_token"], "oob", oob=code["code"]), "attributes_required", 55106)
    assert needs["required_attributes"] == [{"name": "displayName", "type": "string", "required": True}]
    malformed = refused(client.signup_continue(needs["continuation_token"], "attributes", attributes={"displayName": 42}),
                        "invalid_grant", suberror="attribute_validation_failed")
    assert malformed["invalid_attributes"] == [{"name": "displayName"}]
    still = refused(client.signup_continue(needs["continuation_token"], "attributes", attributes={"city": "Bergen"}),
                    "attributes_required", 55106)
    done = ok(client.signup_continue(still["continuation_token"], "attributes", attributes={"displayName": "Gail"}))
    tokens = ok(client.token("continuation_token", done["continuation_token"], username="gail@example.com"))
    claims = verified(ciam, tokens)
    assert claims["name"] == "Gail"
    # A fresh oid, the same at the next sign-in, and Graph lists the user.
    again = ok(client.token("password", password_step(client, "gail@example.com"), username="gail@example.com", password="Gail-passw0rd"))
    assert verified(ciam, again)["oid"] == claims["oid"]
    s = own_session(ciam)
    app = s.post(ciam.url("/%s/oauth2/v2.0/token" % TENANT), data={
        "grant_type": "client_credentials", "client_id": DAEMON, "client_secret": DAEMON_SECRET,
        "scope": "https://graph.microsoft.com/.default"}).json()
    users = s.get(ciam.url("/v1.0/users?$select=id,displayName,city"), headers={"Authorization": "Bearer " + app["access_token"]}).json()["value"]
    listed = [u for u in users if u["id"] == claims["oid"]]
    assert listed and listed[0]["displayName"] == "Gail" and listed[0].get("city") == "Bergen"
    refused(client.signup_start("gail@example.com"), "user_already_exists", 1003037)


def test_sign_up_without_a_password_is_asked_for_one_and_the_policy_holds(ciam):
    client = NativeAuthClient(ciam)
    started = ok(client.signup_start("hal@example.com", attributes={"displayName": "Hal", "city": "Rome"}))
    challenged = ok(client.signup_challenge(started["continuation_token"]))
    needs = refused(client.signup_continue(challenged["continuation_token"], "oob", oob=outbox_code(ciam, "hal@example.com")["code"]),
                    "credential_required", 55103)
    asked = ok(client.signup_challenge(needs["continuation_token"]))
    assert asked["challenge_type"] == "password"
    refused(client.signup_continue(asked["continuation_token"], "password", password="short"), "invalid_grant", suberror="password_too_short")
    refused(client.signup_continue(asked["continuation_token"], "password", password="all-lower-case"), "invalid_grant", suberror="password_too_weak")
    done = ok(client.signup_continue(asked["continuation_token"], "password", password="Hal-passw0rd"))
    verified(ciam, ok(client.token("continuation_token", done["continuation_token"], username="hal@example.com")))


def test_password_reset_with_polling_then_signed_in(ciam):
    client = NativeAuthClient(ciam)
    refused(client.reset_start("nobody@example.com"), "user_not_found", 50034)
    started = ok(client.reset_start(DANA))
    challenged = ok(client.reset_challenge(started["continuation_token"]))
    code = outbox_code(ciam, DANA)
    assert code["purpose"] == "passwordReset"
    refused(client.reset_continue(challenged["continuation_token"], "12345678" if code["code"] != "12345678" else "87654321"),
            "invalid_grant", suberror="invalid_oob_value")
    verified_code = ok(client.reset_continue(challenged["continuation_token"], code["code"]))
    assert verified_code["expires_in"] == 600
    refused(client.reset_submit(verified_code["continuation_token"], "weak"), "invalid_grant", suberror="password_too_short")
    submitted = ok(client.reset_submit(verified_code["continuation_token"], "Dana-Reset-passw0rd"))
    assert submitted["poll_interval"] == 2
    # MSAL polls with the submit's token while the status is in_progress or not_started.
    statuses = []
    for _ in range(5):
        polled = ok(client.reset_poll(submitted["continuation_token"]))
        statuses.append(polled["status"])
        if polled["status"] == "succeeded":
            break
    assert statuses == ["in_progress", "succeeded"]
    verified(ciam, ok(client.token("continuation_token", polled["continuation_token"], username=DANA)))
    refused(client.token("password", password_step(client, DANA), username=DANA, password=DANA_PASSWORD), "invalid_grant", 50126)
    # Put Dana's password back for the other tests.
    started = ok(client.reset_start(DANA))
    challenged = ok(client.reset_challenge(started["continuation_token"]))
    verified_code = ok(client.reset_continue(challenged["continuation_token"], outbox_code(ciam, DANA)["code"]))
    ok(client.reset_submit(verified_code["continuation_token"], DANA_PASSWORD))


def test_mfa_with_the_capability_then_redirect_without_it(ciam):
    client = NativeAuthClient(ciam, capabilities=CAPABILITIES)
    challenge = refused(client.token("password", password_step(client, ERIN), username=ERIN, password=ERIN_PASSWORD),
                        "invalid_grant", 50076, suberror="mfa_required")
    methods = ok(client.introspect(challenge["continuation_token"]))
    method = methods["methods"][0]
    assert method["challenge_type"] == "oob" and method["challenge_channel"] == "email" and "***" in method["login_hint"]
    sent = ok(client.challenge(methods["continuation_token"], mfa_id=method["id"]))
    assert sent["challenge_type"] == "oob" and sent["code_length"] == 8
    code = outbox_code(ciam, ERIN)
    assert code["purpose"] == "mfa"
    tokens = ok(client.token("mfa_oob", sent["continuation_token"], oob=code["code"]))
    verified(ciam, tokens)
    assert "mfa" in jwt.decode(tokens["access_token"], options={"verify_signature": False})["amr"]
    plain = NativeAuthClient(ciam)
    redirect = ok(plain.token("password", password_step(plain, ERIN), username=ERIN, password=ERIN_PASSWORD))
    assert redirect["challenge_type"] == "redirect" and "access_token" not in redirect


def test_challenge_type_and_client_errors(ciam):
    client = NativeAuthClient(ciam, challenge_types="oob password")
    refused(client.initiate(DANA), "invalid_request", 901007)
    refused(NativeAuthClient(ciam, challenge_types="sms redirect").initiate(DANA), "unsupported_challenge_type")
    disabled = refused(NativeAuthClient(ciam, client_id=PLAIN).initiate(DANA), "invalid_client", status=401, suberror="nativeauthapi_disabled")
    assert disabled["error_codes"]
    refused(NativeAuthClient(ciam, client_id=str(uuid.uuid4())).initiate(DANA), "unauthorized_client", 700016)
    refused(NativeAuthClient(ciam, client_id="not-a-guid").initiate(DANA), "invalid_request", 90100)
    refused(NativeAuthClient(ciam).initiate("not-an-email"), "invalid_request", 90100)
    refused(NativeAuthClient(ciam).initiate("nobody@example.com"), "user_not_found", 50034)
    # The client cannot do the tenant's method: the browser.
    assert ok(NativeAuthClient(ciam, challenge_types="oob redirect").initiate(DANA)) == {"challenge_type": "redirect"}
    assert ok(NativeAuthClient(ciam, challenge_types="oob redirect").signup_start("ivy@example.com")) == {"challenge_type": "redirect"}
    # Missing and repeated parameters.
    s = NativeAuthClient(ciam)
    refused(s.post("/oauth2/v2.0/initiate", username=DANA), "invalid_request", 900144)
    repeated = s.session.post(ciam.url("/%s/oauth2/v2.0/initiate" % TENANT),
                              data=[("client_id", NATIVE), ("username", DANA), ("username", DANA), ("challenge_type", "password redirect")])
    refused(repeated, "invalid_request", 9000411)
    refused(s.post("/oauth2/v2.0/challenge", challenge_type="password redirect"), "invalid_request", 900144)
    # Sign-up's inputs.
    refused(s.signup_start("ivy@example.com", attributes={"city": "x" * 9000}), "invalid_request", 90100)
    refused(s.post("/signup/v1.0/start", username="ivy@example.com", challenge_type=CHALLENGE_TYPES, attributes="{not json"), "invalid_request", 90100)
    refused(s.signup_start("ivy@example.com", password="short"), "invalid_grant", suberror="password_too_short")
    refused(NativeAuthClient(ciam, tenant=OTP_TENANT).signup_start("ivy@example.com"), "unauthorized_client")
    # The ROPC grant stays refused.
    refused(s.post("/oauth2/v2.0/token", grant_type="password", username=DANA, password=DANA_PASSWORD, scope="openid"),
            "unsupported_grant_type", 70003)


def test_continuation_tokens_replayed_foreign_misplaced_and_expired(ciam):
    client = NativeAuthClient(ciam)
    initiated = ok(client.initiate(DANA))["continuation_token"]
    refused(NativeAuthClient(ciam, client_id=OTHER_NATIVE).challenge(initiated), "invalid_grant", 55200)
    refused(client.signup_challenge(initiated), "invalid_grant", 55200)
    refused(client.reset_challenge(initiated), "invalid_grant", 55200)
    refused(client.token("password", initiated, password=DANA_PASSWORD), "invalid_grant", 55200)
    refused(NativeAuthClient(ciam, tenant=OTP_TENANT).challenge(initiated), "invalid_grant", 55200)
    refused(client.post("/register/v1.0/introspect", continuation_token=initiated), "invalid_grant", 55200)
    step = ok(client.challenge(initiated))["continuation_token"]
    refused(client.challenge(initiated), "invalid_grant", 55200)
    s = own_session(ciam)
    s.post(ciam.url("/_mockidp/clock"), json={"advance": 601}).raise_for_status()
    try:
        refused(client.token("password", step, password=DANA_PASSWORD), "expired_token", 552003)
    finally:
        s.post(ciam.url("/_mockidp/reset"), json={}).raise_for_status()  # back to the real time


def test_the_paths_answer_at_the_ciamlogin_host_by_guid_and_domain(ciam):
    s = own_session(ciam)
    for tenant in (TENANT, DOMAIN):
        r = s.post(ciam.url("/%s/oauth2/v2.0/initiate" % tenant), headers={"Host": "contosocustomers.ciamlogin.com"},
                   data={"client_id": NATIVE, "username": DANA, "challenge_type": "password redirect"})
        assert r.status_code == 200 and r.json()["continuation_token"], r.text
