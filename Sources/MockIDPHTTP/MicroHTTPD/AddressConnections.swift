import CMicroHTTPD
import Glibc
import Synchronization

/// The open connections of one listener, counted by client address, for `perAddressConnectionLimit`.
///
/// libmicrohttpd's own per-IP limit counts per daemon, and the acceptor hands connections to the daemons in turn,
/// so one address's connections spread over them by arrival order, not evenly: ten clients of 200 connections each,
/// against a limit of 300 on two workers, lost 500 connections in the bench. So the listener counts for itself:
/// libmicrohttpd reports every connection it starts and closes (`MHD_OPTION_NOTIFY_CONNECTION`, a started
/// connection is always reported closed), and the acceptor closes a new connection at once when its address is at
/// the limit. Connections accepted but not yet started by their worker are not counted yet, so a burst may pass the
/// limit by what the workers have not taken up (a few, measured in `bench/connections`).
final class AddressConnections: Sendable {
    /// 0: no limit, and nothing is counted.
    let limit: Int
    private let open = Mutex<[Key: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// An IPv4 or IPv6 address (port left out), as a dictionary key.
    struct Key: Hashable {
        var high: UInt64
        var low: UInt64

        init?(_ address: UnsafePointer<sockaddr>) {
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let ipv4 = UnsafeRawPointer(address).load(as: sockaddr_in.self)
                high = 0
                low = UInt64(ipv4.sin_addr.s_addr)
            case AF_INET6:
                var ipv6 = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
                (high, low) = withUnsafeBytes(of: &ipv6.sin6_addr) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
                // An IPv4-mapped address (::ffff:a.b.c.d) is the IPv4 address.
                if high == 0, low & 0xFFFF_FFFF == 0xFFFF_0000 {
                    high = 0
                    low = low >> 32
                }
            default:
                return nil
            }
        }
    }

    /// Whether a new connection from `address` must be refused.
    func isAtLimit(_ address: UnsafePointer<sockaddr>) -> Bool {
        guard limit > 0, let key = Key(address) else { return false }
        return open.withLock { ($0[key] ?? 0) >= limit }
    }

    func started(_ address: UnsafePointer<sockaddr>) {
        guard limit > 0, let key = Key(address) else { return }
        open.withLock { $0[key, default: 0] += 1 }
    }

    func closed(_ address: UnsafePointer<sockaddr>) {
        guard limit > 0, let key = Key(address) else { return }
        open.withLock { counts in
            guard let count = counts[key] else { return }
            counts[key] = count > 1 ? count - 1 : nil
        }
    }

    /// libmicrohttpd's `MHD_OPTION_NOTIFY_CONNECTION` callback; `cls` is the listener's `DaemonContext`.
    static let notify: MHD_NotifyConnectionCallback = { cls, connection, _, event in
        guard let cls, let connection, let address = CMicroHTTPD_client_address(connection) else { return }
        let counter = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().addressConnections
        // MHD_CONNECTION_NOTIFY_STARTED = 0, MHD_CONNECTION_NOTIFY_CLOSED = 1 (microhttpd.h).
        switch event.rawValue {
        case 0: counter.started(address)
        case 1: counter.closed(address)
        default: break
        }
    }
}
