#if canImport(Glibc)
import Glibc
#endif
import Logging
import MockIDPCore

/// One line per message on standard error: `2026-11-22 10:00:00Z info GET /path 200 0.120ms`.
/// Written with a single `write(2)` so lines from worker threads never interleave.
public struct StandardErrorLogHandler: LogHandler {
    /// The lowest level written.
    public var logLevel: Logger.Level
    /// Metadata written with every message.
    public var metadata: Logger.Metadata = [:]
    private let label: String

    /// A handler for `label` writing `level` and above.
    public init(label: String, level: Logger.Level = .info) {
        self.label = label
        self.logLevel = level
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line: time, level, message and metadata. The line is written into one byte buffer as it is
    /// built: a request's line costs one allocation.
    public func log(event: LogEvent) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let message = event.message.description
        var line: [UInt8] = []
        line.reserveCapacity(32 + message.utf8.count)
        EntraTime.appendTimestamp(Int(ts.tv_sec), to: &line)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: message.utf8)
        if !metadata.isEmpty || event.metadata?.isEmpty == false {
            let all = event.metadata.map { metadata.merging($0) { _, new in new } } ?? metadata
            let text = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: text.utf8)
        }
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}
