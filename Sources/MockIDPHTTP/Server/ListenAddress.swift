import Glibc

/// A listener's host and port as a socket address for bind(2), and the words to explain why binding failed.
struct ListenAddress {
    /// AF_INET or AF_INET6.
    let family: Int32
    /// The sockaddr_in or sockaddr_in6, in a sockaddr_storage.
    let storage: sockaddr_storage
    /// "127.0.0.1:8443" or "[::1]:8443", as error messages and logs show it.
    let display: String

    /// Parses a numeric IPv4 or IPv6 host (brackets allowed) or "localhost" (127.0.0.1).
    init(_ listener: HTTPServer.Listener) throws(HTTPServerError) {
        var host = listener.host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.lowercased() == "localhost" { host = "127.0.0.1" }
        var storage = sockaddr_storage()
        if withUnsafeMutablePointer(to: &storage, { raw in
            raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = listener.port.bigEndian
                return inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1
            }
        }) {
            family = AF_INET
            display = "\(listener.host):\(listener.port)"
        } else if withUnsafeMutablePointer(to: &storage, { raw in
            raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                address.pointee = sockaddr_in6()
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = listener.port.bigEndian
                return inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1
            }
        }) {
            family = AF_INET6
            display = "[\(host)]:\(listener.port)"
        } else {
            throw .cannotListen(
                on: "\(listener.host):\(listener.port)",
                "the host must be a numeric IPv4 or IPv6 address or localhost",
                listener: listener
            )
        }
        self.storage = storage
    }

    /// The size of the address inside `storage`.
    var length: socklen_t {
        socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
    }

    /// A listening socket bound to this address (SO_REUSEADDR, never SO_REUSEPORT, so a second server on the same
    /// port fails instead of sharing it; IPv6-only for IPv6), or the reason it cannot be had.
    func listeningSocket(backlog: Int32) -> Result<Int32, ListenFailure> {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(ListenFailure(reason: Self.reason(errno))) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = storage
        let bound = withUnsafePointer(to: &storage) { raw in
            raw.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            return .failure(ListenFailure(reason: Self.reason(code)))
        }
        return .success(fd)
    }

    /// The port a bound socket has (the real one when 0 was asked for); 0 when unknown.
    static func boundPort(of fd: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { raw in
            raw.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return 0 }
        return withUnsafePointer(to: &storage) { raw in
            if Int32(raw.pointee.ss_family) == AF_INET6 {
                return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case EADDRINUSE: "the address is already in use"
        case EADDRNOTAVAIL: "the address is not available on this machine"
        case EACCES: "permission denied (ports below 1024 need privileges)"
        case EAFNOSUPPORT: "this address family is not supported here"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// Why a listening socket could not be had, in words.
struct ListenFailure: Error {
    let reason: String
}
