import Foundation
import JWTKit

/// The claims of a Microsoft Entra v2 access token that this API reads. Decoding fails, and the token is refused,
/// when one it requires is missing (`iat`, `sub`, `tid`, `azp`, the times).
///
/// The claims and their meaning: Microsoft Learn, "Access token claims reference" (`aud`, `iss`, `tid`, `azp`, `scp`,
/// `iat`, `nbf`, `exp`).
public struct EntraAccessToken: JWTPayload {
    public var iss: IssuerClaim
    public var aud: AudienceClaim
    public var exp: ExpirationClaim
    public var nbf: NotBeforeClaim
    public var iat: IssuedAtClaim
    public var sub: SubjectClaim
    /// The tenant the token was issued in.
    public var tid: String
    /// The client application that asked for the token.
    public var azp: String
    /// The delegated scopes granted, separated by spaces (absent from app-only tokens).
    public var scp: String?
    public var name: String?
    public var preferredUsername: String?

    enum CodingKeys: String, CodingKey {
        case iss, aud, exp, nbf, iat, sub, tid, azp, scp, name
        case preferredUsername = "preferred_username"
    }

    /// Nothing here: `EntraTokenValidator` checks the claims against the API's settings once the signature holds.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
