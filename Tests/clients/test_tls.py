"""The TLS listener speaks TLS 1.2 and 1.3 only, as Entra does: TLS 1.0 and 1.1 handshakes are refused."""
import socket
import ssl
import urllib.parse
import warnings

import pytest


def handshake(server, version):
    """The negotiated version when a client offering only `version` connects, or None when the server refuses."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ssl.TLSVersion.TLSv1 and TLSv1_1 are deprecated names
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.load_verify_locations(server.ca)
        # OpenSSL 3 refuses TLS 1.0/1.1 itself at its default security level; lower it so the server is what decides.
        context.set_ciphers("DEFAULT:@SECLEVEL=0")
        try:
            context.minimum_version = version
            context.maximum_version = version
        except ValueError:
            pytest.skip("this Python's OpenSSL cannot offer %s at all" % version)
    url = urllib.parse.urlsplit(server.base_url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as raw:
        try:
            with context.wrap_socket(raw, server_hostname=url.hostname) as tls:
                return tls.version()
        except (ssl.SSLError, ConnectionResetError):
            return None


@pytest.mark.parametrize("version", ["TLSv1", "TLSv1_1"])
def test_tls_1_0_and_1_1_are_refused(server, version):
    assert handshake(server, getattr(ssl.TLSVersion, version)) is None


@pytest.mark.parametrize("version, name", [("TLSv1_2", "TLSv1.2"), ("TLSv1_3", "TLSv1.3")])
def test_tls_1_2_and_1_3_are_accepted(server, version, name):
    assert handshake(server, getattr(ssl.TLSVersion, version)) == name
