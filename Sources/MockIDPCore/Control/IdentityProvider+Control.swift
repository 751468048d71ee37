import MockIDPJOSE

/// What the control API changes at run time: faults, extra claims, signing keys, and the way back to the start.
extension IdentityProvider {
    // MARK: faults

    /// Registers `fault`; returns it with its ID.
    package func addFault(_ fault: Fault) -> Fault {
        controls.withLock { $0.register(fault, in: \.faults) }
    }

    /// True when any fault waits (a cheap check before matching).
    package func hasFaults() -> Bool { controls.withLock { !$0.faults.isEmpty } }

    /// The faults waiting, oldest first.
    package func pendingFaults() -> [Fault] { controls.withLock { $0.faults } }

    /// The oldest fault matching `target`, counted as used; nil when none does. A request whose `claims` answer a
    /// fault's challenge is not matched by that fault.
    package func takeFault(for target: FaultTarget) -> Fault? {
        let directory = snapshot()
        return controls.withLock { s in
            s.take(from: \.faults) { fault in
                guard fault.endpoint == target.endpoint else { return false }
                if let want = fault.clientID, want.lowercased() != target.clientID?.lowercased() { return false }
                if let want = fault.grantType, want != target.grantType { return false }
                if let want = fault.tenant {
                    guard let segment = target.tenant else { return false }
                    let same = want.lowercased() == segment.lowercased()
                        || (directory.tenant(want).map { $0.id } != nil && directory.tenant(want)?.id == directory.tenant(segment)?.id)
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
    package func addExtraClaims(_ extra: ExtraClaims) -> ExtraClaims {
        controls.withLock { $0.register(extra, in: \.extraClaims) }
    }

    /// The claims every matching registration adds to one token response (later registrations win), each
    /// registration counted as used; and whether tamper faults wait (one look at the registrations per response).
    func takeExtraClaims(clientID: String, username: String?) -> (claims: JSONObject, tamperFaultsWait: Bool) {
        controls.withLock { s in
            (takeExtraClaims(&s, clientID: clientID, username: username), !s.tamperFaults.isEmpty)
        }
    }

    private func takeExtraClaims(_ s: inout ControlRegistrations, clientID: String, username: String?) -> JSONObject {
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

    // MARK: keys

    /// Signs with `key` from now on; the keys used before stay published until `retireSigningKeys`.
    package func rotateSigningKey(to key: SigningKey) {
        _ = changeDirectory { d in (d.withSigningKeys([key] + d.signingKeys), ()) }
    }

    /// Removes every key but the one that signs from the key sets; returns the key IDs removed.
    @discardableResult
    package func retireSigningKeys() -> [String] {
        changeDirectory { d in (d.withSigningKeys([d.activeKey]), d.signingKeys.dropFirst().map(\.keyID)) } ?? []
    }

    // MARK: reset

    /// Back to the start: the loaded configuration's users and apps, no sessions, codes, device codes, refresh
    /// tokens or consents, no faults or extra claims, and the real time. Signing keys stay as they are.
    package func reset() {
        restoreLoadedConfiguration()
        refreshTokens.withLock { $0 = RefreshTokenSealer() }  // a new key: every refresh token issued so far is dead
        authorizationCodes.withLock { $0.removeAll() }
        sessions.withLock { $0 = BrowserSessions() }  // a new key: every session cookie issued so far is dead
        deviceCodes.withLock { $0.removeAll() }
        consents.withLock { $0.removeAll() }
        controls.withLock { s in
            s.faults.removeAll()
            s.extraClaims.removeAll()
            s.tamperFaults.removeAll()
        }
        clock.reset()
    }
}
