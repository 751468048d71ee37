import MockIDPJOSE

/// The opaque claims every token carries, from one draw of random bytes: `aio` (Entra's internal claim, 64
/// characters), `rh` (the refresh hint) and `uti` (a 22-character token identifier).
package struct OpaqueClaims: Sendable {
    package let aio: String
    package let refreshHint: String
    package let tokenIdentifier: String

    package init(_ random: RandomSource) {
        let bytes = random.bytes(48 + 40 + 16)
        aio = Base64URL.encode(bytes[0..<48])
        refreshHint = Base64URL.encode(bytes[48..<88], between: "0.", and: ".")
        tokenIdentifier = Base64URL.encode(bytes[88..<104])
    }
}
