extension HTTPServer {
    /// A listener after start: the real port and the URL clients use to reach it.
    package struct BoundListener: Sendable {
        /// The host as configured ("127.0.0.1", "::1", "localhost").
        package var host: String
        /// The port actually bound (never 0).
        package var port: UInt16
        /// True when the listener speaks HTTPS.
        package var isSecure: Bool
        /// The scheme, host and port without a trailing slash, e.g. "https://127.0.0.1:8443" or "http://[::1]:8080".
        package var baseURL: String

        init(host: String, port: UInt16, isSecure: Bool) {
            self.host = host
            self.port = port
            self.isSecure = isSecure
            let urlHost = host.contains(":") ? "[\(host)]" : host
            baseURL = "\(isSecure ? "https" : "http")://\(urlHost):\(port)"
        }
    }
}
