import MockIDPCore
import Synchronization

/// The part of a request's scope that its scheme and `Host` decide (base URL, host name, host scope), kept for the
/// last few hosts asked: a client sends the same `Host` on every request, and working it out again (checking the
/// header, building the base URL, finding the host's cloud) would repeat the same work on every request.
final class HostContexts: Sendable {
    private struct Entry {
        let isSecure: Bool
        let host: String?
        let port: UInt16
        let requestHost: RequestHost
    }

    /// Most recent last; `Host` comes from clients, so the list is short and the oldest leaves when it is full.
    private let recent = Mutex<[Entry]>([])
    static let capacity = 8

    /// Where a request over `isSecure` with `Host` `host` to local port `port` came, made by `make` when none of
    /// the last few requests had the same three.
    func host(isSecure: Bool, host: String?, port: UInt16, make: () -> RequestHost) -> RequestHost {
        let hit = recent.withLock { entries in
            entries.last { $0.isSecure == isSecure && $0.port == port && $0.host == host }?.requestHost
        }
        if let hit { return hit }
        let requestHost = make()
        recent.withLock { entries in
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(Entry(isSecure: isSecure, host: host, port: port, requestHost: requestHost))
        }
        return requestHost
    }
}
