"""Starts the real mockidp binary for the client-library tests and tears it down.

The binary path comes from MOCKIDP_BINARY (set by scripts/test); each server gets its own temporary state
directory, listens on a free port, and is found through --ready-file, as a user's CI would do it.
"""
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
import requests

CONTOSO = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
CONTOSO_DOMAIN = "contoso.onmicrosoft.com"
MOBILE = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
DAEMON = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
DAEMON_SECRET = "daemon-secret"
API = "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"
WEB = "5e8f1a2b-3c4d-4e5f-9a0b-1c2d3e4f5a6b"
WEB_SECRET = "web-secret"
ALICE = "alice@contoso.onmicrosoft.com"
ALICE_OID = "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a"


class Server:
    def __init__(self, base_url, ca, process, state_dir, stderr_path):
        self.base_url = base_url
        self.ca = ca
        self.process = process
        self.state_dir = state_dir
        self.stderr_path = stderr_path

    def url(self, path):
        return self.base_url + path

    def log(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()


def binary():
    path = os.environ.get("MOCKIDP_BINARY")
    if not path:
        pytest.fail("MOCKIDP_BINARY is not set: run the tests through scripts/test")
    return path


def start_server(extra_args=(), ports=("0",), tls=True, env=None):
    state_dir = tempfile.mkdtemp(prefix="mockidp-state-")
    ready = os.path.join(state_dir, "ready")
    stderr_path = os.path.join(state_dir, "stderr.log")
    args = [binary(), "serve", "--state-dir", state_dir, "--ready-file", ready]
    for p in ports:
        args += ["--port", str(p)]
    if not tls:
        args.append("--no-tls")
    args += list(extra_args)
    stderr = open(stderr_path, "w")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=stderr, env=env or os.environ.copy())
    deadline = time.time() + 20
    while not os.path.exists(ready):
        if process.poll() is not None:
            raise RuntimeError("mockidp exited with %s: %s" % (process.returncode, open(stderr_path).read()))
        if time.time() > deadline:
            process.kill()
            raise RuntimeError("mockidp did not become ready")
        time.sleep(0.01)
    base_url = open(ready).read().strip()
    return Server(base_url, os.path.join(state_dir, "ca.pem") if tls else None, process, state_dir, stderr_path)


def stop_server(server):
    server.process.send_signal(signal.SIGTERM)
    try:
        code = server.process.wait(timeout=10)
    finally:
        if server.process.poll() is None:
            server.process.kill()
    shutil.rmtree(server.state_dir, ignore_errors=True)
    return code


@contextlib.contextmanager
def serving(*configs):
    """A server for one module's own configuration files: trusted through REQUESTS_CA_BUNDLE while it runs (MSAL's
    requests session reads it), then stopped, the previous CA trusted again."""
    extra = []
    for config in configs:
        extra += ["--config", config]
    s = start_server(extra)
    previous = os.environ.get("REQUESTS_CA_BUNDLE")
    os.environ["REQUESTS_CA_BUNDLE"] = s.ca
    try:
        yield s
    finally:
        if previous is not None:
            os.environ["REQUESTS_CA_BUNDLE"] = previous
        assert stop_server(s) == 0


@contextlib.contextmanager
def serving_yaml(text, name):
    """`serving` a configuration given as YAML text, written to a file `name` in a folder of its own."""
    path = os.path.join(tempfile.mkdtemp(prefix="mockidp-config-"), name)
    with open(path, "w") as f:
        f.write(text)
    with serving(path) as s:
        yield s


@pytest.fixture(scope="session")
def server():
    s = start_server()
    os.environ["REQUESTS_CA_BUNDLE"] = s.ca  # MSAL's requests session reads it (it overrides verify=)
    yield s
    assert stop_server(s) == 0


def own_session(server):
    """A session trusting only `server`'s CA: REQUESTS_CA_BUNDLE (set for the shared server) would override verify=
    for a server with its own CA."""
    s = requests.Session()
    s.trust_env = False
    s.verify = server.ca
    return s


@pytest.fixture
def session(server):
    sess = requests.Session()
    sess.verify = server.ca
    return sess

