import Foundation
import MockIDPJOSE
import Testing

@Suite struct CertificateTests {
    /// A CA and a server certificate it issued, made once for the suite's tests.
    struct Chain {
        let caKey: PrivateKey
        let ca: Certificate
        let serverKey: PrivateKey
        let server: Certificate
    }

    static let chain = Result { () throws(OpenSSLError) -> Chain in
        let caKey = try PrivateKey.generateECP256()
        let ca = try Certificate.certificateAuthority(
            key: caKey, commonName: "mockidp local CA 1f2e", organization: "mockidp", validityDays: 3650)
        let serverKey = try TestKeys.rsa.get()
        let server = try Certificate.serverCertificate(
            publicKey: serverKey.publicKey, commonName: "localhost", dnsNames: ["localhost", "login.microsoftonline.com"],
            ipAddresses: ["127.0.0.1", "::1"], issuer: ca, issuerKey: caKey, validityDays: 397)
        return Chain(caKey: caKey, ca: ca, serverKey: serverKey, server: server)
    }

    private var now: Int { Int(Date().timeIntervalSince1970) }

    @Test("the server certificate was issued by the CA, and not the other way round")
    func issuance() throws {
        let chain = try Self.chain.get()
        #expect(chain.server.isIssued(by: chain.ca))
        #expect(chain.ca.isIssued(by: chain.ca))
        #expect(!chain.ca.isIssued(by: chain.server))
        #expect(!chain.server.isIssued(by: chain.server))
    }

    @Test("a CA with the same name but another key did not issue the server certificate")
    func impostorCA() throws {
        let chain = try Self.chain.get()
        let impostorKey = try TestKeys.otherEC.get()
        let impostor = try Certificate.certificateAuthority(
            key: impostorKey, commonName: "mockidp local CA 1f2e", organization: "mockidp", validityDays: 10)
        #expect(impostor.subjectText == chain.ca.subjectText)
        #expect(!chain.server.isIssued(by: impostor))
    }

    @Test("the CA is marked as one, the server certificate is not")
    func authorityFlags() throws {
        let chain = try Self.chain.get()
        #expect(chain.ca.isCertificateAuthority)
        #expect(!chain.server.isCertificateAuthority)
    }

    @Test("names read back: common name, RFC 4514 subject text, and DNS plus IP subjectAltNames")
    func names() throws {
        let chain = try Self.chain.get()
        #expect(chain.ca.subjectCommonName == "mockidp local CA 1f2e")
        #expect(chain.ca.subjectText == "CN=mockidp local CA 1f2e, O=mockidp")
        #expect(chain.server.subjectText == "CN=localhost")
        #expect(chain.server.subjectAlternativeNames == ["localhost", "login.microsoftonline.com", "127.0.0.1", "::1"])
        #expect(chain.ca.subjectAlternativeNames.isEmpty)
    }

    @Test("validity starts an hour ago and lasts the days asked for")
    func validity() throws {
        let chain = try Self.chain.get()
        let now = self.now
        // The chain is made once per test process, possibly well before this test runs on a loaded machine.
        #expect(abs(chain.server.notBefore - (now - 3_600)) <= 120)
        #expect(abs(chain.server.notAfter - (now + 397 * 86_400)) <= 120)
        #expect(abs(chain.ca.notAfter - (now + 3_650 * 86_400)) <= 120)
    }

    @Test("an issuer key that does not match the issuer certificate is refused")
    func mismatchedIssuerKey() throws {
        let chain = try Self.chain.get()
        let error = try #require(throws: OpenSSLError.self) {
            try Certificate.serverCertificate(
                publicKey: chain.serverKey.publicKey, commonName: "x", dnsNames: ["x"], ipAddresses: [],
                issuer: chain.ca, issuerKey: TestKeys.otherEC.get(), validityDays: 1)
        }
        #expect(error.operation == "X509_check_private_key")
    }

    @Test("names that are not DNS names or IP addresses are refused, not smuggled into the extension",
          arguments: [(["a,IP:1.2.3.4"], [String]()), (["bad name"], []), (["bücher.example"], []), ([], ["localhost"]),
                      ([], ["1.2.3.4,DNS:x"]), ([], ["999.1.1.1"])])
    func badAlternativeNames(dnsNames: [String], ipAddresses: [String]) throws {
        let chain = try Self.chain.get()
        #expect(throws: OpenSSLError.self) {
            try Certificate.serverCertificate(
                publicKey: chain.serverKey.publicKey, commonName: "x", dnsNames: dnsNames, ipAddresses: ipAddresses,
                issuer: chain.ca, issuerKey: chain.caKey, validityDays: 1)
        }
    }

    @Test("PEM and DER round-trip to the same certificate")
    func encodings() throws {
        let server = try Self.chain.get().server
        #expect(server.pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(server.pem.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(try Certificate(pem: server.pem).der == server.der)
        #expect(try Certificate(der: server.der).der == server.der)
        #expect(throws: OpenSSLError.self) { try Certificate(der: server.der + [0]) }
        #expect(throws: OpenSSLError.self) { try Certificate(der: Array(server.der.dropLast())) }
        #expect(throws: OpenSSLError.self) { try Certificate(pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n") }
    }

    @Test("a chain file reads back in order; the single reader takes the first certificate past other blocks")
    func chainParsing() throws {
        let chain = try Self.chain.get()
        let text = try chain.serverKey.pkcs8PEM + chain.server.pem + "\n" + chain.ca.pem
        let parsed = try Certificate.parseChain(pem: text)
        #expect(parsed.map(\.der) == [chain.server.der, chain.ca.der])
        #expect(try Certificate(pem: text).der == chain.server.der)
        #expect(try PrivateKey(pem: chain.server.pem + chain.serverKey.pkcs8PEM).publicKey.pem == chain.serverKey.publicKey.pem)
        #expect(throws: OpenSSLError.self) { try Certificate.parseChain(pem: try chain.serverKey.pkcs8PEM) }
        #expect(throws: OpenSSLError.self) {
            try Certificate.parseChain(pem: chain.server.pem + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        }
    }

    @Test("the public key in the certificate is the key it was made for")
    func publicKey() throws {
        let chain = try Self.chain.get()
        #expect(try chain.server.publicKey.pem == chain.serverKey.publicKey.pem)
        #expect(try chain.ca.publicKey.pem == chain.caKey.publicKey.pem)
    }

    @Test("a self-signed signing certificate: thumbprints over the DER, CA:FALSE, the CN as given")
    func selfSigned() throws {
        let key = try TestKeys.rsa.get()
        let certificate = try Certificate.selfSigned(key: key, commonName: "accounts.accesscontrol.windows.net", validityDays: 730)
        #expect(certificate.sha1Thumbprint == Digest.sha1(certificate.der))
        #expect(certificate.sha1Thumbprint.count == 20)
        #expect(certificate.sha256Thumbprint == Digest.sha256(certificate.der))
        #expect(!certificate.isCertificateAuthority)
        #expect(certificate.isIssued(by: certificate))
        #expect(certificate.subjectCommonName == "accounts.accesscontrol.windows.net")
        #expect(certificate.publicKey.rsaComponents?.modulus == key.publicKey.rsaComponents?.modulus)
    }

    @Test("two certificates for the same key have different random serials, hence different thumbprints")
    func serials() throws {
        let key = try TestKeys.ec.get()
        let a = try Certificate.selfSigned(key: key, commonName: "same", validityDays: 1)
        let b = try Certificate.selfSigned(key: key, commonName: "same", validityDays: 1)
        #expect(a.sha1Thumbprint != b.sha1Thumbprint)
    }

    @Test("subject text escapes RFC 4514 specials and keeps Unicode")
    func subjectEscaping() throws {
        let certificate = try Certificate.certificateAuthority(
            key: TestKeys.ec.get(), commonName: "a,b+c \"q\" Zoë", organization: " lead#", validityDays: 1)
        #expect(certificate.subjectText == #"CN=a\,b\+c \"q\" Zoë, O=\ lead#"#)
        #expect(certificate.subjectCommonName == "a,b+c \"q\" Zoë")
    }

    @Test("an expired certificate can be made for tests and reports its dates")
    func expired() throws {
        let certificate = try Certificate.selfSigned(key: TestKeys.ec.get(), commonName: "old", validityDays: -2)
        #expect(certificate.notAfter < now - 86_400)
    }

    // MARK: Independent checks with the openssl CLI

    @Test("`openssl verify -x509_strict` accepts the chain for a TLS server on its names",
          .enabled(if: ExternalTool.isInstalled("openssl")))
    func opensslVerifies() throws {
        let chain = try Self.chain.get()
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let caFile = directory.appendingPathComponent("ca.pem"), serverFile = directory.appendingPathComponent("server.pem")
        try chain.ca.pem.write(to: caFile, atomically: true, encoding: .utf8)
        try chain.server.pem.write(to: serverFile, atomically: true, encoding: .utf8)
        for extra in [["-verify_hostname", "localhost"], ["-verify_hostname", "login.microsoftonline.com"],
                      ["-verify_ip", "127.0.0.1"], ["-verify_ip", "::1"]] {
            let outcome = try ExternalTool.run(
                "openssl", ["verify", "-x509_strict", "-purpose", "sslserver", "-CAfile", caFile.path] + extra + [serverFile.path])
            #expect(outcome.status == 0, "\(extra): \(outcome.output)")
            #expect(outcome.output.hasSuffix(": OK\n"))
        }
        let wrongName = try ExternalTool.run(
            "openssl", ["verify", "-CAfile", caFile.path, "-verify_hostname", "example.com", serverFile.path])
        #expect(wrongName.status != 0)
    }

    @Test("`openssl verify` rejects the server certificate against a different CA",
          .enabled(if: ExternalTool.isInstalled("openssl")))
    func opensslRejectsOtherCA() throws {
        let chain = try Self.chain.get()
        let other = try Certificate.certificateAuthority(
            key: TestKeys.otherEC.get(), commonName: "other CA", organization: nil, validityDays: 10)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let caFile = directory.appendingPathComponent("ca.pem"), serverFile = directory.appendingPathComponent("server.pem")
        try other.pem.write(to: caFile, atomically: true, encoding: .utf8)
        try chain.server.pem.write(to: serverFile, atomically: true, encoding: .utf8)
        let outcome = try ExternalTool.run("openssl", ["verify", "-CAfile", caFile.path, serverFile.path])
        #expect(outcome.status != 0)
    }

    @Test("the extensions are the ones asked for, as `openssl x509 -text` reads them, and the PEM is what openssl writes",
          .enabled(if: ExternalTool.isInstalled("openssl")))
    func opensslReadsExtensions() throws {
        let chain = try Self.chain.get()
        let server = try ExternalTool.run("openssl", ["x509", "-noout", "-text"], input: chain.server.pem).output
        #expect(server.contains("X509v3 Basic Constraints: critical\n                CA:FALSE"))
        #expect(server.contains("X509v3 Key Usage: critical\n                Digital Signature, Key Encipherment"))
        #expect(server.contains("X509v3 Extended Key Usage: \n                TLS Web Server Authentication"))
        #expect(server.contains("DNS:localhost, DNS:login.microsoftonline.com, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1"))
        #expect(server.contains("X509v3 Authority Key Identifier"))
        #expect(server.contains("X509v3 Subject Key Identifier"))
        #expect(server.contains("Signature Algorithm: ecdsa-with-SHA256"))
        let ca = try ExternalTool.run("openssl", ["x509", "-noout", "-text"], input: chain.ca.pem).output
        #expect(ca.contains("X509v3 Basic Constraints: critical\n                CA:TRUE, pathlen:0"))
        #expect(ca.contains("X509v3 Key Usage: critical\n                Certificate Sign, CRL Sign"))
        #expect(try ExternalTool.run("openssl", ["x509"], input: chain.server.pem).output == chain.server.pem)
        let serial = try ExternalTool.run("openssl", ["x509", "-noout", "-serial"], input: chain.server.pem).output
        #expect(serial.hasPrefix("serial="))
        #expect(serial.count <= "serial=".count + 32 + 1)
    }
}
