import Foundation

/// Reading the files a configuration names (configuration files, certificates), bounded in size so
/// that a wrong path (a device, a huge log) cannot hang or exhaust the process.
enum FileContents {
    /// The bytes of the file at `path`, refusing files larger than `limit` bytes.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], FileReadFailure> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .failure(.missing) }
        guard !isDirectory.boolValue else { return .failure(.directory) }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.unreadable) }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { return .failure(.tooLarge(limit: limit)) }
            return .success([UInt8](data))
        } catch {
            return .failure(.unreadable)
        }
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
enum FileReadFailure: Error, Equatable, CustomStringConvertible {
    case missing
    case directory
    case unreadable
    case tooLarge(limit: Int)

    var description: String {
        switch self {
        case .missing: "no such file"
        case .directory: "is a directory, not a file"
        case .unreadable: "cannot be read (check its permissions)"
        case .tooLarge(let limit): "is larger than \(limit >> 20) MiB"
        }
    }
}
