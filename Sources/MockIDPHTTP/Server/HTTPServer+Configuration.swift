import Glibc

extension HTTPServer {
    /// An address and port to listen on.
    package struct Listener: Sendable, Hashable {
        /// A numeric IPv4 or IPv6 address ("127.0.0.1", "::1", "0.0.0.0", "::"), or "localhost" for 127.0.0.1.
        /// An IPv6 listener accepts IPv6 only ("::" does not take IPv4): add "0.0.0.0" as a second listener for both.
        package var host: String
        /// The TCP port; 0 picks any free port (read the real one from `boundListeners`).
        package var port: UInt16
        /// True for a plain-HTTP listener beside TLS ones (the instance metadata service speaks plain HTTP).
        package var plainHTTP: Bool

        /// A listener on `host` and `port`; `plainHTTP` keeps it plain when the server has a TLS identity.
        package init(host: String, port: UInt16, plainHTTP: Bool = false) {
            self.host = host
            self.port = port
            self.plainHTTP = plainHTTP
        }

        /// Whether this listener speaks HTTPS in `configuration`.
        func isSecure(in configuration: Configuration) -> Bool { configuration.tls != nil && !plainHTTP }
    }

    /// The certificate chain and private key the server presents over TLS.
    package struct TLSIdentity: Sendable {
        /// PEM certificates, the server's own first, then the CAs that issued it.
        package var certificateChainPEM: String
        /// The unencrypted PKCS#8 PEM private key ("BEGIN PRIVATE KEY"), RSA or EC P-256.
        package var privateKeyPEM: String

        /// An identity from PEM text.
        package init(certificateChainPEM: String, privateKeyPEM: String) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    /// What the server listens on and the limits it enforces.
    package struct Configuration: Sendable {
        /// The addresses to listen on; each gets its own libmicrohttpd daemon and worker threads.
        package var listeners: [Listener]
        /// When set, every listener but the `plainHTTP` ones speaks HTTPS with this identity; otherwise plain HTTP.
        package var tls: TLSIdentity?
        /// Worker threads per listener (default: the number of online cores); one slow responder blocks its worker.
        package var threadsPerListener: Int
        /// The largest request body accepted, in bytes (default 1 MiB); larger bodies get 413.
        package var maximumBodySize: Int
        /// The most connections a listener keeps open at once (default 16,384, shared among its workers). Further
        /// connections are accepted and closed at once, so the kernel's queue never fills with them.
        package var connectionLimit: Int
        /// The most connections one client address keeps open on a listener at once; 0 (the default) sets none.
        /// Connections past it are closed as soon as they are accepted.
        package var perAddressConnectionLimit: Int
        /// Seconds a connection may stay idle or dribble its headers before it is closed (default 30).
        package var connectionTimeout: Int
        /// The most bytes of a connection's memory a request's line and header fields may take (default 64 KiB, so
        /// large cookies and tokens fit; a Cookie field counts twice, as libmicrohttpd keeps a parsed copy); larger
        /// heads get 431. Each connection's memory is this and `responseHeadReserve`; libmicrohttpd clears it for
        /// every request, so a larger pool costs throughput.
        package var maximumHeaderSize: Int

        /// The room each connection's memory keeps for a response's status line and header fields, whatever the
        /// request took: the largest the server sends (a 16 KiB redirect with its cookies and security headers) fits.
        package static let responseHeadReserve = 24 * 1024

        /// A configuration for `listeners` with default limits.
        package init(listeners: [Listener], tls: TLSIdentity? = nil) {
            self.listeners = listeners
            self.tls = tls
            threadsPerListener = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            maximumBodySize = 1_048_576
            connectionLimit = 16_384
            perAddressConnectionLimit = 0
            connectionTimeout = 30
            maximumHeaderSize = 64 * 1024
        }
    }
}
