"""Runs client code against mockidp at real host names (login.microsoftonline.us, contoso.b2clogin.com, ...).

`run_at_real_hosts(test_file, "function", hosts=[...], configs=[...])` starts a child Python process inside a
private mount and network namespace (`unshare --mount --net`). In there the child

1. brings the namespace's own loopback interface up (nothing else is reachable: no real cloud is ever called),
2. bind-mounts a temporary hosts file over /etc/hosts that resolves every given name to 127.0.0.1 (the mount is
   private to the namespace: the machine's own /etc/hosts is never touched),
3. starts mockidp on port 443 there (no other process can hold that port: the namespace has its own),
4. trusts the server's CA through REQUESTS_CA_BUNDLE and calls `function(server)` from `test_file`.

So unmodified clients run with production authority URLs and no `instance_discovery` or `validate_authority`
switches. The child's exit status and output come back to the calling test; an assertion failing in the child
fails the test with the child's traceback. Creating the namespaces needs root (or CAP_SYS_ADMIN), as CI has:
elsewhere the tests skip and say why.
"""
import ctypes
import fcntl
import importlib.util
import os
import socket
import struct
import subprocess
import sys
import tempfile
import traceback

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))


def unshare_refusal():
    """Why private namespaces cannot be made here, or None when they can."""
    try:
        probe = subprocess.run(["unshare", "--mount", "--net", "true"], capture_output=True, text=True, timeout=10)
    except FileNotFoundError:
        return "the unshare command (util-linux) is not installed"
    if probe.returncode != 0:
        return "unshare --mount --net is not permitted here (%s); it needs root, as CI has" % probe.stderr.strip()
    return None


def run_at_real_hosts(test_file, function, hosts, configs=(), ports=("443",), timeout=120):
    """Runs `function(server)` of `test_file` in a child inside fresh namespaces where `hosts` resolve to
    127.0.0.1 and mockidp (with `configs`, paths relative to the repository) listens on `ports`."""
    refusal = unshare_refusal()
    if refusal:
        pytest.skip(refusal)
    with tempfile.NamedTemporaryFile("w", prefix="mockidp-hosts-", delete=False) as f:
        f.write("127.0.0.1 localhost\n::1 localhost ip6-localhost\n")
        for host in hosts:
            f.write("127.0.0.1 %s\n" % host)
        hosts_file = f.name
    env = os.environ.copy()
    env.pop("REQUESTS_CA_BUNDLE", None)   # the child trusts its own server's CA
    env.pop("MSAL_FORCE_REGION", None)
    args = ["unshare", "--mount", "--net", "--", sys.executable, os.path.abspath(__file__), "--child", hosts_file,
            os.path.abspath(test_file), function, ",".join(ports)] + [os.path.join(REPOSITORY, c) for c in configs]
    try:
        child = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPOSITORY)
    finally:
        os.unlink(hosts_file)
    if child.returncode != 0:
        pytest.fail("%s failed inside the namespace (exit %d):\n%s%s" % (function, child.returncode, child.stdout, child.stderr),
                    pytrace=False)
    return child.stdout


def _loopback_up():
    """`ip link set lo up`, without needing iproute2: SIOCGIFFLAGS / SIOCSIFFLAGS on `lo`."""
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14s", b"lo", 0, b"")
        flags = struct.unpack("16sH14s", fcntl.ioctl(s, siocgifflags, request))[1]
        fcntl.ioctl(s, siocsifflags, struct.pack("16sH14s", b"lo", flags | iff_up, b""))


def _bind_mount(source, target):
    """`mount --bind source target` (private to this mount namespace: unshare makes propagation private)."""
    libc = ctypes.CDLL(None, use_errno=True)
    ms_bind = 4096
    if libc.mount(source.encode(), target.encode(), None, ms_bind, None) != 0:
        error = ctypes.get_errno()
        raise OSError(error, "mount --bind %s %s: %s" % (source, target, os.strerror(error)))


def _child(hosts_file, test_file, function, ports, configs):
    _loopback_up()
    _bind_mount(hosts_file, "/etc/hosts")
    sys.path.insert(0, HERE)
    import conftest  # noqa: E402  (the shared start/stop helpers)

    extra = []
    for config in configs:
        extra += ["--config", config]
    server = conftest.start_server(extra_args=extra, ports=ports.split(","))
    os.environ["REQUESTS_CA_BUNDLE"] = server.ca
    try:
        spec = importlib.util.spec_from_file_location("namespace_test_module", test_file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        getattr(module, function)(server)
    except BaseException:
        traceback.print_exc()
        print("--- mockidp log ---\n" + server.log()[-4000:])
        conftest.stop_server(server)
        return 1
    return 0 if conftest.stop_server(server) == 0 else 2


if __name__ == "__main__" and len(sys.argv) >= 6 and sys.argv[1] == "--child":
    sys.exit(_child(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]))
