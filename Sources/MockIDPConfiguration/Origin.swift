/// Where a value of the configuration came from: the file, the line and the path inside the document.
/// Values keep their origin through merging, so a problem found later still names the right place.
struct Origin: Sendable, Equatable {
    var file: String
    var line: Int
    /// The path of the value's container and the key or index inside it: the whole path is spelled only when
    /// asked for (a problem, or a nested value's origin), not for every value read.
    private var base: String
    private var last: Last

    private enum Last: Sendable, Equatable {
        case none
        case key(String)
        case index(Int)
    }

    var path: String {
        get {
            switch last {
            case .none: base
            case .key(let key): DocumentPath.appending(key: key, to: base)
            case .index(let index): DocumentPath.appending(index: index, to: base)
            }
        }
        set {
            base = newValue
            last = .none
        }
    }

    init(file: String, line: Int, path: String) {
        self.file = file
        self.line = line
        base = path
        last = .none
    }

    /// The origin of the value under `key` of the container at `parent`.
    init(file: String, line: Int, parent: String, key: String) {
        self.file = file
        self.line = line
        base = parent
        last = .key(key)
    }

    /// The origin of item `index` of the list at `parent`.
    init(file: String, line: Int, parent: String, index: Int) {
        self.file = file
        self.line = line
        base = parent
        last = .index(index)
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
