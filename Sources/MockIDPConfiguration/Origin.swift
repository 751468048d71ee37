/// Where a value of the configuration came from: the file, the line and the path inside the document.
/// Values keep their origin through merging, so a problem found later still names the right place.
///
/// Every value read carries one, so it is kept small (32 bytes): the path of the value's container is a chain of
/// shared objects, one per container, each holding only its own step from its parent; the file is held at the
/// chain's start. A path is spelled out only when asked for (a problem), not for each container read.
struct Origin: Sendable, Equatable {
    /// The container.
    private let place: Place
    private let last: Last
    private let storedLine: Int32

    /// A container: its parent and its step from it, or (`Start`) the file and the path a chain starts at.
    private class Place: @unchecked Sendable {  // Unchecked: immutable, and `Start` adds only constants.
        let parent: Place?
        let step: Last

        init(parent: Place?, step: Last) {
            self.parent = parent
            self.step = step
        }

        var file: String {
            var place = self
            while let parent = place.parent { place = parent }
            return (place as? Start)?.startFile ?? ""
        }

        var path: String {
            guard let parent else { return (self as? Start)?.startPath ?? "" }
            return step.appended(to: parent.path)
        }
    }

    private final class Start: Place, @unchecked Sendable {
        let startFile: String
        let startPath: String

        init(file: String, path: String) {
            startFile = file
            startPath = path
            super.init(parent: nil, step: .none)
        }
    }

    private enum Last: Sendable, Equatable {
        case none
        case key(String)
        case index(Int32)

        func appended(to path: String) -> String {
            switch self {
            case .none: path
            case .key(let key): DocumentPath.appending(key: key, to: path)
            case .index(let index): DocumentPath.appending(index: Int(index), to: path)
            }
        }
    }

    var file: String { place.file }

    /// 1-based; 0 where no line applies.
    var line: Int { Int(storedLine) }

    var path: String { last.appended(to: place.path) }

    private init(place: Place, line: Int, last: Last) {
        self.place = place
        self.last = last
        storedLine = Int32(clamping: line)
    }

    init(file: String, line: Int, path: String) {
        self.init(place: Start(file: file, path: path), line: line, last: .none)
    }

    /// The origin of a value no file holds (a built configuration's).
    static let nowhere = Origin(file: "", line: 0, path: "")

    /// The same place on another line (a key of this mapping, a problem about its whole).
    func at(line: Int) -> Origin {
        Origin(place: place, line: line, last: last)
    }

    /// This place as the container of others, on `line`: what their `child` origins are made from. Make it once
    /// per container: each origin made from it shares its place instead of making another.
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

    /// This place as the container of others: shared when it is one already, one step further otherwise.
    private var containerPlace: Place {
        if case .none = last { return place }
        return Place(parent: place, step: last)
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
