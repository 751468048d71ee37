import Foundation
@testable import MockIDPCore
import MockIDPJOSE
import MockIDPText
import MockIDPXML
import Testing

/// SAML single logout in Core (docs/saml.md, "Single logout"): a `LogoutRequest` over HTTP-Redirect is checked as
/// Entra checks it, and answered with the address of the app's `logoutUrl` carrying a DEFLATE'd, signed
/// `LogoutResponse`; its query signature is verified here with the `openssl` command.
@Suite struct SAMLLogoutTests {
    static let entity = "https://sp.example.test/saml/metadata"
    static let logoutURL = "https://sp.example.test/saml/sls"
    static let sha1Entity = "https://sha1.example.test/saml"
    static let noLogoutEntity = "https://nologout.example.test/saml"
    static let signedEntity = "https://signed.example.test/saml"
    static let spKey = Result { () throws(OpenSSLError) in try PrivateKey.generateRSA() }

    static func provider() throws -> IdentityProvider {
        let spCertificate = try Certificate.selfSigned(key: try spKey.get(), commonName: "sp", validityDays: 1)
        func app(_ id: String, _ entity: String, _ configure: (inout SAMLSettings) -> Void) -> Application {
            var app = Application(clientID: id, redirectURIs: ["https://sp.example.test/saml/acs"], identifierURIs: [entity])
            var settings = SAMLSettings()
            configure(&settings)
            app.saml = settings
            if settings.requireSignedRequests { app.certificates = [ClientCertificate(source: "sp.pem", pem: spCertificate.pem)] }
            return app
        }
        var configuration = Fixtures.configuration
        configuration.tenants[0].apps += [
            app("4d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a", entity) { $0.logoutURL = logoutURL },
            app("5d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a", sha1Entity) { $0.logoutURL = logoutURL + "?tenant=x"; $0.signingAlgorithm = .sha1 },
            app("6d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a", noLogoutEntity) { _ in },
            app("7d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a", signedEntity) { $0.logoutURL = logoutURL; $0.requireSignedRequests = true },
        ]
        return IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
    }

    static func logoutRequest(id: String = "_lr1", issuer: String = entity, version: String = "2.0",
                              nameID: String = "<saml:NameID>alice@contoso.onmicrosoft.com</saml:NameID>") -> String {
        "<samlp:LogoutRequest xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\" "
            + "ID=\"\(id)\" Version=\"\(version)\" IssueInstant=\"2026-01-01T00:00:00Z\"><saml:Issuer>\(issuer)</saml:Issuer>\(nameID)</samlp:LogoutRequest>"
    }

    /// `xml` over HTTP-Redirect (DEFLATE, base64), signed by `signer` when given.
    static func redirect(_ xml: String, relayState: String? = "rs 1/é", signer: PrivateKey? = nil) throws -> SAMLMessage {
        let message = Base64URL.encodeStandard(try RawDeflate.deflate(Array(xml.utf8)))
        guard let signer else {
            return SAMLMessage(samlRequest: message, relayState: relayState, binding: .redirect(signedText: nil, sigAlg: nil, signature: nil))
        }
        let sigAlg = XMLSignatureMethod.rsaSHA256.signatureURI
        let text = RedirectSignature.signedText(message: ("SAMLRequest", PercentEncoding.encode(message, spaceAsPlus: true)),
                                                relayState: relayState.map { PercentEncoding.encode($0, spaceAsPlus: true) }, sigAlg: PercentEncoding.encode(sigAlg, spaceAsPlus: true))
        let signature = Base64URL.encodeStandard(try RedirectSignature.sign(signedText: text, key: signer))
        return SAMLMessage(samlRequest: message, relayState: relayState, binding: .redirect(signedText: text, sigAlg: sigAlg, signature: signature))
    }

    static func check(_ provider: IdentityProvider, _ message: SAMLMessage) -> SAMLRequestCheck {
        provider.saml.check(message, tenant: Fixtures.contosoID, context: provider.testScope())
    }

    static func refusal(_ check: SAMLRequestCheck) -> OAuthError? { if case .errorPage(let error) = check { error } else { nil } }

    /// A redirect's parts: the address before the query, the query's parameters decoded, and the text signed as sent.
    static func parts(_ location: String) throws -> (base: String, query: [String: String], signedText: String) {
        let base = String(location.prefix { $0 != "?" })
        let query = String(location.dropFirst(base.count + 1))
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            values[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        let signed = try #require(query.range(of: "&Signature=")).lowerBound
        return (base, values, String(query[..<signed]))
    }

    /// Whether `openssl dgst` verifies `signature` over `text` with `certificate`'s key and `digest`.
    static func opensslVerifies(_ text: String, _ signature: [UInt8], _ certificate: Certificate, digest: String) throws -> Bool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try certificate.pem.write(to: directory.appendingPathComponent("cert.pem"), atomically: true, encoding: .utf8)
        try Data(signature).write(to: directory.appendingPathComponent("sig.bin"))
        try text.write(to: directory.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.currentDirectoryURL = directory
        process.arguments = ["-c", "openssl x509 -in cert.pem -pubkey -noout > pub.pem && openssl dgst -\(digest) -verify pub.pem -signature sig.bin data.txt"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("a LogoutRequest is answered at the logoutUrl with Entra's LogoutResponse, the query signed with the app's key", arguments: [false, true])
    func answered(sha1: Bool) throws {
        let provider = try Self.provider()
        let entity = sha1 ? Self.sha1Entity : Self.entity
        let checked = Self.check(provider, try Self.redirect(Self.logoutRequest(issuer: entity)))
        guard case .signOut(let location) = checked else {
            Issue.record("not answered: \(checked)")
            return
        }
        let (base, query, signedText) = try Self.parts(location)
        #expect(base == Self.logoutURL)
        #expect(signedText.hasPrefix(sha1 ? "tenant=x&SAMLResponse=" : "SAMLResponse="))
        #expect(query["RelayState"] == "rs 1/é" && signedText.contains("&RelayState=rs+1%2F%C3%A9&SigAlg="))
        let method: XMLSignatureMethod = sha1 ? .rsaSHA1 : .rsaSHA256
        #expect(query["SigAlg"] == method.signatureURI)

        let samlResponse = try #require(query["SAMLResponse"])
        let deflated = try #require(Base64URL.decode(samlResponse, ignoringWhitespace: false))
        let document = try InboundDocument(try RawDeflate.inflate(deflated))
        let root = document.root
        #expect(root.namespace == XMLNamespace.protocolMessages && root.name == "LogoutResponse")
        #expect(root[attribute: "ID"]?.hasPrefix("_") == true && root[attribute: "ID"]?.count == 37)
        #expect(root[attribute: "Version"] == "2.0" && root[attribute: "InResponseTo"] == "_lr1")
        #expect(root[attribute: "IssueInstant"] == SAMLResponseDocument.instant(Fixtures.now))
        #expect(root[attribute: "Destination"] == (sha1 ? Self.logoutURL + "?tenant=x" : Self.logoutURL))
        #expect(root.child(XMLNamespace.assertion, "Issuer")?.text == "https://login.microsoftonline.com/\(Fixtures.contosoID)/")
        #expect(root.child(XMLNamespace.protocolMessages, "Status")?.child(XMLNamespace.protocolMessages, "StatusCode")?[attribute: "Value"]
            == "urn:oasis:names:tc:SAML:2.0:status:Success")

        // The query signature, over the three parameters as sent, verifies with the app's current SAML certificate.
        let clientID = sha1 ? "5d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a" : "4d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a"
        let keys = try provider.samlCertificates.keys(tenantID: Fixtures.contosoID, clientID: clientID)
        let certificate = try #require(keys.first).certificate
        let encodedSignature = try #require(query["Signature"])
        let signature = try #require(Base64URL.decode(encodedSignature, ignoringWhitespace: false))
        let unprefixed = sha1 ? String(signedText.dropFirst("tenant=x&".count)) : signedText
        #expect(try Self.opensslVerifies(unprefixed, signature, certificate, digest: sha1 ? "sha1" : "sha256"))
        #expect(try !Self.opensslVerifies(unprefixed + "x", signature, certificate, digest: sha1 ? "sha1" : "sha256"))
        let other = try Certificate.selfSigned(key: try Self.spKey.get(), commonName: "other", validityDays: 1)
        #expect(try !Self.opensslVerifies(unprefixed, signature, other, digest: sha1 ? "sha1" : "sha256"))
    }

    @Test("no RelayState in the request: none in the answer")
    func noRelayState() throws {
        let provider = try Self.provider()
        guard case .signOut(let location) = Self.check(provider, try Self.redirect(Self.logoutRequest(), relayState: nil)) else {
            Issue.record("not answered")
            return
        }
        let (_, query, signedText) = try Self.parts(location)
        #expect(query["RelayState"] == nil && !signedText.contains("RelayState"))
    }

    @Test("Entra's refusals of a LogoutRequest, on the error page")
    func refusals() throws {
        let provider = try Self.provider()
        let post = SAMLMessage(samlRequest: Base64URL.encodeStandard(Array(Self.logoutRequest().utf8)), relayState: nil, binding: .post)
        let cases: [(SAMLMessage, Int, String)] = [
            (post, 750054, "HTTP-POST"),
            (try Self.redirect(Self.logoutRequest(issuer: "https://unknown.example.test")), 700016, "unknown.example.test"),
            (try Self.redirect(Self.logoutRequest(issuer: Self.noLogoutEntity)), 500113, "logoutUrl"),
            (try Self.redirect(Self.logoutRequest(id: "1abc")), 75005, "starts with a digit"),
            (try Self.redirect(Self.logoutRequest(id: "")), 75005, "starts with a digit"),
            (try Self.redirect(Self.logoutRequest(version: "1.0")), 75005, "Version '1.0'"),
            (try Self.redirect(Self.logoutRequest(nameID: "")), 75005, "no NameID"),
            (try Self.redirect(Self.logoutRequest().replacingOccurrences(of: " IssueInstant=\"2026-01-01T00:00:00Z\"", with: "")), 75005, "no IssueInstant"),
            (try Self.redirect(Self.logoutRequest(issuer: Self.signedEntity)), 75005, "no Signature"),
            (try Self.redirect(Self.logoutRequest(issuer: Self.signedEntity), signer: try PrivateKey.generateRSA()), 75005, "does not verify"),
        ]
        for (message, aadsts, reason) in cases {
            let error = Self.refusal(Self.check(provider, message))
            #expect(error?.aadsts == aadsts && error?.reason.contains(reason) == true, "\(reason): \(String(describing: error))")
        }
        let signed = Self.check(provider, try Self.redirect(Self.logoutRequest(issuer: Self.signedEntity), signer: try Self.spKey.get()))
        guard case .signOut = signed else { Issue.record("a LogoutRequest signed by the app's certificate is refused: \(signed)"); return }
    }

    @Test("the LogoutRequest reader: NameID or EncryptedID, Version and IssueInstant, nothing else taken for one")
    func reader() throws {
        let read = { (xml: String) in SAMLLogoutRequest(try InboundDocument(Array(xml.utf8)).root) }
        #expect(try read(Self.logoutRequest())?.missing == nil)
        #expect(try read(Self.logoutRequest(nameID: "<saml:EncryptedID/>"))?.missing == nil)
        #expect(try read(Self.logoutRequest())?.issuer == Self.entity)
        #expect(try read(Self.logoutRequest().replacingOccurrences(of: " Version=\"2.0\"", with: ""))?.missing == "no Version")
        #expect(try read(SAMLLogoutTests.logoutRequest().replacingOccurrences(of: "urn:oasis:names:tc:SAML:2.0:protocol", with: "urn:other")) == nil)
        #expect(try read("<LogoutRequest/>") == nil)
    }
}
