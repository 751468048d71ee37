import Foundation
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE
import MockIDPText
import MockIDPXML

/// One fuzz harness: a parser that reads outside input, fed any bytes. A harness traps (and libFuzzer reports it)
/// only when a property that must hold for every input is broken; refusing the input is the normal outcome.
struct Harness: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    static let all: [Harness] = [form, cookie, target, request, framing, json, configuration, jws, assertion, pem, redirect, saml]

    static func named(_ name: String) -> Harness? { all.first { $0.name == name } }

    /// Bytes as a String with invalid UTF-8 repaired, as the HTTP layer does with headers.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - HTTP input

    static let form = Harness(name: "form", summary: "URL-encoded forms and queries; percent-decoding; the byte and String paths agree") { bytes in
        let fromBytes = try? URLEncodedForm.decode(Array(bytes))
        let fromText = try? URLEncodedForm.decode(text(bytes))
        if let fromBytes, let fromText, String(validating: Array(bytes), as: UTF8.self) != nil {
            precondition(fromBytes.map(\.name) == fromText.map(\.name) && fromBytes.map(\.value) == fromText.map(\.value),
                         "the byte and String decoders disagree")
        }
        if let pairs = fromBytes {
            // What the encoder writes decodes back to the same pairs.
            let again = try? URLEncodedForm.decode(URLEncodedForm.encode(pairs))
            precondition(again.map { $0.map(\.name) == pairs.map(\.name) && $0.map(\.value) == pairs.map(\.value) } ?? false,
                         "encode then decode is not the identity")
        }
        _ = try? URLEncodedForm.percentDecode(text(bytes))
    }

    static let cookie = Harness(name: "cookie", summary: "Cookie header parsing") { bytes in
        for (name, value) in HTTPCookie.parse(cookieHeader: text(bytes)) {
            precondition(!name.unicodeScalars.contains(";") && !value.unicodeScalars.contains(";"), "a cookie spans a ';'")
        }
    }

    static let target = Harness(name: "target", summary: "request targets (origin and absolute form), strictly decoded") { bytes in
        _ = try? HTTPRequest(method: "GET", target: text(bytes))
    }

    /// The whole HTTP face in process: any request (method, target, header fields, body) to the router, every
    /// handler and the control API, over the embedded default configuration.
    static let request = Harness(name: "request", summary: "any request to the whole server in process (routes, handlers, control API, Host)") { bytes in
        guard let request = RawRequest.parse(bytes) else { return }
        let response = Server.shared.respond(to: request)
        precondition(response.status.rawValue >= 200 && response.status.rawValue < 600, "status \(response.status.rawValue)")
        Server.requests += 1
        if Server.requests % 5_000 == 0 { Server.reset() }
    }

    /// Header fields over a real socket to a real plain-HTTP listener (libmicrohttpd's parser and the checks the HTTP
    /// layer adds; a TLS listener decrypts into the same parser): the input is the fields of a POST, between its
    /// `Host` field and the empty line, and a last chunk follows. Whatever the fields say, the server answers or
    /// closes the connection at once, never waits in silence until the client gives up (RFC 9112 §6): unless the
    /// fields ask for a body of a length (Content-Length) or end the head themselves, when waiting for the rest is right.
    static let framing = Harness(name: "framing", summary: "header fields and framing over a real listener: an answer or a close at once, never silence") { bytes in
        let fields = Array(bytes)
        let request = Array("POST /echo HTTP/1.1\r\nHost: localhost\r\n".utf8) + fields + Array("\r\n\r\n0\r\n\r\n".utf8)
        guard let answer = Listener.shared.send(request) else { return }
        let lowered = ASCII.lowercased(String(decoding: fields, as: UTF8.self))
        // A line feed followed by another line break (or by the end of the fields, where one follows) ends the head
        // early: what comes after is a body, or a next request, and may rightly be waited for.
        let mayWait = lowered.contains("content-length") || fields.indices.contains { i in
            let rest = fields[(i + 1)...]
            return fields[i] == 0x0A && (rest.isEmpty || rest.first == 0x0A || rest.starts(with: [0x0D, 0x0A]))
        }
        precondition(answer != .silence || mayWait, "no answer and no close within \(Listener.wait) seconds")
    }

    // MARK: - JSON, JOSE, PEM

    static let json = Harness(name: "json", summary: "JSON parse, serialize, parse again (a fixed point); JWK sets") { bytes in
        guard let value = try? JSONValue.parse(Array(bytes)) else { return }
        let serialized = value.serialized()
        guard let again = try? JSONValue.parse(serialized) else { preconditionFailure("serialized JSON does not parse") }
        precondition(again.serialized() == serialized, "serialize is not a fixed point")
        _ = try? JSONWebKeySet(json: value)
    }

    static let jws = Harness(name: "jws", summary: "compact JWS: parse, header, verify with RSA and EC keys") { bytes in
        guard let token = try? CompactJWS(text(bytes)) else { return }
        _ = token.algorithm
        _ = token.verify(with: Keys.shared.rsa.publicKey)
        _ = token.verify(with: Keys.shared.ec.publicKey)
    }

    /// Client assertions as the token endpoint reads them: the input is the `client_assertion` of a client-credentials
    /// request by a configured confidential client.
    static let assertion = Harness(name: "assertion", summary: "client_assertion at the token endpoint (JWT parsing and header checks)") { bytes in
        let form = URLEncodedForm.encode([
            ("grant_type", "client_credentials"), ("client_id", "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"),
            ("scope", "api://contoso-api/.default"),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", text(bytes)),
        ])
        guard let request = try? HTTPRequest(method: "POST", target: "/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/oauth2/v2.0/token",
                                             headers: ["Host": "127.0.0.1", "Content-Type": "application/x-www-form-urlencoded"],
                                             body: Array(form.utf8)) else { return }
        let response = Server.shared.respond(to: request)
        precondition(response.status.rawValue != 200, "an assertion nobody signed got a token")
    }

    static let pem = Harness(name: "pem", summary: "PEM and DER certificates and public keys") { bytes in
        let pem = text(bytes)
        _ = try? Certificate.parseChain(pem: pem)
        _ = try? PublicKey(pem: pem)
        _ = try? Certificate(der: Array(bytes))
    }

    // MARK: - Configuration and rules

    static let configuration = Harness(name: "configuration", summary: "configuration load of any bytes; what the writer prints loads again; a list composed in parts is the list composed whole") { bytes in
        let source = text(bytes)
        for parts in [2, 3] {
            if let inParts = YAMLTreeInspection.composedInParts(source, parts: parts) {
                precondition(inParts == YAMLTreeInspection.composedWhole(source), "composed in \(parts) parts, the tree differs from the whole text's")
            }
        }
        guard let loaded = try? ConfigurationLoader.parse(text: source, fileName: "fuzz.yaml", baseDirectory: Server.directory) else { return }
        let printed = ConfigurationWriter.yaml(loaded)
        do {
            _ = try ConfigurationLoader.parse(text: printed, fileName: "printed.yaml", baseDirectory: Server.directory)
        } catch {
            preconditionFailure("config print wrote what config check refuses: \(error)\n\(printed)")
        }
    }

    static let redirect = Harness(name: "redirect", summary: "the redirect-URI matcher and the scheme and form-action rules") { bytes in
        let candidate = text(bytes)
        if let matched = RedirectURI.match(candidate, registered: Self.registeredRedirects) {
            precondition(!RedirectURI.hasDangerousScheme(matched), "a dangerous scheme matched")
        }
        _ = RedirectURI.hasDangerousScheme(candidate)
        _ = RedirectURI.formActionSource(candidate)
        _ = RedirectURI.responseTarget(candidate)
    }

    // MARK: - SAML

    /// The SAML inbound path below the HTTP layer: any bytes as a DEFLATE'd message (the HTTP-Redirect binding) and
    /// as XML, read under `XMLLimits.inbound`, the `AuthnRequest` and `LogoutRequest` readers and the
    /// enveloped-signature check over what parses. Bounds hold for every input: nothing inflates past its bound, and
    /// nothing deeper than the depth bound is read.
    static let saml = Harness(name: "saml", summary: "SAML requests: raw DEFLATE and XML under bounds, and the XML signature check") { bytes in
        let input = Array(bytes)
        let limits = XMLLimits.inbound
        var documents = [input]
        if let inflated = try? RawDeflate.inflate(input, limits: limits) {
            precondition(inflated.count <= limits.maxInflatedBytes, "inflated past the bound")
            documents.append(inflated)
        }
        for bytes in documents {
            guard let document = try? InboundDocument(bytes, limits: limits) else { continue }
            precondition(depth(document.root) <= limits.maxDepth, "read deeper than the bound")
            _ = SAMLAuthnRequest(document.root)
            _ = SAMLLogoutRequest(document.root)?.missing
            _ = document.hasValidEnvelopedSignature(certificates: [samlCertificate].compactMap { $0 })
        }
    }

    /// A certificate for the signature check (nil when one cannot be made: the check is then skipped).
    static let samlCertificate: Certificate? = {
        guard let key = try? PrivateKey.generateRSA() else { return nil }
        return try? Certificate.selfSigned(key: key, commonName: "fuzz", validityDays: 1)
    }()

    static func depth(_ node: XMLNode) -> Int { 1 + (node.children.map(depth).max() ?? 0) }

    static let registeredRedirects = [
        "msauth.com.contoso.mobile://auth", "http://localhost", "http://127.0.0.1:8400/callback",
        "https://app.contoso.com/callback", "myapp://auth", "https://*.contoso.com/signin",
    ]
}
