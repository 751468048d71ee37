/// Where a value of the configuration came from: the file, the line and the path inside the document.
/// Values keep their origin through merging, so a problem found later still names the right place.
///
/// Every value read carries one, so it is kept small (32 bytes): the file and the path of the value's container
/// live in one object that all values of the container share, and the path is spelled in full only when asked for
/// (a problem, or a nested container).
struct Origin: Sendable, Equatable {
    /// The file and the container's path.
    private let place: Place
    private let last: Last
    private let storedLine: Int32

    private final class Place: Sendable {
        let file: String
        let path: String
        init(file: String, path: String) {
            self.file = file
            self.path = path
        }
    }

    private enum Last: Sendable, Equatable {
        case none
        case key(String)
        case index(Int32)
    }

    var file: String { place.file }

    /// 1-based; 0 where no line applies.
    var line: Int { Int(storedLine) }

    var path: String {
        switch last {
        case .none: place.path
        case .key(let key): DocumentPath.appending(key: key, to: place.path)
        case .index(let index): DocumentPath.appending(index: Int(index), to: place.path)
        }
    }

    private init(place: Place, line: Int, last: Last) {
        self.place = place
        self.last = last
        storedLine = Int32(clamping: line)
    }

    init(file: String, line: Int, path: String) {
        self.init(place: Place(file: file, path: path), line: line, last: .none)
    }

    /// The same place on another line (a key of this mapping, a problem about its whole).
    func at(line: Int) -> Origin {
        Origin(place: place, line: line, last: last)
    }

    /// This place as the container of others, on `line`: what their `child` origins are made from. Make it once
    /// per container: each origin made from it shares its path instead of spelling it again.
    func container(line: Int) -> Origin {
        Origin(place: containerPlace, line: line, last: .none)
    }

    /// The origin of the value under `key` of the container found here, on `line`.
    func child(key: String, line: Int) -> Origin {
        Origin(place: containerPlace, line: line, last: .key(key))
    }

    /// The origin of item `index` of the list found here, on `line`.
    func child(index: Int, line: Int) -> Origin {
        Origin(place: containerPlace, line: line, last: .index(Int32(clamping: index)))
    }

    /// This place as the container of others: shared when it is one already, spelled out once otherwise.
    private var containerPlace: Place {
        if case .none = last { return place }
        return Place(file: place.file, path: path)
    }

    static func == (lhs: Origin, rhs: Origin) -> Bool {
        lhs.file == rhs.file && lhs.line == rhs.line && lhs.path == rhs.path
    }

    /// A problem about the value found here.
    func problem(_ reason: String) -> ConfigurationProblem {
        ConfigurationProblem(file: file, line: line, path: path, reason: reason)
    }

    /// How another message names this place: `line 12` in the same file, `other.yaml:12` elsewhere.
    func reference(from other: Origin) -> String {
        other.file == file ? "line \(line)" : "\(file):\(line)"
    }
}

/// A value with the place it came from.
struct Sourced<Value> {
    var value: Value
    var origin: Origin
}

extension Sourced: Sendable where Value: Sendable {}
