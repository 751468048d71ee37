/// Where a value of the configuration came from: the file, the line and the path inside the document.
/// Values keep their origin through merging, so a problem found later still names the right place.
///
/// Every value read carries one, so it is kept small (16 bytes): the value's container, its line, and its step from
/// the container (an item's index, the row of a key in the container's field table, or both). Containers form a
/// chain of small shared objects, each holding its own step from its parent; the file is held at the chain's start.
/// A path is spelled out only when asked for (a problem), not for each container read.
struct Origin: Sendable, Equatable {
    /// The container.
    private let place: Place
    private let storedLine: Int32
    /// The value's step from the container, packed (`Packed`); 0 for the container itself.
    private let step: UInt32

    /// A container: its parent and its step from it, or (`Start`) the file and the path a chain starts at.
    private class Place: @unchecked Sendable {  // Unchecked: immutable, and its subclasses add only constants.
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
            case .key: return DocumentPath.appending(key: (self as? Keyed)?.key ?? "", to: parent.path)
            }
        }
    }

    /// A container under a key its parent's table does not hold (a claim's name, an API's), which it spells.
    /// (A subclass, so that the many other containers are 48 bytes, not 64.)
    private final class Keyed: Place, @unchecked Sendable {
        let key: String

        init(parent: Place, key: String) {
            self.key = key
            super.init(parent: parent, step: .key, keys: nil)
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
        case step(UInt32)
        /// A key the parent's table does not hold: spelled by the container (`Keyed`).
        case key
    }

    /// Steps packed in 32 bits: the kind in the top two, then an item's index, a row of the container's field table,
    /// or both (the index of an item of the list in a row: `tenants[0].domains[1]` with no object for `domains`).
    private enum Packed {
        static let index: UInt32 = 1 << 30, row: UInt32 = 2 << 30, rowAndIndex: UInt32 = 3 << 30
        static let indexBits: UInt32 = 22

        static func row(_ row: Int) -> UInt32 { Packed.row | UInt32(row) }
        static func index(_ index: Int) -> UInt32? { index < 1 << 30 ? Packed.index | UInt32(index) : nil }
        static func item(_ index: Int, ofRow row: UInt32) -> UInt32? {
            index < 1 << indexBits && row < 1 << (30 - indexBits) ? rowAndIndex | row << indexBits | UInt32(index) : nil
        }
    }

    /// `path` with `step` (as `Origin.step`) of `container` appended.
    private static func appending(_ step: UInt32, in container: Place, to path: String) -> String {
        let value = step & (Packed.index - 1)
        func key(_ row: UInt32) -> String { container.keys.map { $0.names[Int(row)] } ?? "" }
        switch step & Packed.rowAndIndex {
        case Packed.index: return DocumentPath.appending(index: Int(value), to: path)
        case Packed.row: return DocumentPath.appending(key: key(value), to: path)
        case Packed.rowAndIndex:
            let inRow = DocumentPath.appending(key: key(value >> Packed.indexBits), to: path)
            return DocumentPath.appending(index: Int(value & (1 << Packed.indexBits - 1)), to: inRow)
        default: return path
        }
    }

    var file: String { place.file }

    /// 1-based; 0 where no line applies.
    var line: Int { Int(storedLine) }

    var path: String { Self.appending(step, in: place, to: place.path) }

    private init(place: Place, line: Int, step: UInt32) {
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
        return Origin(place: place, line: line, step: Packed.row(row))
    }

    /// The origin of the value under `key` of the container found here, on `line`.
    func child(key: String, line: Int) -> Origin {
        if step == 0, let row = place.keys?.row(of: key) { return child(row: row, line: line) }
        return Origin(place: Keyed(parent: containerPlace, key: key), line: line, step: 0)
    }

    /// This place as a list whose items `child(index:line:)` names: itself when it is a container or a value in
    /// a row of one (its items are then named from that container, without an object for the list), else a
    /// container made for it once.
    func list(line: Int) -> Origin {
        step == 0 || step & Packed.rowAndIndex == Packed.row ? at(line: line) : container(line: line)
    }

    /// The origin of item `index` of the list found here, on `line`.
    func child(index: Int, line: Int) -> Origin {
        if step == 0, let packed = Packed.index(index) { return Origin(place: place, line: line, step: packed) }
        // The list is a row's value: its items are named from the row's container, without one for the list.
        if step & Packed.rowAndIndex == Packed.row, let packed = Packed.item(index, ofRow: step & (Packed.index - 1)) {
            return Origin(place: place, line: line, step: packed)
        }
        return Origin(place: containerPlace, line: line, step: Packed.index(index) ?? 0)
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
