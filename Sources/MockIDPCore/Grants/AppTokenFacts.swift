import MockIDPJOSE

/// What an app-only answer is made of, for the edge's speed shortcut to answer the same request again from the
/// answer's bytes (Core keeps no answers): the token as issued, its issued time and lifetime, the key and algorithm that
/// signed it, and the directory generation it was issued in.
///
/// `ClientCredentialsGrant` gives it only where the whole answer follows from the request and that directory
/// snapshot, so that a second answer differs only in the token's times and its opaque claims (`OpaqueClaims`): a
/// client authenticated by its secret (an assertion's `jti` is used once, and a federated credential's token
/// expires), no `claims` request, no optional claims on the API (its `ipaddr` is the caller's address), and no
/// extra claims or tamper faults of the control API in this answer. A plain value: Core keeps nothing of it.
package struct AppTokenFacts: Sendable {
    package let token: String
    package let issuedAt: Int
    package let lifetime: Int
    package let key: PrivateKey
    package let algorithm: SignatureAlgorithm
    /// The generation of the directory snapshot the answer was made from: the answer may be given again only in it.
    package let generation: Int
}
