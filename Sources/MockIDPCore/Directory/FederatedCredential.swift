/// A federated identity credential of an app registration (Microsoft Graph's `federatedIdentityCredential`):
/// a token from `issuer` whose `sub` is `subject` and whose `aud` names one of `audiences` is accepted as the
/// app's client assertion (workload identity federation). Entra compares all three exactly, case included
/// (Microsoft Learn, "Federated identity credentials now use case-sensitive matching").
public struct FederatedCredential: Sendable, Equatable {
    /// The external issuer's URL, as its tokens write `iss`.
    public var issuer: String
    /// The workload's identifier, as its tokens write `sub` (`system:serviceaccount:ns:name`, `repo:org/app:ref:…`).
    public var subject: String
    /// The values one of which the token's `aud` must hold; Entra's usual one is `api://AzureADTokenExchange`.
    public var audiences: [String]

    /// A credential trusting tokens of `issuer` for `subject` with one of `audiences`.
    public init(issuer: String, subject: String, audiences: [String]) {
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
    }
}
