import MockIDPJOSE

/// The claims of a federated token that decide which federated credential accepts it: `iss`, `sub`, and `aud`
/// as a string or a list (Kubernetes writes a list: `["api://AzureADTokenExchange"]`).
package struct FederatedAssertion: Sendable, Equatable {
    /// `iss`.
    package var issuer: String
    /// `sub`.
    package var subject: String
    /// `aud`, as a list.
    package var audiences: [String]

    /// The claims of a token, as read.
    package init(issuer: String, subject: String, audiences: [String]) {
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
    }

    /// The claims of `payload`; nil and why when one is missing or of the wrong type.
    package static func read(_ payload: JSONObject) -> Result<FederatedAssertion, JOSEError> {
        guard let issuer = payload["iss"]?.stringValue else { return .failure(JOSEError(reason: "it has no iss claim")) }
        guard let subject = payload["sub"]?.stringValue else { return .failure(JOSEError(reason: "it has no sub claim")) }
        let audiences: [String]
        switch payload["aud"] {
        case .string(let audience)?: audiences = [audience]
        case .array(let values)? where !values.isEmpty && values.allSatisfy({ $0.stringValue != nil }):
            audiences = values.compactMap(\.stringValue)
        default: return .failure(JOSEError(reason: "its aud claim is missing, or not a string or a list of strings"))
        }
        return .success(FederatedAssertion(issuer: issuer, subject: subject, audiences: audiences))
    }

    /// How Entra's messages print the audience: the first (or only) one.
    package var audienceText: String { audiences.first ?? "" }
}

/// Why no federated credential of an app accepts a token, in the order Entra checks
/// (docs/azure-sdks.md, "Azure SDKs: workload identity federation").
package enum FederatedMismatch: Error, Sendable, Equatable {
    /// The app has no federated credential (AADSTS70021).
    case noCredentials
    /// None has the token's issuer (AADSTS700211).
    case issuer
    /// Some have the issuer; none lists an audience the token names (AADSTS700212).
    case audience
    /// Some have the issuer and audience; none has the token's subject (AADSTS700213).
    case subject
}

extension Application {
    /// The federated credential that accepts `assertion`: issuer, one audience and subject equal, case included
    /// (Entra compares them exactly); else the first step that found none.
    package func federatedCredential(accepting assertion: FederatedAssertion) -> Result<FederatedCredential, FederatedMismatch> {
        guard !federatedCredentials.isEmpty else { return .failure(.noCredentials) }
        let byIssuer = federatedCredentials.filter { $0.issuer == assertion.issuer }
        guard !byIssuer.isEmpty else { return .failure(.issuer) }
        let byAudience = byIssuer.filter { credential in credential.audiences.contains(where: assertion.audiences.contains) }
        guard !byAudience.isEmpty else { return .failure(.audience) }
        guard let match = byAudience.first(where: { $0.subject == assertion.subject }) else { return .failure(.subject) }
        return .success(match)
    }
}

/// Fetches the key sets trusted issuers publish at a URL (`jwksUri`). The server's HTTP client does the fetching;
/// Core only asks. An implementation bounds how long a request waits and how often one URL is fetched.
package protocol RemoteKeySetSource: Sendable {
    /// The key set at `url`, fetched again first when it lacks `keyID` and the last fetch is not too recent.
    func keySet(at url: String, wanting keyID: String?) -> Result<JSONWebKeySet, KeySetProblem>
}

/// No HTTP client: every `jwksUri` is unavailable (a provider built without a server, in unit tests and
/// `mockidp token`).
package struct NoRemoteKeySets: RemoteKeySetSource {
    package init() {}

    package func keySet(at url: String, wanting keyID: String?) -> Result<JSONWebKeySet, KeySetProblem> {
        .failure(KeySetProblem(description: "this provider fetches no key set over HTTP"))
    }
}
