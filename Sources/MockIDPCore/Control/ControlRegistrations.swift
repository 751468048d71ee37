/// What the control API has registered and requests use up: faults and extra claims, oldest first, with the IDs
/// the control API hands out.
struct ControlRegistrations: Sendable {
    var faults: [Fault] = []
    var extraClaims: [ExtraClaims] = []
    var tamperFaults: [TamperFault] = []
    var nextID = 0

    /// The next registration ID.
    mutating func newID() -> Int {
        nextID += 1
        return nextID
    }
}
