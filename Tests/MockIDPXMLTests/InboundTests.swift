import Foundation
import MockIDPXML
import Testing

@Suite struct InboundTests {
    /// Runs `body`, expecting an `XMLError` whose reason contains `words`, within a second.
    func expectRefusal(_ words: String, _ body: () throws -> Void) {
        let start = ContinuousClock.now
        do {
            try body()
            Issue.record("expected a refusal saying \(words)")
        } catch let error as XMLError {
            #expect(error.reason.contains(words), "\(error.reason)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("a request's elements, attributes and text are read, namespaced attributes by {namespace}name")
    func elements() throws {
        let xml = """
        <samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
        xmlns:x="urn:x" ID="_1" x:extra="e"><saml:Issuer>https://sp<!-- c -->.contoso.com</saml:Issuer>\
        <samlp:NameIDPolicy Format="f" AllowCreate="true"/></samlp:AuthnRequest>
        """
        let root = try InboundDocument(Array(xml.utf8)).root
        #expect(root.name == "AuthnRequest" && root.namespace == XMLNamespace.protocolMessages)
        #expect(root[attribute: "ID"] == "_1" && root.attributes["{urn:x}extra"] == "e")
        #expect(root.child(XMLNamespace.assertion, "Issuer")?.text == "https://sp.contoso.com")
        #expect(root.child(XMLNamespace.protocolMessages, "NameIDPolicy")?[attribute: "Format"] == "f")
    }

    @Test("an XML bomb (entities expanding a billion times) is refused before parsing")
    func billionLaughs() {
        var xml = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 { xml += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">" }
        xml += "]><lolz>&lol9;</lolz>"
        expectRefusal("document type declaration") { _ = try InboundDocument(Array(xml.utf8)) }
    }

    @Test("an external entity is refused")
    func externalEntity() {
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>"
        expectRefusal("document type declaration") { _ = try InboundDocument(Array(xml.utf8)) }
    }

    @Test("a DOCTYPE alone is refused")
    func doctype() {
        expectRefusal("document type declaration") { _ = try InboundDocument(Array("<!DOCTYPE r SYSTEM \"http://x/r.dtd\"><r/>".utf8)) }
    }

    @Test("an undeclared entity reference is not well-formed")
    func undeclaredEntity() {
        expectRefusal("well-formed") { _ = try InboundDocument(Array("<r>&x;</r>".utf8)) }
    }

    @Test("UTF-16 is refused, so no declaration hides from the scan")
    func utf16() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<r/>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        expectRefusal("UTF-8") { _ = try InboundDocument(bytes) }
    }

    @Test("a 10 MB request is refused by its size, before parsing")
    func huge() {
        let bytes = Array("<r>".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024) + Array("</r>".utf8)
        expectRefusal("bytes, more than") { _ = try InboundDocument(bytes) }
    }

    @Test("nesting past the depth bound is refused")
    func deep() {
        let xml = String(repeating: "<a>", count: 30) + String(repeating: "</a>", count: 30)
        expectRefusal("nests deeper") { _ = try InboundDocument(Array(xml.utf8)) }
    }

    @Test("too many elements are refused")
    func wide() {
        let xml = "<r>" + String(repeating: "<a/>", count: 3_000) + "</r>"
        expectRefusal("more than 2000 elements") { _ = try InboundDocument(Array(xml.utf8)) }
    }

    @Test("text that is not XML is refused")
    func notXML() {
        expectRefusal("well-formed") { _ = try InboundDocument(Array("<r><unclosed></r>".utf8)) }
    }

    @Test("DEFLATE round-trips")
    func deflate() throws {
        let message = Array("<samlp:AuthnRequest ID=\"_x\"/>".utf8)
        #expect(try RawDeflate.inflate(try RawDeflate.deflate(message)) == message)
    }

    @Test("a deflate bomb (50 MB of spaces) is refused after inflating a bounded amount")
    func deflateBomb() throws {
        let bomb = try RawDeflate.deflate([UInt8](repeating: 0x20, count: 50 * 1024 * 1024))
        expectRefusal("inflates") { _ = try RawDeflate.inflate(bomb) }
    }

    @Test("a small message that inflates a hundredfold is refused by its ratio")
    func inflateRatio() throws {
        let compressed = try RawDeflate.deflate([UInt8](repeating: 0x20, count: 1024 * 1024))
        expectRefusal("inflates more than 100 times") { _ = try RawDeflate.inflate(compressed) }
    }

    @Test("a large but ordinary message is refused by its inflated size")
    func inflatedSize() throws {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<(200 * 1024)).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0..<26, using: &random) }
        let deflated = try RawDeflate.deflate(noise)
        expectRefusal("inflates to more than") { _ = try RawDeflate.inflate(deflated) }
    }

    @Test("bytes that are not DEFLATE are refused")
    func notDeflate() {
        expectRefusal("not DEFLATE") { _ = try RawDeflate.inflate([0xFF, 0xFF, 0xFF, 0xFF]) }
        expectRefusal("not DEFLATE") { _ = try RawDeflate.inflate([]) }
    }
}
