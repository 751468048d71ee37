/// How a client proved who it is at the token endpoint, as Entra writes it in `appidacr` (v1) and `azpacr` (v2).
package enum ClientAuthenticationMethod: String, Sendable {
    /// A public client: no credential.
    case none = "0"
    /// A client secret (in the body or HTTP Basic).
    case secret = "1"
    /// A client assertion: signed with a registered certificate, or a federated token.
    case certificate = "2"
}
