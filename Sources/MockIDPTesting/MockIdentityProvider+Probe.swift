import MockIDPCore
import MockIDPJOSE

/// One verdict of `MockIdentityProvider.probe`: the defect (nil for the clean token), the status the relying
/// party answered, and whether that is the answer it must give (2xx for the clean token, 401 or 403 otherwise).
public struct ProbeVerdict: Sendable, CustomStringConvertible {
    /// The defect of the token sent; nil for the clean token.
    public let defect: MockDefect?
    /// The HTTP status the relying party answered.
    public let status: Int
    /// Whether that is the answer it must give.
    public let holds: Bool

    /// `defect status ok|FAIL: …`.
    public var description: String {
        "\(defect?.rawValue ?? "(clean)") \(status) \(holds ? "ok" : defect == nil ? "FAIL: must be accepted" : "FAIL: must be refused")"
    }
}

/// What `MockIdentityProvider.probe` found: a verdict per token sent, and the defects the token could not carry.
public struct ProbeReport: Sendable, CustomStringConvertible {
    public let verdicts: [ProbeVerdict]
    /// Defects skipped because the token asked for cannot carry them (a nonce or hash defect on an access token).
    public let skipped: [MockDefect]

    /// True when the clean token was accepted and every defective one refused.
    public var passed: Bool { verdicts.allSatisfy(\.holds) }
    /// The verdicts that fail.
    public var failures: [ProbeVerdict] { verdicts.filter { !$0.holds } }

    /// One verdict per line.
    public var description: String { verdicts.map(\.description).joined(separator: "\n") }
}

extension MockIdentityProvider {
    /// Which token `probe` mints.
    public enum ProbeToken: Sendable {
        /// An access token: the user's delegated token when `username` is given, else app-only (`scope` one
        /// `{resource}/.default`).
        case access
        /// An ID token for `username`.
        case id
    }

    /// Probes a relying party's token check in-process: calls `handler` with one clean token and one token per
    /// defect (as `mockidp probe` does over HTTP), each minted with this provider's keys for `clientID` in `tenant`,
    /// and collects the status each call returns. `handler` gets the token (send it as `Authorization: Bearer`
    /// through your router, or call your validator) and returns the HTTP status your API answers.
    public func probe(tenant: String, clientID: String, username: String? = nil, scopes: [String], token: ProbeToken = .access,
                      claims: [(name: String, value: String)] = [],
                      _ handler: (String) async throws -> Int) async throws -> ProbeReport {
        var verdicts: [ProbeVerdict] = []
        var skipped: [MockDefect] = []
        for defect in TokenDefect.probeTokens {
            let request = MintRequest(kind: token == .id ? .id : .access, tenant: tenant, clientID: clientID, username: username,
                                      scopes: scopes, claims: claims, baseURL: baseURL,
                                      defect: defect)
            let minted: String
            switch server.provider.minting.mint(request) {
            case .success(let t): minted = t
            case .failure(let error):
                if let defect { skipped.append(defect); continue }
                throw ProbeError(reason: error.reason)
            }
            let status = try await handler(minted)
            verdicts.append(ProbeVerdict(defect: defect, status: status, holds: TokenDefect.probeVerdictHolds(defect, status: status)))
        }
        return ProbeReport(verdicts: verdicts, skipped: skipped)
    }
}

/// `probe` could not mint the clean token (an unknown tenant, client, user or scope).
public struct ProbeError: Error, Sendable, CustomStringConvertible {
    /// Why, in the words of the token endpoint's checks.
    public let reason: String
    /// The reason as a sentence.
    public var description: String { "the probe could not mint its clean token: \(reason)" }
}
