import Glibc

/// The process's open-file limit (RLIMIT_NOFILE), which bounds the connections the server can hold: every
/// connection is a descriptor, and Debian's default soft limit (1,024) is far below the connection limit.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as servers built to hold many connections do (Go's runtime does the
    /// same at start); returns the soft limit in force afterwards, or nil when it cannot be read.
    static func raiseToHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY (all ones) clamps to Int.max
    }

    /// Descriptors kept apart for everything but connections: listening sockets, libmicrohttpd's epoll and
    /// inter-thread descriptors, the state directory's files, logs.
    static let reserve = 64
}
