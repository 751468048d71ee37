import MockIDPJOSE
import Synchronization

/// Where the provider gets random bytes (codes, token IDs, GUIDs); tests pass a seeded one.
package protocol RandomSource: Sendable {
    func bytes(_ count: Int) -> [UInt8]
}

/// Random bytes from the operating system's CSPRNG (through OpenSSL), drawn 4 KiB at a time: one call into
/// libcrypto serves many requests' identifiers, rather than one call for each identifier of every token. Each byte
/// is handed out once and wiped from the pool when taken.
package final class SystemRandom: RandomSource {
    private struct Pool {
        var bytes: [UInt8] = []
        var next = 0
    }

    private static let poolSize = 4096
    private let pool = Mutex(Pool())

    package init() {}

    package func bytes(_ count: Int) -> [UInt8] {
        guard count <= Self.poolSize / 4 else { return SecureRandom.bytes(count) }
        return pool.withLock { pool in
            if pool.next + count > pool.bytes.count {
                pool.bytes = SecureRandom.bytes(Self.poolSize)
                pool.next = 0
            }
            let start = pool.next
            pool.next += count
            return pool.bytes.withUnsafeMutableBufferPointer { all in
                let range = UnsafeMutableBufferPointer(rebasing: all[start..<(start + count)])
                let taken = Array(range)
                range.update(repeating: 0)
                return taken
            }
        }
    }
}
