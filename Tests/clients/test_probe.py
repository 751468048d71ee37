"""`mockidp probe` against real APIs: one that validates tokens fully with PyJWT (every verdict holds) and one
that forgets the audience check (the probe catches it and exits 1)."""
import http.server
import json
import subprocess
import threading

import jwt
import pytest
import requests

from conftest import API, CONTOSO, DAEMON, binary


class Validator:
    """An API's bearer-token check, as a careful team writes it with PyJWT: keys from the discovered jwks_uri,
    RS256 only, audience, issuer, lifetime, tenant and authorized party."""

    def __init__(self, server, check_audience=True):
        doc = requests.get(server.url("/%s/v2.0/.well-known/openid-configuration" % CONTOSO), verify=server.ca).json()
        jwks = requests.get(doc["jwks_uri"], verify=server.ca).json()
        self.keys = {k["kid"]: jwt.PyJWK(k) for k in jwks["keys"]}
        self.issuer = doc["issuer"]
        self.check_audience = check_audience

    def accepts(self, token):
        try:
            kid = jwt.get_unverified_header(token).get("kid")
            if kid not in self.keys:
                return False
            claims = jwt.decode(token, self.keys[kid].key, algorithms=["RS256"], audience=API, issuer=self.issuer,
                                options={"require": ["exp", "iat", "nbf", "iss", "aud", "sub"],
                                         "verify_aud": self.check_audience})
            return claims.get("tid") == CONTOSO and claims.get("azp") == DAEMON
        except jwt.PyJWTError:
            return False


def serve_api(validator):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            header = self.headers.get("Authorization", "")
            ok = header.startswith("Bearer ") and validator.accepts(header[7:])
            body = json.dumps({"hello": "world"} if ok else {"error": "invalid_token"}).encode()
            self.send_response(200 if ok else 401)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    api = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    return api


def probe(server, api, *extra):
    url = "http://127.0.0.1:%d/api/hello" % api.server_address[1]
    return subprocess.run([binary(), "probe", url, "--client", DAEMON, "--scope", "api://contoso-api/.default",
                           "--state-dir", server.state_dir, "--public-url", server.base_url, *extra],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def careful_api(server):
    api = serve_api(Validator(server))
    yield api
    api.shutdown()


def test_a_careful_api_refuses_every_defect(server, careful_api):
    run = probe(server, careful_api)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["defect", "status", "verdict"]
    assert lines[1].split()[:3] == ["(clean)", "200", "ok:"]
    for defect in ["bad-signature", "alg-none", "hs256-public-key", "unknown-kid", "no-kid", "wrong-issuer",
                   "wrong-audience", "wrong-tenant", "expired", "not-yet-valid", "issued-in-future", "no-iat", "no-sub",
                   "wrong-azp"]:
        row = next(line for line in lines if line.split()[0] == defect)
        assert row.split()[1:3] == ["401", "ok:"], row
    assert "skipped (this token cannot carry them): wrong-nonce, no-nonce, bad-c_hash, bad-at_hash" in run.stdout
    assert lines[-1] == "all 15 verdicts hold"


def test_an_api_without_the_audience_check_is_caught(server):
    api = serve_api(Validator(server, check_audience=False))
    try:
        run = probe(server, api, "--json")
    finally:
        api.shutdown()
    assert run.returncode == 1, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["passed"] is False
    failed = [r["defect"] for r in report["results"] if not r["ok"]]
    assert failed == ["wrong-audience"]
    row = next(r for r in report["results"] if r["defect"] == "wrong-audience")
    assert row["status"] == 200 and row["verdict"] == "FAIL: accepted, must be refused"
    assert report["results"][0] == {"defect": None, "status": 200, "verdict": "ok: accepted", "ok": True}


def test_a_tamper_fault_gives_the_next_token_its_defect(server):
    s = requests.Session()
    s.verify = server.ca
    r = s.post(server.url("/_mockidp/faults"), json={"tamper": "expired", "token": "access", "clientId": DAEMON})
    assert r.status_code == 201 and r.json()["tamper"] == "expired" and r.json()["count"] == 1, r.text
    validator = Validator(server)

    def token():
        return s.post(server.url("/%s/oauth2/v2.0/token" % CONTOSO),
                      data={"grant_type": "client_credentials", "client_id": DAEMON, "client_secret": "daemon-secret",
                            "scope": "api://contoso-api/.default"}).json()["access_token"]

    expired = token()
    assert not validator.accepts(expired)
    with pytest.raises(jwt.ExpiredSignatureError):
        jwt.decode(expired, validator.keys[jwt.get_unverified_header(expired)["kid"]].key, algorithms=["RS256"],
                   audience=API, issuer=validator.issuer)
    assert validator.accepts(token())


def test_a_defect_that_cannot_apply_is_refused_with_what_is_allowed(server):
    s = requests.Session()
    s.verify = server.ca
    r = s.post(server.url("/_mockidp/faults"), json={"tamper": "bad-c_hash", "token": "access"})
    assert r.status_code == 400 and "ID tokens only" in r.text and "wrong-audience" in r.text, r.text
    r = s.post(server.url("/_mockidp/faults"), json={"tamper": "no-such-defect"})
    assert r.status_code == 400 and "alg-none" in r.text, r.text
