import MockIDPJOSE
import Synchronization

/// What the control API registers and requests use up: faults, extra claims and tamper faults, oldest first,
/// under one lock. Registering hands out the IDs the control API shows; taking counts a registration as used.
package final class Controls: Sendable {
    private let registrations = Mutex(ControlRegistrations())

    package init() {}

    // MARK: faults

    /// Registers `fault`; returns it with its ID.
    package func add(_ fault: Fault) -> Fault {
        registrations.withLock { $0.register(fault, in: \.faults) }
    }

    /// True when any fault waits (a cheap check before matching).
    package var hasFaults: Bool { registrations.withLock { !$0.faults.isEmpty } }

    /// The faults waiting, oldest first.
    package var pendingFaults: [Fault] { registrations.withLock { $0.faults } }

    /// The oldest fault matching `target`, counted as used; nil when none does. A request whose `claims` answer a
    /// fault's challenge is not matched by that fault. Tenants are compared as `directory` resolves them, so a
    /// fault for a tenant's domain matches a request naming its GUID.
    package func takeFault(for target: FaultTarget, directory: Directory) -> Fault? {
        registrations.withLock { s in
            s.take(from: \.faults) { fault in
                guard fault.endpoint == target.endpoint else { return false }
                if let want = fault.clientID, want.lowercased() != target.clientID?.lowercased() { return false }
                if let want = fault.grantType, want != target.grantType { return false }
                if let want = fault.tenant {
                    guard let segment = target.tenant else { return false }
                    let same = want.lowercased() == segment.lowercased()
                        || (directory.tenant(want) != nil && directory.tenant(want)?.id == directory.tenant(segment)?.id)
                    if !same { return false }
                }
                if let challenge = fault.challenge.flatMap(ClaimsRequest.init(json:)), let claims = target.claims,
                   claims.answers(challenge) {
                    return false
                }
                return true
            }
        }
    }

    // MARK: extra claims

    /// Registers claims for the next matching token responses; returns them with their ID.
    package func add(_ extra: ExtraClaims) -> ExtraClaims {
        registrations.withLock { $0.register(extra, in: \.extraClaims) }
    }

    /// The claims every matching registration adds to one token response (later registrations win), each
    /// registration counted as used; and whether tamper faults wait (one look at the registrations per response).
    func takeExtraClaims(clientID: String, username: String?) -> (claims: JSONObject, tamperFaultsWait: Bool) {
        registrations.withLock { s in
            (Self.takeExtraClaims(&s, clientID: clientID, username: username), !s.tamperFaults.isEmpty)
        }
    }

    private static func takeExtraClaims(_ s: inout ControlRegistrations, clientID: String, username: String?) -> JSONObject {
        guard !s.extraClaims.isEmpty else { return JSONObject() }
        var merged = JSONObject()
        var kept: [ExtraClaims] = []
        for var extra in s.extraClaims {
            guard extra.matches(clientID: clientID, username: username) else { kept.append(extra); continue }
            merged.merge(extra.claims)
            if let remaining = extra.remaining {
                guard remaining > 1 else { continue }
                extra.remaining = remaining - 1
            }
            kept.append(extra)
        }
        s.extraClaims = kept
        return merged
    }

    /// True when nothing would change a token response: no extra claims and no tamper faults wait.
    package var leaveTokensAlone: Bool { registrations.withLock { $0.extraClaims.isEmpty && $0.tamperFaults.isEmpty } }

    // MARK: tamper faults

    /// Registers `fault`; returns it with its ID.
    package func add(_ fault: TamperFault) -> TamperFault {
        registrations.withLock { $0.register(fault, in: \.tamperFaults) }
    }

    /// Whether any tamper fault waits.
    var tamperFaultsWait: Bool { registrations.withLock { !$0.tamperFaults.isEmpty } }

    /// The tamper faults waiting, oldest first.
    package var pendingTamperFaults: [TamperFault] { registrations.withLock { $0.tamperFaults } }

    /// The defect of the oldest tamper fault matching a token of `kind` for `clientID`, counted as used.
    func takeDefect(kind: TokenKind, clientID: String, has: (String) -> Bool) -> TokenDefect? {
        registrations.withLock { s in s.take(from: \.tamperFaults) { $0.matches(kind: kind, clientID: clientID, has: has) }?.defect }
    }

    // MARK: SAML tamper faults

    /// Registers `fault`; returns it with its ID.
    package func add(_ fault: SAMLTamperFault) -> SAMLTamperFault {
        registrations.withLock { $0.register(fault, in: \.samlTamperFaults) }
    }

    /// The SAML tamper faults waiting, oldest first.
    package var pendingSAMLTamperFaults: [SAMLTamperFault] { registrations.withLock { $0.samlTamperFaults } }

    /// The defect of the oldest SAML tamper fault matching a Response to the app `clientID` whose defect `applies` to
    /// it (a `wresult` cannot carry every defect), counted as used.
    package func takeSAMLDefect(clientID: String, where applies: (SAMLDefect) -> Bool = { _ in true }) -> SAMLDefect? {
        registrations.withLock { s in s.take(from: \.samlTamperFaults) { $0.matches(clientID: clientID) && applies($0.defect) }?.defect }
    }

    /// Forgets every registration (IDs go on counting).
    func removeAll() {
        registrations.withLock { s in
            s.faults.removeAll()
            s.extraClaims.removeAll()
            s.tamperFaults.removeAll()
            s.samlTamperFaults.removeAll()
        }
    }
}
