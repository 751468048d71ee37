/// libcrypto's one-time work, done ahead of need: the default provider's loading and its first method lookups
/// (the SHA-256 every token, key and object ID uses) and the seeding of the random generator, which would otherwise
/// fall on the first request's path; `mockidp serve` runs this on another core while it parses its arguments.
package enum LibCryptoPreparation {
    package static func run() {
        _ = MessageDigest.sha256
        _ = SecureRandom.bytes(16)
    }
}
