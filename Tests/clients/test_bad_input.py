"""Hostile and malformed input gets a clear 4xx and never takes the server down."""
import socket
import ssl

from conftest import CONTOSO, DAEMON, DAEMON_SECRET


def token_url(server):
    return server.url("/%s/oauth2/v2.0/token" % CONTOSO)


def still_serving(session, server):
    assert session.get(server.url("/_mockidp/health")).json() == {"status": "ok"}


def test_malformed_form_body(session, server):
    r = session.post(token_url(server), data=b"grant_type=%zz&client_id=x",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    still_serving(session, server)


def test_invalid_utf8_in_the_body(session, server):
    r = session.post(token_url(server), data=b"grant_type=client_credentials&client_id=%ff%fe",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    still_serving(session, server)


def test_duplicate_parameters(session, server):
    r = session.post(token_url(server), data=[("grant_type", "client_credentials"), ("client_id", DAEMON),
                                              ("client_id", DAEMON), ("client_secret", DAEMON_SECRET),
                                              ("scope", "api://contoso-api/.default")])
    assert r.status_code == 400
    assert r.json()["error_codes"] == [9000411]
    still_serving(session, server)


def test_two_mebibyte_body_is_refused(session, server):
    r = session.post(token_url(server), data=b"a=" + b"b" * (2 * 1024 * 1024),
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    still_serving(session, server)


def test_unknown_paths(session, server):
    for path in ["/nope", "/%s/oauth2/v2.0/nothing" % CONTOSO, "/../../etc/passwd", "/%00"]:
        r = session.get(server.url(path))
        assert 400 <= r.status_code < 500, (path, r.status_code)
    still_serving(session, server)


def test_json_body_on_the_token_endpoint(session, server):
    r = session.post(token_url(server), json={"grant_type": "client_credentials"})
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    still_serving(session, server)


def test_garbage_on_the_socket(server, session):
    """Malformed request lines get an error or a closed connection; a NUL byte leaves the connection to the idle
    timeout. Either way other clients are served meanwhile."""
    host, port = server.base_url.split("//")[1].rsplit(":", 1)
    context = ssl.create_default_context(cafile=server.ca)
    answers = []
    for payload in [b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"\x00\x01GARBAGE \xff\xfe HTTP/9.9\r\n\r\n"]:
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            with context.wrap_socket(raw, server_hostname=host) as s:
                s.sendall(payload)
                s.settimeout(1)
                try:
                    answers.append(s.recv(4096)[:12])
                except (TimeoutError, socket.timeout):
                    answers.append(None)
                still_serving(session, server)
    assert answers[0] in (b"", b"HTTP/1.1 400")
    assert answers[1] == b"HTTP/1.1 505"
    assert answers[2] == b"HTTP/1.1 400"
