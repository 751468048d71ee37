/// What the control API has registered and requests use up: faults and extra claims, oldest first, with the IDs
/// the control API hands out.
struct ControlRegistrations: Sendable {
    var faults: [Fault] = []
    var extraClaims: [ExtraClaims] = []
    var tamperFaults: [TamperFault] = []
    var samlTamperFaults: [SAMLTamperFault] = []
    var nextID = 0

    /// The next registration ID.
    mutating func newID() -> Int {
        nextID += 1
        return nextID
    }

    /// Adds `registration` to `list` with a new ID; returns it as kept.
    mutating func register<R: ControlRegistration>(_ registration: R, in list: WritableKeyPath<Self, [R]>) -> R {
        var r = registration
        r.id = newID()
        self[keyPath: list].append(r)
        return r
    }

    /// The oldest registration of `list` that `matches`, counted as used (removed when its count runs out).
    mutating func take<R: ControlRegistration>(from list: WritableKeyPath<Self, [R]>, where matches: (R) -> Bool) -> R? {
        guard let index = self[keyPath: list].firstIndex(where: matches) else { return nil }
        let r = self[keyPath: list][index]
        if let remaining = r.remaining {
            if remaining <= 1 { self[keyPath: list].remove(at: index) } else { self[keyPath: list][index].remaining = remaining - 1 }
        }
        return r
    }
}

/// What the control API registers: an ID it hands out, and how many more uses (nil: until reset).
protocol ControlRegistration: Sendable {
    var id: Int { get set }
    var remaining: Int? { get set }
}

extension Fault: ControlRegistration {}
extension ExtraClaims: ControlRegistration {}
extension TamperFault: ControlRegistration {}
extension SAMLTamperFault: ControlRegistration {}
