import MockIDPJOSE

/// Where the provider gets random bytes (codes, token IDs, GUIDs); tests pass a seeded one.
public protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// Random bytes from the operating system's CSPRNG (through OpenSSL).
public struct SystemRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] { SecureRandom.bytes(count) }
}
