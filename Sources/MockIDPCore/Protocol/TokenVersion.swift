/// The version of a token's format (`ver`): v1 tokens name the sts.windows.net issuer, carry `appid`, `upn`,
/// `unique_name` and an `x5t` header; v2 tokens name the login host's `/v2.0` issuer and carry `azp`.
/// The version follows the API's `accessTokenVersion` for access tokens and the endpoint for ID tokens.
package enum TokenVersion: Int, Sendable {
    case v1 = 1
    case v2 = 2

    /// The version of tokens an endpoint of `protocolVersion` issues as ID tokens.
    init(_ protocolVersion: ProtocolVersion) { self = protocolVersion == .v1 ? .v1 : .v2 }
}
