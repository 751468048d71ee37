#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The provider's clock: real time plus an offset that tests move forward (`POST /_mockidp/clock`).
public final class ProviderClock: Sendable {
    private let source: @Sendable () -> Double
    private let offsetSeconds = Atomic<Int>(0)

    /// A clock reading `source` (seconds since 1970).
    public init(source: @escaping @Sendable () -> Double) { self.source = source }

    /// The system's real-time clock.
    public static func system() -> ProviderClock {
        ProviderClock {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
    }

    /// A clock that stands still at `seconds` (moved only by `advance`).
    public static func fixed(_ seconds: Int) -> ProviderClock { ProviderClock { Double(seconds) } }

    /// Now, in whole seconds since 1970.
    public func now() -> Int { Int(source()) + offsetSeconds.load(ordering: .relaxed) }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: Int) { offsetSeconds.add(seconds, ordering: .relaxed) }

    /// Seconds the clock has been moved forward.
    public var offset: Int { offsetSeconds.load(ordering: .relaxed) }

    /// Back to real time.
    public func reset() { offsetSeconds.store(0, ordering: .relaxed) }
}

/// Time as Entra writes it in errors and messages.
package enum EntraTime {
    /// `2024-03-26 21:48:02Z`
    package static func timestamp(_ seconds: Int) -> String {
        var b: [UInt8] = []
        appendTimestamp(seconds, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// Appends `timestamp(seconds)`'s text to `out`, digit by digit: every log line starts with one.
    package static func appendTimestamp(_ seconds: Int, to out: inout [UInt8]) {
        let (y, mo, d, h, mi, s) = civil(seconds)
        guard (0...9999).contains(y) else {
            out.append(contentsOf: "\(y)-\(two(mo))-\(two(d)) \(two(h)):\(two(mi)):\(two(s))Z".utf8)
            return
        }
        let start = out.count
        out.append(contentsOf: "0000-00-00 00:00:00Z".utf8)
        out.withUnsafeMutableBufferPointer { buffer in
            func put(_ v: Int, _ at: Int, _ width: Int) {
                var v = v
                for i in stride(from: start + at + width - 1, through: start + at, by: -1) {
                    buffer[i] = UInt8(0x30 + v % 10)
                    v /= 10
                }
            }
            put(y, 0, 4); put(mo, 5, 2); put(d, 8, 2); put(h, 11, 2); put(mi, 14, 2); put(s, 17, 2)
        }
    }

    /// `2024-03-26T21:48:02.0000000Z`, as in refresh-token messages.
    package static func iso8601(_ seconds: Int) -> String {
        let (y, mo, d, h, mi, s) = civil(seconds)
        return "\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi)):\(two(s)).0000000Z"
    }

    /// `1.00:00:00` (days.hours:minutes:seconds), as .NET writes a TimeSpan.
    package static func duration(_ seconds: Int) -> String {
        let d = seconds / 86400, h = seconds % 86400 / 3600, m = seconds % 3600 / 60, s = seconds % 60
        return "\(d).\(two(h)):\(two(m)):\(two(s))"
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Days-from-civil inverse (Howard Hinnant's algorithm), for UTC dates without Foundation.
    private static func civil(_ seconds: Int) -> (Int, Int, Int, Int, Int, Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secs = seconds - days * 86400
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d, secs / 3600, secs % 3600 / 60, secs % 60)
    }
}
