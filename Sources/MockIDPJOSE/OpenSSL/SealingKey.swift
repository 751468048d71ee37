import COpenSSL

/// A random AES-256-GCM key for values the server hands out and later takes back unchanged (refresh tokens): what it
/// seals can be read only by the same key, and any change to the sealed bytes is detected.
package struct SealingKey: Sendable {
    private let key: [UInt8]

    /// A fresh random key.
    package init() { key = SecureRandom.bytes(32) }

    /// `nonce (12) || ciphertext || tag (16)`, with a fresh random nonce.
    package func seal(_ plaintext: [UInt8]) -> [UInt8] {
        let nonce = SecureRandom.bytes(12)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        let status = key.withUnsafeBufferPointer { k in
            plaintext.withUnsafeBufferPointer { p in
                ciphertext.withUnsafeMutableBufferPointer { c in
                    tag.withUnsafeMutableBufferPointer { t in
                        COpenSSL_aes256gcm_seal(k.baseAddress, nonce, p.baseAddress, Int32(p.count), c.baseAddress, t.baseAddress)
                    }
                }
            }
        }
        // Sealing memory with a valid key and nonce cannot fail unless libcrypto cannot allocate.
        precondition(status == 1, "AES-256-GCM sealing failed")
        return nonce + ciphertext + tag
    }

    /// The plaintext of what `seal` made with this key; nil for anything else (another key, a changed byte, too short).
    package func open(_ sealed: [UInt8]) -> [UInt8]? {
        guard sealed.count >= 28, sealed.count - 28 <= Int(Int32.max) else { return nil }
        let nonce = Array(sealed[0..<12]), tag = Array(sealed[(sealed.count - 16)...])
        let ciphertext = Array(sealed[12..<(sealed.count - 16)])
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let status = key.withUnsafeBufferPointer { k in
            ciphertext.withUnsafeBufferPointer { c in
                plaintext.withUnsafeMutableBufferPointer { p in
                    COpenSSL_aes256gcm_open(k.baseAddress, nonce, c.baseAddress, Int32(c.count), tag, p.baseAddress)
                }
            }
        }
        return status == 1 ? plaintext : nil
    }
}
