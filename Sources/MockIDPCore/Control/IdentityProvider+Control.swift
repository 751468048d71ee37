import MockIDPJOSE

/// What the control API changes at run time: faults, extra claims, signing keys, and the way back to the start.
extension IdentityProvider {
    // MARK: faults

    /// Registers `fault`; returns it with its ID.
    public func addFault(_ fault: Fault) -> Fault {
        state.withLock { s in
            var f = fault
            s.nextControlID += 1
            f.id = s.nextControlID
            s.faults.append(f)
            return f
        }
    }

    /// True when any fault waits (a cheap check before matching).
    public var hasFaults: Bool { state.withLock { !$0.faults.isEmpty } }

    /// The faults waiting, oldest first.
    public var faults: [Fault] { state.withLock { $0.faults } }

    /// The oldest fault matching `target`, counted as used; nil when none does. A request whose `claims` answer a
    /// fault's challenge is not matched by that fault.
    public func takeFault(for target: FaultTarget) -> Fault? {
        state.withLock { s in
            let directory = s.directory
            guard let index = s.faults.firstIndex(where: { fault in
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
            }) else { return nil }
            let fault = s.faults[index]
            if let remaining = fault.remaining {
                if remaining <= 1 { s.faults.remove(at: index) } else { s.faults[index].remaining = remaining - 1 }
            }
            return fault
        }
    }

    // MARK: extra claims

    /// Registers claims for the next matching token responses; returns them with their ID.
    public func addExtraClaims(_ extra: ExtraClaims) -> ExtraClaims {
        state.withLock { s in
            var e = extra
            s.nextControlID += 1
            e.id = s.nextControlID
            s.extraClaims.append(e)
            return e
        }
    }

    /// The claims every matching registration adds to one token response (later registrations win), each
    /// registration counted as used.
    func takeExtraClaims(clientID: String, username: String?) -> JSONObject {
        state.withLock { s in
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
    }

    // MARK: keys

    /// Signs with `key` from now on; the keys used before stay published until `retireSigningKeys`.
    public func rotateSigningKey(to key: SigningKey) {
        state.withLock { s in
            s.keys.insert(key, at: 0)
            s.generation += 1
        }
    }

    /// Removes every key but the one that signs from the key sets; returns the key IDs removed.
    @discardableResult
    public func retireSigningKeys() -> [String] {
        state.withLock { s in
            let retired = s.keys.dropFirst().map(\.keyID)
            s.keys = Array(s.keys.prefix(1))
            s.generation += 1
            return retired
        }
    }

    // MARK: reset

    /// Back to the start: the loaded configuration's users and apps, no sessions, codes, device codes or refresh
    /// tokens, no faults or extra claims, and the real time. Signing keys stay as they are.
    public func reset() {
        restoreLoadedConfiguration()
        state.withLock { s in
            s.refreshTokens.removeAll()
            s.authorizationCodes.removeAll()
            s.sessions.removeAll()
            s.deviceCodes.removeAll()
            s.faults.removeAll()
            s.extraClaims.removeAll()
        }
        clock.reset()
    }
}
