import MockIDPJOSE

/// Where the provider gets random bytes (codes, token IDs, GUIDs); tests pass a seeded one.
package protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// Random bytes from the operating system's CSPRNG (through OpenSSL).
package struct SystemRandom: RandomSource {
    package init() {}
    package func bytes(_ count: Int) -> [UInt8] { SecureRandom.bytes(count) }
}
