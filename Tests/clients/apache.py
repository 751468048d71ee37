"""Debian's Apache, unchanged, as the web server in front of a relying party module (mod_auth_openidc, mod_auth_mellon):
a configuration of its own in a temporary folder, one listening port on 127.0.0.1, run in the foreground as
www-data, stopped at the end."""
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

APACHE = shutil.which("apache2") or "/usr/sbin/apache2"
MODULES = "/usr/lib/apache2/modules"


def installed(module):
    """Whether apache2 and the module `mod_{module}.so` are installed."""
    return os.path.exists(APACHE) and os.path.exists("%s/mod_%s.so" % (MODULES, module))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Apache:
    def __init__(self, root, port, process):
        self.root = root
        self.site = "http://127.0.0.1:%d" % port
        self.port = port
        self.process = process

    def path(self, name):
        return os.path.join(self.root, name)

    def error_log(self):
        path = self.path("error.log")
        return open(path).read() if os.path.exists(path) else ""

    def reload(self):
        """A graceful restart: the configuration and the files it names read again; waits for the new generation's
        log line."""
        before = self.error_log().count("resuming normal operations")
        self.process.send_signal(signal.SIGUSR1)
        deadline = time.time() + 15
        while self.error_log().count("resuming normal operations") <= before:
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("apache2 did not restart: %s" % self.error_log()[-3000:])
            time.sleep(0.05)


def write_public(root, files):
    """Writes `files` (name -> text) under `root`, every folder and file readable by www-data."""
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    os.chmod(root, 0o755)
    for dirpath, _, names in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in names:
            os.chmod(os.path.join(dirpath, name), 0o644)


@contextlib.contextmanager
def running(modules, site_config, files=None, port=None):
    """Apache with `modules` loaded (names as in mod_{name}.so) and `site_config(root, site)` appended to its base
    configuration (DocumentRoot `root`/htdocs, open to all), on `port` (default: a free one); `files` (name -> text,
    or a function of root and site) are written under root first. Yields an Apache."""
    root = tempfile.mkdtemp(prefix="mockidp-apache-")
    port = port or free_port()
    site = "http://127.0.0.1:%d" % port
    os.makedirs(os.path.join(root, "htdocs"))
    write_public(root, (files(root, site) if callable(files) else files) or {})
    conf = os.path.join(root, "httpd.conf")
    with open(conf, "w") as f:
        f.write("".join("LoadModule %s_module %s/mod_%s.so\n" % (m, MODULES, m)
                        for m in ["mpm_event", "authn_core", "authz_core", "authz_user", "mime"] + list(modules)))
        f.write(f"""ServerName 127.0.0.1
Listen 127.0.0.1:{port}
User www-data
Group www-data
DefaultRuntimeDir {root}
PidFile {root}/httpd.pid
ErrorLog {root}/error.log
LogLevel notice
TypesConfig /etc/mime.types
DocumentRoot {root}/htdocs
<Directory {root}/htdocs>
    Require all granted
</Directory>
""")
        f.write(site_config(root, site))
    os.chmod(conf, 0o644)
    startup = open(os.path.join(root, "startup.log"), "w")
    process = subprocess.Popen([APACHE, "-f", conf, "-DFOREGROUND"], stdout=startup, stderr=subprocess.STDOUT)
    apache = Apache(root, port, process)
    deadline = time.time() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.time() > deadline:
                process.kill()
                log = open(os.path.join(root, "startup.log")).read() + apache.error_log()
                raise RuntimeError("apache2 did not start: %s" % log)
            time.sleep(0.1)
    try:
        yield apache
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)
