/// The claims of an ID token from the v1 endpoints (ADAL), in Entra's order (reference/entra-protocol.md §5.1).
struct V1IDTokenClaims: Encodable {
    var audience: String
    var issuer: String
    var issuedAt: Int
    var notBefore: Int
    var expires: Int
    var authTime: Int?
    var authenticationMethods: [String]
    var aio: String
    var nonce: String?
    var codeHash: String?
    var accessTokenHash: String?
    var identityProvider: String?
    var email: String?
    var familyName: String?
    var givenName: String?
    var name: String?
    var groups: [String]?
    var objectID: String
    var refreshHint: String
    var roles: [String]?
    var subject: String
    var tenantID: String
    var uniqueName: String
    var userPrincipalName: String?
    var tokenIdentifier: String
    var version = "1.0"
    var authenticationContexts: [String]?

    enum CodingKeys: String, CodingKey {
        case audience = "aud", issuer = "iss", issuedAt = "iat", notBefore = "nbf", expires = "exp"
        case authTime = "auth_time", authenticationMethods = "amr", aio, nonce, codeHash = "c_hash"
        case accessTokenHash = "at_hash", identityProvider = "idp", email, familyName = "family_name"
        case givenName = "given_name", name, groups, objectID = "oid", refreshHint = "rh", roles, subject = "sub"
        case tenantID = "tid", uniqueName = "unique_name", userPrincipalName = "upn", tokenIdentifier = "uti"
        case version = "ver", authenticationContexts = "acrs"
    }
}
