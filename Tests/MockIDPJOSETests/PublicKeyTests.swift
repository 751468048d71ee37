import MockIDPJOSE
import Testing

@Suite struct PublicKeyTests {
    private let data = Array("eyJ0eXAiOiJKV1QifQ.eyJhdWQiOiJhcGkifQ".utf8)

    @Test("PEM round-trips for RSA and EC keys", arguments: [false, true])
    func pemRoundTrip(ec: Bool) throws {
        let key = ec ? try TestKeys.ec.get() : try TestKeys.rsa.get()
        let pem = try key.publicKey.pem
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let reloaded = try PublicKey(pem: pem)
        #expect(try reloaded.pem == pem)
        let algorithm: SignatureAlgorithm = ec ? .es256 : .rs256
        #expect(reloaded.verify(signature: try key.sign(data, algorithm: algorithm), for: data, algorithm: algorithm))
    }

    @Test("isSame: a key's public half, read again from its PEM, is the same key; another key or type is not")
    func sameKey() throws {
        let rsa = try TestKeys.rsa.get(), ec = try TestKeys.ec.get()
        #expect(rsa.publicKey.isSame(as: try PublicKey(pem: try rsa.publicKey.pem)))
        #expect(rsa.publicKey.isSame(as: try PrivateKey(pem: try rsa.pkcs8PEM).publicKey))
        #expect(ec.publicKey.isSame(as: try PrivateKey(pem: try ec.pkcs8PEM).publicKey))
        #expect(!rsa.publicKey.isSame(as: try TestKeys.otherRSA.get().publicKey))
        #expect(!ec.publicKey.isSame(as: try TestKeys.otherEC.get().publicKey))
        #expect(!rsa.publicKey.isSame(as: ec.publicKey))
    }

    @Test("the public half a private key derives is what the openssl CLI derives from the same PEM",
          .enabled(if: ExternalTool.isInstalled("openssl")), arguments: [false, true])
    func publicHalfMatchesOpenSSL(ec: Bool) throws {
        let key = ec ? try TestKeys.ec.get() : try TestKeys.rsa.get()
        let outcome = try ExternalTool.run("openssl", ["pkey", "-pubout"], input: try key.pkcs8PEM)
        #expect(outcome.status == 0)
        let derived = try PrivateKey(pem: try key.pkcs8PEM).publicKey.pem
        #expect(derived == outcome.output)
    }

    @Test("the public PEM carries no private material")
    func publicOnly() throws {
        let pem = try TestKeys.rsa.get().publicKey.pem
        #expect(!pem.contains("PRIVATE"))
        #expect(throws: OpenSSLError.self) { try PrivateKey(pem: pem) }
    }

    @Test("n and e round-trip into a key that verifies the private key's signatures")
    func rsaComponentsRoundTrip() throws {
        let key = try TestKeys.rsa.get()
        let (n, e) = try #require(key.publicKey.rsaComponents)
        let rebuilt = try PublicKey.rsa(modulus: n, exponent: e)
        #expect(try rebuilt.pem == key.publicKey.pem)
        #expect(rebuilt.verify(signature: try key.sign(data, algorithm: .rs256), for: data, algorithm: .rs256))
    }

    @Test("leading zero bytes in n are ignored, and components come back without them")
    func leadingZeros() throws {
        let (n, e) = try #require(try TestKeys.rsa.get().publicKey.rsaComponents)
        let rebuilt = try PublicKey.rsa(modulus: [0, 0] + n, exponent: [0] + e)
        #expect(rebuilt.rsaComponents?.modulus == n)
        #expect(rebuilt.rsaComponents?.exponent == e)
    }

    @Test("numbers that cannot be an RSA public key are refused")
    func badComponents() {
        #expect(throws: OpenSSLError.self) { try PublicKey.rsa(modulus: [], exponent: [1, 0, 1]) }
        #expect(throws: OpenSSLError.self) { try PublicKey.rsa(modulus: [0x0C], exponent: [1, 0, 1]) }
    }

    @Test("a tampered message or signature does not verify", arguments: SignatureAlgorithm.allCases)
    func tampering(algorithm: SignatureAlgorithm) throws {
        let (key, _) = try TestKeys.pair(for: algorithm)
        let signature = try key.sign(data, algorithm: algorithm)
        var otherData = data
        otherData[otherData.count - 1] ^= 0x01
        #expect(!key.publicKey.verify(signature: signature, for: otherData, algorithm: algorithm))
        for index in [0, signature.count / 2, signature.count - 1] {
            var otherSignature = signature
            otherSignature[index] ^= 0x80
            #expect(!key.publicKey.verify(signature: otherSignature, for: data, algorithm: algorithm))
        }
    }

    @Test("another key of the same kind does not verify", arguments: SignatureAlgorithm.allCases)
    func wrongKey(algorithm: SignatureAlgorithm) throws {
        let (key, stranger) = try TestKeys.pair(for: algorithm)
        let signature = try key.sign(data, algorithm: algorithm)
        #expect(!stranger.publicKey.verify(signature: signature, for: data, algorithm: algorithm))
    }

    @Test("a signature is only good for the algorithm that made it")
    func algorithmMismatch() throws {
        let rsa = try TestKeys.rsa.get(), ec = try TestKeys.ec.get()
        let rs256 = try rsa.sign(data, algorithm: .rs256)
        #expect(!rsa.publicKey.verify(signature: rs256, for: data, algorithm: .rs384))
        #expect(!rsa.publicKey.verify(signature: rs256, for: data, algorithm: .ps256))
        #expect(!rsa.publicKey.verify(signature: rs256, for: data, algorithm: .es256))
        let es256 = try ec.sign(data, algorithm: .es256)
        #expect(!ec.publicKey.verify(signature: es256, for: data, algorithm: .rs256))
        #expect(!rsa.publicKey.verify(signature: es256, for: data, algorithm: .es256))
    }

    @Test("garbage signatures give false, never a throw or a crash", arguments: SignatureAlgorithm.allCases)
    func garbage(algorithm: SignatureAlgorithm) throws {
        let (key, _) = try TestKeys.pair(for: algorithm)
        let candidates: [[UInt8]] = [
            [], [0], [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xFF, count: 64),
            [UInt8](repeating: 0, count: 256), [UInt8](repeating: 0xFF, count: 256), [UInt8](repeating: 7, count: 4096),
            SecureRandom.bytes(63), SecureRandom.bytes(65), SecureRandom.bytes(255), SecureRandom.bytes(257),
        ]
        for signature in candidates {
            #expect(!key.publicKey.verify(signature: signature, for: data, algorithm: algorithm))
        }
    }

    @Test("a failed verification leaves no stale OpenSSL error behind to confuse the next call", arguments: SignatureAlgorithm.allCases)
    func errorQueueDrained(algorithm: SignatureAlgorithm) throws {
        let (key, stranger) = try TestKeys.pair(for: algorithm)
        let signature = try key.sign(data, algorithm: algorithm)
        _ = try? PublicKey(pem: "garbage")  // empties this thread's queue of anything earlier tests left
        let baseline = try #require(throws: OpenSSLError.self) { try PublicKey(pem: "garbage") }
        #expect(!baseline.reasons.isEmpty)
        for candidate in [[1, 2, 3], signature, [UInt8](repeating: 0xFF, count: signature.count)] {
            #expect(!stranger.publicKey.verify(signature: candidate, for: data, algorithm: algorithm))
            let after = try #require(throws: OpenSSLError.self) { try PublicKey(pem: "garbage") }
            #expect(after.reasons == baseline.reasons)
        }
    }

    @Test("RFC 7515 A.3's ES256 signature verifies with its P-256 key")
    func rfc7515ES256() throws {
        let key = try PublicKey(pem: RFC7515.es256PublicKeyPEM())
        let parts = RFC7515.es256Token.split(separator: ".")
        let signature = try RFC7515.decoded(String(parts[2]))
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        #expect(key.verify(signature: signature, for: input, algorithm: .es256))
        #expect(!key.verify(signature: signature, for: input + [0x20], algorithm: .es256))
    }

    @Test("PS256 from Python with the maximum salt length verifies (salt length is not pinned when verifying)",
          .enabled(if: PythonCryptography.isAvailable))
    func pythonPSS() throws {
        let key = try TestKeys.rsa.get()
        let outcome = try PythonCryptography.run(
            PythonCryptography.signPSSMaximumSaltScript, arguments: [try key.pkcs8PEM, Base64URL.encode(data)])
        #expect(outcome.status == 0)
        let signature = try #require(Base64URL.decode(outcome.output.filter { !$0.isWhitespace }))
        #expect(signature.count == 256)
        #expect(key.publicKey.verify(signature: signature, for: data, algorithm: .ps256))
        #expect(!key.publicKey.verify(signature: signature, for: data + [0], algorithm: .ps256))
    }
}
