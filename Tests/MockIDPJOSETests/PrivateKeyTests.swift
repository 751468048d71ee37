import MockIDPJOSE
import Testing

@Suite struct PrivateKeyTests {
    @Test("RS256 over RFC 7515 A.2's signing input with its key gives the RFC's exact signature")
    func rfc7515RS256() throws {
        let key = try RFC7515.privateKey()
        let signature = try key.sign(Array(RFC7515.rs256SigningInput.utf8), algorithm: .rs256)
        #expect(Base64URL.encode(signature) == RFC7515.rs256Signature)
        #expect(signature.count == 256)
    }

    @Test("components that do not belong together are refused")
    func inconsistentComponents() throws {
        var d = try RFC7515.decoded(RFC7515.d)
        d[d.count - 1] ^= 0x01
        let error = try #require(throws: OpenSSLError.self) {
            try PrivateKey.rsa(
                n: RFC7515.decoded(RFC7515.n), e: RFC7515.decoded(RFC7515.e), d: d, p: RFC7515.decoded(RFC7515.p),
                q: RFC7515.decoded(RFC7515.q), dp: RFC7515.decoded(RFC7515.dp), dq: RFC7515.decoded(RFC7515.dq),
                qi: RFC7515.decoded(RFC7515.qi))
        }
        #expect(error.operation == "EVP_PKEY_pairwise_check")
    }

    @Test("a generated RSA key is 2048-bit RSA with exponent 65537")
    func generatedRSA() throws {
        let key = try TestKeys.rsa.get()
        #expect(key.isRSA)
        let components = try #require(key.publicKey.rsaComponents)
        #expect(components.modulus.count == 256)
        #expect(components.modulus.first ?? 0 >= 0x80)
        #expect(components.exponent == [0x01, 0x00, 0x01])
    }

    @Test("a generated EC key is not RSA and signs only ES256")
    func generatedEC() throws {
        let key = try TestKeys.ec.get()
        #expect(!key.isRSA)
        #expect(key.publicKey.rsaComponents == nil)
        #expect(throws: OpenSSLError.self) { try key.sign([1, 2, 3], algorithm: .rs256) }
        #expect(throws: OpenSSLError.self) { try key.sign([1, 2, 3], algorithm: .ps256) }
        #expect(throws: OpenSSLError.self) { try TestKeys.rsa.get().sign([1, 2, 3], algorithm: .es256) }
    }

    @Test("RSA sizes outside 1024...16384 bits are refused before reaching OpenSSL")
    func rsaSizeBounds() {
        #expect(throws: OpenSSLError.self) { try PrivateKey.generateRSA(bits: 512) }
        #expect(throws: OpenSSLError.self) { try PrivateKey.generateRSA(bits: 1 << 20) }
    }

    @Test("PKCS#8 PEM round-trips and the reloaded key makes the same signature", arguments: [false, true])
    func pemRoundTrip(ec: Bool) throws {
        let key = ec ? try TestKeys.ec.get() : try TestKeys.rsa.get()
        let pem = try key.pkcs8PEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try PrivateKey(pem: pem)
        #expect(reloaded.isRSA == key.isRSA)
        #expect(try reloaded.pkcs8PEM == pem)
        #expect(try reloaded.publicKey.pem == key.publicKey.pem)
        let algorithm: SignatureAlgorithm = ec ? .es256 : .rs256
        let signature = try reloaded.sign(Array("data".utf8), algorithm: algorithm)
        #expect(key.publicKey.verify(signature: signature, for: Array("data".utf8), algorithm: algorithm))
    }

    @Test("traditional RSA and EC PEM written by the openssl CLI load", .enabled(if: ExternalTool.isInstalled("openssl")),
          arguments: [["genrsa", "-traditional", "1024"], ["ecparam", "-name", "prime256v1", "-genkey", "-noout"]])
    func traditionalPEM(arguments: [String]) throws {
        let outcome = try ExternalTool.run("openssl", arguments)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("-----BEGIN RSA PRIVATE KEY-----")
            || outcome.output.contains("-----BEGIN EC PRIVATE KEY-----"))
        let key = try PrivateKey(pem: outcome.output)
        #expect(key.isRSA == (arguments[0] == "genrsa"))
        let algorithm: SignatureAlgorithm = key.isRSA ? .rs256 : .es256
        let signature = try key.sign([1, 2, 3], algorithm: algorithm)
        #expect(key.publicKey.verify(signature: signature, for: [1, 2, 3], algorithm: algorithm))
    }

    @Test("text that is not a private key fails with OpenSSL's reasons", arguments: [
        "", "not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    ])
    func badPEM(text: String) throws {
        let error = try #require(throws: OpenSSLError.self) { try PrivateKey(pem: text) }
        #expect(!error.reasons.isEmpty)
        #expect(error.description.contains("failed"))
    }

    @Test("an encrypted key is refused without prompting for a passphrase", .enabled(if: ExternalTool.isInstalled("openssl")))
    func encryptedPEM() throws {
        let outcome = try ExternalTool.run(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes-128-cbc", "-pass", "pass:secret"])
        #expect(outcome.output.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        let error = try #require(throws: OpenSSLError.self) { try PrivateKey(pem: outcome.output) }
        #expect(error.operation == "PEM_read_bio_PrivateKey")
    }

    @Test("a key type that cannot sign JOSE algorithms is refused, RSA-PSS-only keys among them (their PKCS#8 names another algorithm than rsaEncryption)",
          .enabled(if: ExternalTool.isInstalled("openssl")), arguments: [["-algorithm", "ED25519"], ["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:1024"]])
    func unsupportedKeyType(arguments: [String]) throws {
        let pem = try Self.pkcs8Block(try ExternalTool.run("openssl", ["genpkey"] + arguments).output)
        let error = try #require(throws: OpenSSLError.self) { try PrivateKey(pem: pem) }
        #expect(error.reasons.first?.contains("only RSA and EC keys") == true, "\(error)")
    }

    /// The PKCS#8 block of `openssl genpkey`'s output, which may begin with its progress dots (stderr, merged).
    private static func pkcs8Block(_ output: String) throws -> String {
        let start = try #require(output.range(of: "-----BEGIN PRIVATE KEY-----"))
        return String(output[start.lowerBound...])
    }

    @Test("PKCS#8 keys written by the openssl CLI load, RSA and P-256 alike, and sign", .enabled(if: ExternalTool.isInstalled("openssl")),
          arguments: [["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]])
    func pkcs8FromOpenSSL(arguments: [String]) throws {
        let pem = try Self.pkcs8Block(try ExternalTool.run("openssl", ["genpkey"] + arguments).output)
        let key = try PrivateKey(pem: pem)
        #expect(key.isRSA == (arguments[1] == "RSA"))
        let derived = try ExternalTool.run("openssl", ["pkey", "-pubout"], input: pem)
        #expect(try key.publicKey.pem == derived.output)
        let algorithm: SignatureAlgorithm = key.isRSA ? .rs256 : .es256
        #expect(key.publicKey.verify(signature: try key.sign([1, 2, 3], algorithm: algorithm), for: [1, 2, 3], algorithm: algorithm))
    }

    @Test("every algorithm signs and its signature verifies", arguments: SignatureAlgorithm.allCases)
    func signAndVerify(algorithm: SignatureAlgorithm) throws {
        let (key, _) = try TestKeys.pair(for: algorithm)
        let data = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0".utf8)
        let signature = try key.sign(data, algorithm: algorithm)
        #expect(signature.count == (algorithm == .es256 ? 64 : 256))
        #expect(key.publicKey.verify(signature: signature, for: data, algorithm: algorithm))
        #expect(key.publicKey.verify(signature: signature, for: data[...], algorithm: algorithm))
    }

    @Test("RS256 is deterministic; PS256 and ES256 are randomised")
    func determinism() throws {
        let rsa = try TestKeys.rsa.get(), ec = try TestKeys.ec.get()
        #expect(try rsa.sign([1], algorithm: .rs256) == rsa.sign([1], algorithm: .rs256))
        #expect(try rsa.sign([1], algorithm: .ps256) != rsa.sign([1], algorithm: .ps256))
        #expect(try ec.sign([1], algorithm: .es256) != ec.sign([1], algorithm: .es256))
    }

    @Test("empty data can be signed")
    func emptyData() throws {
        let key = try TestKeys.rsa.get()
        let signature = try key.sign([UInt8](), algorithm: .rs256)
        #expect(key.publicKey.verify(signature: signature, for: [UInt8](), algorithm: .rs256))
    }

    @Test("signing from several threads at once gives signatures that all verify")
    func concurrentSigning() async throws {
        let key = try TestKeys.rsa.get()
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    // Several rounds, so prepared signing contexts are lent again, across both algorithms.
                    (0..<8).allSatisfy { round in
                        let data = Array("token \(index) \(round)".utf8)
                        let algorithm: SignatureAlgorithm = (index + round) % 2 == 0 ? .rs256 : .ps256
                        guard let signature = try? key.sign(data, algorithm: algorithm) else { return false }
                        return key.publicKey.verify(signature: signature, for: data, algorithm: algorithm)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }

    @Test("a signature made on any thread, with whichever prepared context it gets, is the key's own")
    func signaturesAcrossThreadsAreTheKeys() async throws {
        // Prepared contexts are lent to whichever thread signs next; RS256 is deterministic, so every one of them must
        // give the bytes the key gives on this thread.
        let rsa = try TestKeys.rsa.get(), ec = try TestKeys.ec.get()
        let data = Array("header.payload".utf8)
        let expected = try rsa.sign(data, algorithm: .rs256)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    (0..<6).allSatisfy { _ in
                        guard let signature = try? rsa.sign(data, algorithm: .rs256),
                              let curve = try? ec.sign(data, algorithm: .es256)
                        else { return false }
                        return signature == expected && ec.publicKey.verify(signature: curve, for: data, algorithm: .es256)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 12)
        #expect(results.allSatisfy { $0 })
    }

    @Test("signatures verify in Python's cryptography package", .enabled(if: PythonCryptography.isAvailable),
          arguments: SignatureAlgorithm.allCases)
    func pythonVerifies(algorithm: SignatureAlgorithm) throws {
        let (key, _) = try TestKeys.pair(for: algorithm)
        let data = Array("header.payload from mockidp".utf8)
        let signature = try key.sign(data, algorithm: algorithm)
        let outcome = try PythonCryptography.run(
            PythonCryptography.verifyScript,
            arguments: [algorithm.rawValue, try key.publicKey.pem, Base64URL.encode(data), Base64URL.encode(signature)])
        #expect(outcome.output == "ok\n")
        var tampered = signature
        tampered[10] ^= 0x01
        let rejected = try PythonCryptography.run(
            PythonCryptography.verifyScript,
            arguments: [algorithm.rawValue, try key.publicKey.pem, Base64URL.encode(data), Base64URL.encode(tampered)])
        #expect(rejected.output == "bad\n")
    }
}
