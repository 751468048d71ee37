"""The runtime stage of docker/Dockerfile, proven without a Docker engine.

The test reads the Dockerfile and carries out its runtime stage by hand: `debootstrap` builds the stage's base
(Debian minbase of the suite named in `FROM debian:<suite>-slim`) with exactly the packages of its `apt-get install`
line, every other `RUN` runs in a `chroot`, `COPY --from=build` copies the binary the build stage made (run by
build_stage.py the same way), and the server starts there with the stage's `ENV`, `USER`, `WORKDIR`,
`ENTRYPOINT` and `CMD`. Then it gets a token, verifies it with PyJWT, runs the `HEALTHCHECK` command inside the root
(it must pass while the server runs and fail once it stopped), and checks `--public-url` the way a compose network
uses it. Needs root (debootstrap, chroot, mount); skipped otherwise.

The Debian root is cached under .build-runtime-stage/, keyed on the suite, the package list and the mirror, so a
second run skips debootstrap; a fresh clone (CI) builds it. The mirror is the one this machine's apt uses.
MOCKIDP_RELEASE_BINARY names a release binary made on this machine instead (scripts/build-release), which skips
the build stage.
"""

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import jwt
import pytest
import requests
import yaml

from stages import (CONTAINER_PATH, DOCKERFILE, ROOT, apt_packages, build_stage_output, cached_base, debian_mirror,
                    env_pairs, mount_kernel_filesystems, needs_root, remove_tree, report, stage, user_ids)

SCRATCH = ROOT / ".build-runtime-stage"
DAEMON = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
API = "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"
CONTOSO = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"


# ----------------------------------------------------------------------------------------------------------------
# Reading the runtime stage


class RuntimeStage:
    """The runtime stage, read into what running it needs."""

    def __init__(self, text):
        steps = stage(text, "runtime")
        base = re.fullmatch(r"debian:(\w+)-slim\s+AS\s+runtime", steps[0][1], re.IGNORECASE)
        assert base, f"the runtime stage must start FROM debian:<suite>-slim, not {steps[0][1]}"
        self.suite = base.group(1)
        self.packages, self.runs, self.copies, self.env, self.volumes = None, [], [], {}, []
        self.user, self.workdir, self.expose, self.healthcheck = "root", "/", None, None
        self.entrypoint, self.cmd, self.workdirs = [], [], []
        for keyword, rest in steps[1:]:
            if keyword == "RUN":
                packages = apt_packages(rest)
                if packages is not None:
                    assert self.packages is None, "the runtime stage must install its packages in one apt-get line"
                    self.packages = packages
                else:
                    # A RUN sees the USER, WORKDIR and ENV set before it, as in Docker.
                    self.runs.append((rest, self.user, self.workdir, dict(self.env)))
            elif keyword == "COPY":
                words = shlex.split(rest)
                assert words[0] == "--from=build" and len(words) == 3, f"unsupported COPY: {rest}"
                self.copies.append((words[1], words[2]))
            elif keyword == "ENV":
                self.env.update(env_pairs(rest))
            elif keyword == "USER":
                self.user = rest
            elif keyword == "WORKDIR":
                self.workdir = rest
                self.workdirs.append(rest)
            elif keyword == "VOLUME":
                self.volumes += json.loads(rest) if rest.startswith("[") else rest.split()
            elif keyword == "EXPOSE":
                self.expose = rest.split("/")[0]
            elif keyword == "HEALTHCHECK":
                self.healthcheck = rest.split(" CMD ", 1)[1]
            elif keyword == "ENTRYPOINT":
                self.entrypoint = json.loads(rest)
            elif keyword == "CMD":
                self.cmd = json.loads(rest)
            else:
                raise AssertionError(f"the runtime-stage test does not know {keyword}: teach it, or keep to the header's list")
        assert self.packages, "the runtime stage installs no packages"


# ----------------------------------------------------------------------------------------------------------------
# The machine


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ----------------------------------------------------------------------------------------------------------------
# The container, by hand


class Container:
    """A working copy of the cached root with the stage's remaining steps applied; /proc and /dev mounted."""

    def __init__(self, runtime, base, binary, build_output):
        self.runtime = runtime
        self.root = SCRATCH / "container"
        remove_tree(self.root)
        subprocess.run(["cp", "-a", str(base), str(self.root)], check=True)
        mount_kernel_filesystems(self.root)
        for command, user, workdir, env in runtime.runs:
            (self.root / workdir.lstrip("/")).mkdir(parents=True, exist_ok=True)
            ids = "0:0" if user in ("root", "0") else "%d:%d" % self.ids(user)
            result = subprocess.run(self.command(["/bin/sh", "-c", command], ids=ids, workdir=workdir, env=env, stage_env=False),
                                    capture_output=True, text=True, timeout=120)
            assert result.returncode == 0, f"RUN {command} failed in the root:\n{result.stderr}"
        for workdir in runtime.workdirs:
            (self.root / workdir.lstrip("/")).mkdir(parents=True, exist_ok=True)
        for source, destination in runtime.copies:
            assert source == build_output, f"COPY --from=build {source}: the build stage makes {build_output}"
            target = self.root / destination.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(binary, target)
        for volume in runtime.volumes:
            (self.root / volume.lstrip("/")).mkdir(parents=True, exist_ok=True)
        self.uid, self.gid = self.ids(runtime.user)

    def ids(self, user):
        return user_ids(self.root, user)

    def command(self, argv, ids=None, workdir=None, env=None, stage_env=True):
        """argv run inside the root as the stage's final USER (or `ids`), in its WORKDIR, with a container's clean
        environment: the stage's ENV (unless `stage_env` is false) and `env`."""
        workdir = workdir or self.runtime.workdir
        environment = {"PATH": CONTAINER_PATH, "HOME": workdir, **(self.runtime.env if stage_env else {}), **(env or {})}
        return (["chroot", f"--userspec={ids or f'{self.uid}:{self.gid}'}", str(self.root), "/usr/bin/env", "-i",
                 f"--chdir={workdir}"] + [f"{k}={v}" for k, v in environment.items()] + argv)

    def chroot(self, argv, env=None, timeout=30):
        return subprocess.run(self.command(argv, env=env), capture_output=True, text=True, timeout=timeout)

    def close(self):
        remove_tree(self.root)


@pytest.fixture(scope="module")
def container(stage_binary):
    needs_root()
    text = DOCKERFILE.read_text()
    runtime = RuntimeStage(text)
    base = cached_base(SCRATCH, runtime.suite, runtime.packages, debian_mirror(runtime.suite))
    made = Container(runtime, base, stage_binary, build_stage_output(text))
    try:
        yield made
    finally:
        made.close()


class Server:
    """The stage's ENTRYPOINT + CMD (plus `extra` flags) running in the root."""

    def __init__(self, container, command=None, extra=(), env=None, network_namespace=False):
        self.container = container
        self.ready = container.root / "tmp" / "mockidp-ready"
        self.ready.unlink(missing_ok=True)
        # `command` replaces the stage's CMD, as `docker run IMAGE ARGS` and compose's `command:` do.
        argv = container.runtime.entrypoint + (command or container.runtime.cmd) + list(extra) + ["--ready-file", "/tmp/mockidp-ready"]
        command = container.command(argv, env=env)
        if network_namespace:
            # A network of its own (only loopback), as a container has: the stage's port cannot collide with the
            # host's. unshare and sh exec, so the process id stays the server's.
            command = ["unshare", "--net", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"] + command
        self.log = open(SCRATCH / "server.log", "w+")
        started = time.monotonic()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        while not self.ready.exists() or not self.ready.read_text().strip():
            if self.process.poll() is not None or time.monotonic() - started > 20:
                self.log.seek(0)
                pytest.fail(f"the server did not get ready in the root:\n{self.log.read()}")
            time.sleep(0.02)
        self.startup = time.monotonic() - started

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=15)
        self.log.close()
        return code


def state_file(container, name):
    return container.root / container.runtime.env["MOCKIDP_STATE_DIR"].lstrip("/") / name


# ----------------------------------------------------------------------------------------------------------------
# The tests


def test_the_runtime_stage_installs_only_what_the_binary_links():
    runtime = RuntimeStage(DOCKERFILE.read_text())
    assert runtime.suite == "bookworm"
    assert set(runtime.packages) <= {"libmicrohttpd12", "libssl3", "libxml2", "libxmlsec1", "libxmlsec1-openssl", "zlib1g",
                                     "libstdc++6", "curl", "ca-certificates"}
    assert runtime.expose == runtime.env.get("MOCKIDP_PORT") == "8443"
    assert runtime.env.get("MOCKIDP_HOST") == "0.0.0.0"
    assert runtime.user not in ("root", "0")
    assert runtime.env.get("MOCKIDP_STATE_DIR") in runtime.volumes
    assert "/_mockidp/health" in runtime.healthcheck


def test_the_release_binary_serves_a_token_in_the_runtime_root(container):
    version = container.chroot(["/usr/local/bin/mockidp", "--version"])
    assert version.returncode == 0, f"the binary does not run with the stage's libraries alone:\n{version.stderr}"
    port = free_port()
    server = Server(container, env={"MOCKIDP_PORT": str(port)})
    try:
        report(f"start to ready in the root: {server.startup * 1000:.0f} ms")
        status = Path(f"/proc/{server.process.pid}/status").read_text()
        assert re.search(rf"^Uid:\s+{container.uid}\s", status, re.MULTILINE), "the server must not run as root"
        assert server.ready.read_text().strip() == f"https://0.0.0.0:{port}"
        ca = state_file(container, "ca.pem")
        assert ca.exists() and (os.stat(state_file(container, "ca-key.pem")).st_mode & 0o077) == 0

        base = f"https://localhost:{port}"
        reply = requests.post(f"{base}/contoso.onmicrosoft.com/oauth2/v2.0/token", verify=str(ca), timeout=10, data={
            "grant_type": "client_credentials", "client_id": DAEMON, "client_secret": "daemon-secret",
            "scope": "api://contoso-api/.default"})
        assert reply.status_code == 200, reply.text
        token = reply.json()["access_token"]
        document = requests.get(f"{base}/{CONTOSO}/v2.0/.well-known/openid-configuration", verify=str(ca), timeout=10).json()
        keys = {k["kid"]: jwt.PyJWK(k) for k in requests.get(document["jwks_uri"], verify=str(ca), timeout=10).json()["keys"]}
        claims = jwt.decode(token, keys[jwt.get_unverified_header(token)["kid"]].key, algorithms=["RS256"],
                            audience=API, issuer=document["issuer"])
        assert claims["roles"] == ["Reader", "Writer"] and claims["tid"] == CONTOSO

        health = container.chroot(["/bin/sh", "-c", container.runtime.healthcheck], env={"MOCKIDP_PORT": str(port)})
        assert health.returncode == 0, f"HEALTHCHECK failed while the server runs:\n{health.stdout}{health.stderr}"
        assert '"ok"' in health.stdout
    finally:
        assert server.stop() == 0
    health = container.chroot(["/bin/sh", "-c", container.runtime.healthcheck], env={"MOCKIDP_PORT": str(port)})
    assert health.returncode != 0, "HEALTHCHECK passed with no server running"


def in_network(container, server, argv, ids=None, env=None):
    """argv in the server's network namespace: inside the root (as the stage's user, or `ids` with a clean
    environment), or on this machine when `ids` is "host"."""
    inner = argv if ids == "host" else container.command(argv, ids=ids, env=env, stage_env=ids is None)
    return subprocess.run(["nsenter", f"--net=/proc/{server.process.pid}/ns/net"] + inner,
                          capture_output=True, text=True, timeout=30, env=env if ids == "host" else None)


def verify(token, container, server, public, ca, ids):
    """PyJWT verifies `token` with the key set the discovery document of `public` names, fetched in the network."""
    def get(url):
        reply = in_network(container, server, ["curl", "-fsS", "--cacert", ca, url], ids=ids)
        assert reply.returncode == 0, reply.stderr
        return json.loads(reply.stdout)
    document = get(f"{public}/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
    assert document["issuer"] == f"{public}/{CONTOSO}/v2.0"
    keys = {k["kid"]: jwt.PyJWK(k) for k in get(document["jwks_uri"])["keys"]}
    return jwt.decode(token, keys[jwt.get_unverified_header(token)["kid"]].key, algorithms=["RS256"],
                      audience=API, issuer=document["issuer"])


def test_the_compose_example_gets_a_verified_token_through_the_service_name(container):
    """docker/compose.yaml's two commands, in a network namespace of their own: the server with the compose
    command (its --public-url and port 8443), the app's curl command as another user, the service name
    resolving to the server, the CA read from the shared volume."""
    services = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())["services"]
    server_command, app_command = services["mockidp"]["command"], services["app"]["command"]
    public = server_command[server_command.index("--public-url") + 1]
    host = re.match(r"https://([^:/]+)", public).group(1)
    state_volume, state_target = services["mockidp"]["volumes"][0].split(":")[:2]
    assert state_target == container.runtime.env["MOCKIDP_STATE_DIR"]
    app_mount = next(v.split(":")[1] for v in services["app"]["volumes"] if v.split(":")[0] == state_volume)
    assert services["app"]["depends_on"]["mockidp"]["condition"] == "service_healthy"
    # The compose network, by hand: the service name in the root's hosts file, the volume where the app mounts it.
    with open(container.root / "etc" / "hosts", "a") as hosts:
        hosts.write(f"127.0.0.1 {host}\n")
    (container.root / app_mount.lstrip("/")).symlink_to(state_target)

    server = Server(container, command=server_command, network_namespace=True)
    try:
        health = in_network(container, server, ["/bin/sh", "-c", container.runtime.healthcheck])
        assert health.returncode == 0, f"HEALTHCHECK failed:\n{health.stdout}{health.stderr}"
        # The app container runs as an ordinary user, not the server's.
        app = in_network(container, server, app_command, ids="100:101")
        assert app.returncode == 0, f"the compose app's command failed:\n{app.stderr}"
        claims = verify(json.loads(app.stdout)["access_token"], container, server, public, f"{app_mount}/ca.pem", "100:101")
        assert claims["roles"] == ["Reader", "Writer"]
        # The control API with the compose file's admin token (other containers are not loopback callers).
        admin = server_command[server_command.index("--admin-token") + 1]
        control = ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", f"{app_mount}/ca.pem", f"{public}/_mockidp/requests"]
        assert in_network(container, server, control[:1] + ["-H", f"Authorization: Bearer {admin}"] + control[1:], ids="100:101").stdout == "200"
        assert in_network(container, server, control, ids="100:101").stdout == "401"
    finally:
        assert server.stop() == 0


def test_the_ci_service_container_example_serves_its_steps(container, tmp_path):
    """docker/github-actions.yml: the service as Actions starts it (the image's CMD, the service's env, its port),
    then the job's `docker cp` of the CA and its token step, run on this machine in the service's network."""
    job = yaml.safe_load((ROOT / "docker" / "github-actions.yml").read_text())["jobs"]["test"]
    service = job["services"]["mockidp"]
    assert "command" not in service, "Actions service containers take no command"
    published = [p.split(":") for p in service["ports"]]
    assert [container.runtime.expose, container.runtime.expose] in published
    server = Server(container, env=service.get("env"), network_namespace=True)
    try:
        steps = [step["run"] for step in job["steps"] if "run" in step]
        copy = re.fullmatch(r'docker cp "\$\{\{ job\.services\.mockidp\.id \}\}:([^"]+)" "\$RUNNER_TEMP/([^"]+)"', steps[0].strip())
        assert copy, f"the first step must copy the CA out of the service: {steps[0]}"
        shutil.copy(container.root / copy.group(1).lstrip("/"), tmp_path / copy.group(2))
        result = in_network(container, server, ["bash", "-euo", "pipefail", "-c", steps[1]], ids="host",
                            env={"PATH": os.environ["PATH"], "RUNNER_TEMP": str(tmp_path)})
        assert result.returncode == 0, f"the token step failed:\n{result.stderr}"
        token = json.loads((tmp_path / "token.json").read_text())["access_token"]
        port = container.runtime.expose
        claims = verify(token, container, server, f"https://localhost:{port}", str(tmp_path / copy.group(2)), "host")
        assert claims["appid" if "appid" in claims else "azp"] == DAEMON
    finally:
        assert server.stop() == 0
