"""The soak run's body (see bench/soak): flows in threads against one server over TLS, each answer checked."""
import base64, hashlib, json, os, secrets, subprocess, sys, tempfile, threading, time
from urllib.parse import parse_qs, urlparse

import requests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "clients"))
from html_forms import forms  # noqa: E402  (the client tests' form reader)

TENANT = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
MOBILE = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
DAEMON, DAEMON_SECRET = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d", "daemon-secret"
ALICE, ALICE_PASSWORD = "alice@contoso.onmicrosoft.com", "alice-password"
WARM_UP_SECONDS = 60
RSS_GROWTH_LIMIT_MB = 16
DESCRIPTOR_GROWTH_LIMIT = 32


class Unexpected(Exception):
    pass


def expect(condition, what, response=None):
    if not condition:
        detail = "" if response is None else " (%s %s)" % (response.status_code, response.text[:200].replace("\n", " "))
        raise Unexpected(what + detail)


class Soak:
    def __init__(self, base, ca):
        self.base, self.ca = base, ca
        self.token_url = base + "/%s/oauth2/v2.0/token" % TENANT
        self.counts = {}
        self.failures = []
        self.oversize_resets = 0
        self.lock = threading.Lock()

    def session(self):
        s = requests.Session()
        s.verify = self.ca
        s.trust_env = False
        return s

    # Each flow: one round, raising Unexpected on any answer that is not what the server must give.
    def client_credentials(self, s):
        r = s.post(self.token_url, data={"grant_type": "client_credentials", "client_id": DAEMON,
                                         "client_secret": DAEMON_SECRET, "scope": "api://contoso-api/.default"})
        expect(r.status_code == 200 and "access_token" in r.json(), "client credentials", r)

    def password_and_refresh(self, s):
        r = s.post(self.token_url, data={"grant_type": "password", "client_id": MOBILE, "username": ALICE,
                                         "password": ALICE_PASSWORD, "scope": "openid profile offline_access User.Read"})
        expect(r.status_code == 200 and "refresh_token" in r.json(), "password grant", r)
        refresh = r.json()["refresh_token"]
        r = s.post(self.token_url, data={"grant_type": "refresh_token", "client_id": MOBILE, "refresh_token": refresh,
                                         "scope": "openid offline_access User.Read"})
        expect(r.status_code == 200 and "access_token" in r.json(), "refresh grant", r)

    def code_with_pkce(self, _):
        browser = self.session()  # a new browser: no session cookie, so the page signs in
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        r = browser.get(self.base + "/%s/oauth2/v2.0/authorize" % TENANT, allow_redirects=False, params={
            "client_id": MOBILE, "response_type": "code", "redirect_uri": "http://localhost", "scope": "openid User.Read",
            "state": "s1", "code_challenge": challenge, "code_challenge_method": "S256"})
        expect(r.status_code == 200, "sign-in page", r)
        form = next((f for f in forms(r.text) if ("mockidp_action", "signin") in f["fields"]), None)
        expect(form is not None, "sign-in form", r)
        fields = [(k, v) for k, v in form["fields"] if k not in ("username", "password")]
        r = browser.post(self.base + form["action"], allow_redirects=False,
                         data=fields + [("username", ALICE), ("password", ALICE_PASSWORD)])
        expect(r.status_code == 302 and r.headers.get("Location", "").startswith("http://localhost"), "sign-in", r)
        query = parse_qs(urlparse(r.headers["Location"]).query)
        expect(query.get("state") == ["s1"] and "code" in query, "code in redirect")
        r = browser.post(self.token_url, data={"grant_type": "authorization_code", "client_id": MOBILE,
                                               "code": query["code"][0], "redirect_uri": "http://localhost",
                                               "code_verifier": verifier, "scope": "openid User.Read"})
        expect(r.status_code == 200 and "id_token" in r.json(), "code redemption", r)

    def device_code(self, s):
        r = s.post(self.base + "/%s/oauth2/v2.0/devicecode" % TENANT, data={"client_id": MOBILE, "scope": "openid User.Read"})
        expect(r.status_code == 200, "device code", r)
        flow = r.json()
        r = s.post(self.token_url, data={"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "client_id": MOBILE,
                                         "device_code": flow["device_code"]})
        expect(r.status_code == 400 and r.json()["error"] == "authorization_pending", "pending poll", r)
        browser = self.session()
        entry = browser.get(self.base + "/devicelogin")
        form = forms(entry.text)[0]
        fields = [(k, v) for k, v in form["fields"] if k != "user_code"] + [("user_code", flow["user_code"])]
        page = browser.post(self.base + form["action"], data=fields)
        form = next((f for f in forms(page.text) if ("mockidp_action", "signin") in f["fields"]), None)
        expect(form is not None, "device sign-in form", page)
        fields = [(k, v) for k, v in form["fields"] if k not in ("username", "password")]
        done = browser.post(self.base + form["action"], data=fields + [("username", ALICE), ("password", ALICE_PASSWORD)])
        expect(done.status_code == 200, "device sign-in", done)
        r = s.post(self.token_url, data={"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "client_id": MOBILE,
                                         "device_code": flow["device_code"]})
        expect(r.status_code == 200 and "access_token" in r.json(), "device token", r)

    def control(self, s):
        n = secrets.randbelow(20)  # a fixed pool of users, replaced again and again: the directory must not grow
        r = s.post(self.base + "/_mockidp/tenants/%s/users" % TENANT, json={
            "username": "soak%d@contoso.onmicrosoft.com" % n, "password": "p%d" % n, "claims": {"round": secrets.token_hex(4)}})
        expect(r.status_code == 201, "control: add user", r)
        r = s.post(self.base + "/_mockidp/claims", json={"clientId": DAEMON, "claims": {"soak": True}, "count": 1})
        expect(r.status_code in (200, 201), "control: claims", r)
        r = s.get(self.base + "/_mockidp/requests")
        expect(r.status_code == 200 and len(r.json()["requests"]) <= 1000, "control: request log", r)

    def bad_requests(self, s):
        huge = "x" * 100_000
        r = s.post(self.token_url, data={"grant_type": "client_credentials", "client_id": DAEMON,
                                         "client_secret": "wrong", "scope": "api://contoso-api/.default"})
        expect(r.status_code == 401 and r.json()["error"] == "invalid_client", "wrong secret", r)
        r = s.post(self.token_url, data={"grant_type": "client_credentials", "client_id": DAEMON,
                                         "client_secret": DAEMON_SECRET, "scope": huge})
        expect(r.status_code == 400, "huge scope", r)
        r = s.post(self.base + "/%s/oauth2/v2.0/devicecode" % TENANT, data={"client_id": MOBILE, "scope": huge})
        expect(r.status_code == 400, "device code with a huge scope", r)
        r = s.post(self.token_url, data=b"grant_type=%zz&&==", headers={"Content-Type": "application/x-www-form-urlencoded"})
        expect(r.status_code == 400, "malformed form", r)
        r = s.post(self.base + "/_mockidp/faults", data=b"{not json", headers={"Content-Type": "application/json"})
        expect(r.status_code == 400, "broken JSON", r)
        authorize = self.base + "/%s/oauth2/v2.0/authorize" % TENANT
        params = {"client_id": MOBILE, "redirect_uri": "http://localhost", "response_type": "code", "scope": "openid"}
        r = s.get(authorize, params=dict(params, state="s" * 40_000), allow_redirects=False)
        expect(r.status_code == 200, "40 KB state: the sign-in page", r)
        try:
            r = s.get(authorize, params=dict(params, state=huge), allow_redirects=False)
            expect(r.status_code == 414, "100 KB state: URI too long", r)
        except requests.ConnectionError:
            # libmicrohttpd answers a request line past the connection's memory with 414 and closes at once; a
            # client still sending then may see the connection reset before it reads the answer (over TLS, 18 of
            # 1,798 rounds of a 10-minute soak). Counted apart, never as an unexpected answer.
            with self.lock:
                self.oversize_resets += 1
            s.close()
        r = s.get(self.base + "/no/such/path/" + secrets.token_hex(8))
        expect(r.status_code == 404, "unknown path", r)
        r = s.post(self.token_url, data=b"x" * 2_000_000, headers={"Content-Type": "application/x-www-form-urlencoded"})
        expect(r.status_code == 413, "2 MB body", r)

    def run_flow(self, flow, stop):
        s = self.session()
        name = flow.__name__
        while not stop.is_set():
            try:
                flow(s)
                ok = True
            except Unexpected as error:
                ok = False
                with self.lock:
                    if len(self.failures) < 20:
                        self.failures.append("%s: %s" % (name, error))
            except requests.RequestException as error:
                ok = False
                with self.lock:
                    if len(self.failures) < 20:
                        self.failures.append("%s: %s" % (name, type(error).__name__))
                s = self.session()
            with self.lock:
                done, bad = self.counts.get(name, (0, 0))
                self.counts[name] = (done + 1, bad + (0 if ok else 1))


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


def main():
    binary, minutes = sys.argv[1], float(sys.argv[2])
    state = tempfile.mkdtemp(prefix="mockidp-soak-")
    ready = os.path.join(state, "ready")
    server = subprocess.Popen([binary, "serve", "--port", "0", "--state-dir", state, "--ready-file", ready,
                               "--log-level", "error"], stdout=subprocess.DEVNULL)
    while not os.path.exists(ready) or not open(ready).read().strip():
        time.sleep(0.05)
    soak = Soak(open(ready).read().strip(), os.path.join(state, "ca.pem"))
    stop = threading.Event()
    flows = [soak.client_credentials, soak.password_and_refresh, soak.code_with_pkce, soak.device_code,
             soak.control, soak.bad_requests]
    threads = [threading.Thread(target=soak.run_flow, args=(flow, stop)) for flow in flows for _ in range(2)]
    start = time.time()
    for t in threads:
        t.start()
    samples = []  # (seconds, rss MB, descriptors)
    while time.time() - start < minutes * 60:
        time.sleep(5)
        samples.append((time.time() - start, rss_mb(server.pid), len(os.listdir("/proc/%d/fd" % server.pid))))
    stop.set()
    for t in threads:
        t.join()
    server.terminate()
    exit_status = server.wait(timeout=30)
    warm = [s for s in samples if s[0] >= min(WARM_UP_SECONDS, minutes * 60 / 5)] or samples
    rss_growth = max(s[1] for s in warm) - warm[0][1]
    descriptor_growth = warm[-1][2] - warm[0][2]
    requests_total = sum(done for done, _ in soak.counts.values())
    unexpected = sum(bad for _, bad in soak.counts.values())
    figures = {
        "minutes": minutes, "rounds": {k: v[0] for k, v in sorted(soak.counts.items())}, "rounds_total": requests_total,
        "unexpected": unexpected, "failures": soak.failures, "oversize_resets": soak.oversize_resets,
        "rss_mb_start": round(samples[0][1], 1), "rss_mb_after_warm_up": round(warm[0][1], 1),
        "rss_mb_max": round(max(s[1] for s in samples), 1), "rss_mb_end": round(samples[-1][1], 1),
        "rss_growth_after_warm_up_mb": round(rss_growth, 1),
        "rss_mb_each_minute": [round(s[1], 1) for s in samples if int(s[0]) % 60 < 5],
        "descriptors_after_warm_up": warm[0][2], "descriptors_end": warm[-1][2], "server_exit": exit_status,
    }
    print(json.dumps(figures))
    ok = (unexpected == 0 and rss_growth <= RSS_GROWTH_LIMIT_MB and descriptor_growth <= DESCRIPTOR_GROWTH_LIMIT
          and exit_status == 0 and all(v[0] > 0 for v in soak.counts.values()))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
