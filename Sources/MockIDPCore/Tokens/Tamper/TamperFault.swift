import MockIDPJOSE
import Synchronization

/// A registered tamper fault (`POST /_mockidp/faults` with `tamper`): the next matching tokens are issued with
/// `defect`, each one counting once.
package struct TamperFault: Sendable, Equatable {
    /// Which tokens a tamper fault goes into.
    package enum Selection: String, Sendable, CaseIterable {
        case id
        case access
        case all
    }

    /// Assigned when registered (shared with the other faults' IDs).
    package var id = 0
    package var defect: TokenDefect
    package var token: Selection
    /// Only tokens issued to this client.
    package var clientID: String?
    /// How many tokens still get the defect; nil for every matching token until reset.
    package var remaining: Int? = 1

    package init(defect: TokenDefect, token: Selection, clientID: String? = nil, remaining: Int? = 1) {
        self.defect = defect
        self.token = token
        self.clientID = clientID
        self.remaining = remaining
    }

    /// Why `defect` cannot go into `token`'s tokens (a nonce or hash defect on access tokens); nil when it can.
    package var problem: String? {
        guard token == .access, !defect.applies(to: .access) else { return nil }
        return "'\(defect.rawValue)' applies to ID tokens only (the claim it breaks, \(defect.requiredClaim ?? ""), is an ID token's); for access tokens use one of \(TokenDefect.names(for: .access).joined(separator: ", "))"
    }

    /// Whether a token of `kind` issued to `clientID`, whose claims `has`, takes this fault.
    func matches(kind: TokenKind, clientID: String, has: (String) -> Bool) -> Bool {
        guard token == .all || token.rawValue == kind.rawValue, defect.applies(to: kind) else { return false }
        if let want = self.clientID, want.lowercased() != clientID.lowercased() { return false }
        if let claim = defect.requiredClaim, !has(claim) { return false }
        return true
    }

    /// The fault as the control API shows it.
    package var json: JSONValue {
        var o: JSONObject = ["id": .int(id), "tamper": .string(defect.rawValue), "token": .string(token.rawValue),
                             "count": remaining.map { .int($0) } ?? .int(0)]
        if let clientID { o["clientId"] = .string(clientID) }
        return .object(o)
    }
}

/// Whether a tamper closure put its defect into a token: set while the token is made, read once it is.
final class DefectApplied: Sendable {
    private let flag = Atomic<Bool>(false)

    func record() { flag.store(true, ordering: .relaxed) }
    var happened: Bool { flag.load(ordering: .relaxed) }
}
