/// Where a value of the configuration came from: the file, the line and the path inside the document.
/// Values keep their origin through merging, so a problem found later still names the right place.
///
/// Every value read carries one, so it is kept small (16 bytes): the value's container, its line, and its step from
/// the container (an item's index, or the row of a key in the container's field table). Containers form a chain of
/// small shared objects, each holding its own step from its parent; the file is held at the chain's start. A path
/// is spelled out only when asked for (a problem), not for each container read.
struct Origin: Sendable, Equatable {
    /// The container.
    private let place: Place
    private let storedLine: Int32
    /// 0: the container itself; n > 0: item n − 1 of a list; n < 0: the key in row −n − 1 of the container's table.
    private let step: Int32

    /// A container: its parent and its step from it, or (`Start`) the file and the path a chain starts at.
    private class Place: @unchecked Sendable {  // Unchecked: immutable, and `Start` adds only constants.
        let parent: Place?
        let step: Step
        /// The keys of the field table the container is read with: what a value's row names.
        unowned(unsafe) let keys: FieldKeys?  // Field tables are static: their keys outlive every place.

        init(parent: Place?, step: Step, keys: FieldKeys?) {
            self.parent = parent
            self.step = step
            self.keys = keys
        }

        var file: String {
            var place = self
            while let parent = place.parent { place = parent }
            return (place as? Start)?.startFile ?? ""
        }

        var path: String {
            guard let parent else { return (self as? Start)?.startPath ?? "" }
            switch step {
            case .none: return parent.path
            case .step(let step): return Origin.appending(step, in: parent, to: parent.path)
            case .key(let key): return DocumentPath.appending(key: key, to: parent.path)
            }
        }
    }

    private final class Start: Place, @unchecked Sendable {
        let startFile: String
        let startPath: String

        init(file: String, path: String) {
            startFile = file
            startPath = path
            super.init(parent: nil, step: .none, keys: nil)
        }
    }

    /// A container's step from its parent.
    private enum Step {
        case none
        /// As `Origin.step`, in the parent.
        case step(Int32)
        /// A key the parent's table does not hold (a claim's name, an API's): spelled here.
        case key(String)
    }

    /// `path` with `step` (as `Origin.step`) of `container` appended.
    private static func appending(_ step: Int32, in container: Place, to path: String) -> String {
        if step > 0 { return DocumentPath.appending(index: Int(step) - 1, to: path) }
        if step < 0, let keys = container.keys { return DocumentPath.appending(key: keys.names[Int(-step) - 1], to: path) }
        return path
    }

    var file: String { place.file }

    /// 1-based; 0 where no line applies.
    var line: Int { Int(storedLine) }

    var path: String { Self.appending(step, in: place, to: place.path) }

    private init(place: Place, line: Int, step: Int32) {
        self.place = place
        self.step = step
        storedLine = Int32(clamping: line)
    }

    init(file: String, line: Int, path: String) {
        self.init(place: Start(file: file, path: path), line: line, step: 0)
    }

    /// The origin of a value no file holds (a built configuration's).
    static let nowhere = Origin(file: "", line: 0, path: "")

    /// The same place on another line (a key of this mapping, a problem about its whole).
    func at(line: Int) -> Origin {
        Origin(place: place, line: line, step: step)
    }

    /// This place as the container of others, on `line`: what their `child` origins are made from. Make it once
    /// per container: each origin made from it shares its place instead of making another. `keys`: the field
    /// table the container is read with, which `child(row:line:)` names keys from.
    func container(line: Int, keys: FieldKeys? = nil) -> Origin {
        if step == 0 && place.keys === keys { return Origin(place: place, line: line, step: 0) }
        return Origin(place: Place(parent: place, step: step == 0 ? .none : .step(step), keys: keys), line: line, step: 0)
    }

    /// The origin of the value in row `row` of the container's field table, on `line`.
    func child(row: Int, line: Int) -> Origin {
        precondition(step == 0 && place.keys != nil, "rows are of a container read with a field table")
        return Origin(place: place, line: line, step: -Int32(row) - 1)
    }

    /// The origin of the value under `key` of the container found here, on `line`.
    func child(key: String, line: Int) -> Origin {
        if step == 0, let row = place.keys?.row(of: key) { return child(row: row, line: line) }
        return Origin(place: Place(parent: containerPlace, step: .key(key), keys: nil), line: line, step: 0)
    }

    /// The origin of item `index` of the list found here, on `line`.
    func child(index: Int, line: Int) -> Origin {
        Origin(place: containerPlace, line: line, step: Int32(clamping: index + 1))
    }

    /// This place as the container of others: shared when it is one already, one step further otherwise.
    private var containerPlace: Place {
        step == 0 ? place : Place(parent: place, step: .step(step), keys: nil)
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

/// The keys of a field table, which origins name by row (see `Origin.child(row:line:)`).
final class FieldKeys: Sendable {
    let names: [String]
    private let rows: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var rows: [String: Int] = [:]
        for (row, name) in names.enumerated() where rows[name] == nil { rows[name] = row }
        self.rows = rows
    }

    func row(of name: String) -> Int? { rows[name] }
}
