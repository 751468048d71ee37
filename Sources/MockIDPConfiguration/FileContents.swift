#if canImport(Glibc)
import Glibc
#endif

/// Reading the files a configuration names (configuration files, certificates) and the state directory's files,
/// bounded in size so that a wrong path (a device, a huge log) cannot hang or exhaust the process. Plain POSIX calls:
/// the state directory is read on the way to the first answer, where Foundation's code costs page faults.
package enum FileContents {
    /// The bytes of the file at `path`, refusing files larger than `limit` bytes.
    package static func read(_ path: String, limit: Int) -> Result<[UInt8], FileReadFailure> {
        var found = stat()
        guard stat(path, &found) == 0 else { return .failure(.missing) }
        guard found.st_mode & S_IFMT != S_IFDIR else { return .failure(.directory) }
        // Opened without blocking, so a FIFO never waits for a writer; only what can be read to its end is read.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFCHR else { return .failure(.notAFile) }
        var bytes: [UInt8] = []
        // A regular file is read straight into a buffer of its size (and one byte more, to see it has not grown).
        let size = kind == S_IFREG ? Int(info.st_size) : Int.max
        if kind == S_IFREG {
            let capacity = min(size, limit) + 1
            var failed = false
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                while count < capacity {
                    let n = Glibc.read(fd, buffer.baseAddress! + count, capacity - count)
                    if n == 0 { break }
                    guard n > 0 else {
                        if errno == EINTR { continue }
                        failed = true
                        break
                    }
                    count += n
                }
            }
            if failed { return .failure(.unreadable) }
            if bytes.count < capacity { return .success(bytes) }
        }
        // A device, or a file that grew: in chunks, until its end or the limit.
        var chunk = [UInt8](repeating: 0, count: max(1, min(64 * 1024, size, limit) + 1))
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            guard n > 0 else {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            bytes += chunk[..<n]
        }
        guard bytes.count <= limit else { return .failure(.tooLarge(limit: limit)) }
        return .success(bytes)
    }

    /// `path` as seen from `directory` (absolute paths stay as they are).
    static func resolve(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// The directory that holds `path`: relative paths inside a configuration file resolve against it.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Why a file could not be read, as a clause for a problem.
package enum FileReadFailure: Error, Equatable, CustomStringConvertible {
    case missing
    case directory
    /// A FIFO or socket: reading it could wait forever.
    case notAFile
    case unreadable
    case tooLarge(limit: Int)

    package var description: String {
        switch self {
        case .missing: "no such file"
        case .directory: "is a directory, not a file"
        case .notAFile: "is not a regular file (a FIFO or socket)"
        case .unreadable: "cannot be read (check its permissions)"
        case .tooLarge(let limit): "is larger than \(limit >> 20) MiB"
        }
    }
}
