import CXMLSec
import MockIDPJOSE

/// An inbound SAML message (an `AuthnRequest`, a `LogoutRequest`), parsed safely: UTF-8 only, no document type
/// declaration (so no entities, internal or external), no network, and within `XMLLimits`. It keeps libxml2's tree
/// for checking the message's own signature (the HTTP-POST binding) and offers a copy of it as `XMLNode`s.
package final class InboundDocument {
    /// The root element and everything in it.
    package let root: XMLNode
    private let document: OwnedDocument

    /// Parses `bytes` under `limits`; throws a clear `XMLError` for a message too large, too deep, with a DOCTYPE or
    /// an entity, in another encoding, or not well-formed.
    package init(_ bytes: [UInt8], limits: XMLLimits = .inbound) throws(XMLError) {
        guard bytes.count <= limits.maxDocumentBytes else {
            throw XMLError("the XML is \(bytes.count) bytes, more than the \(limits.maxDocumentBytes) accepted")
        }
        try Self.refuseBeforeParsing(bytes)
        document = try OwnedDocument.parse(bytes)
        guard let rootPointer = document.root else { throw XMLError("the XML has no root element") }
        var elements = 0
        root = try Self.copy(rootPointer, depth: 1, elements: &elements, limits: limits)
    }

    /// What a byte scan refuses before libxml2 sees the bytes: another encoding than UTF-8 (a UTF-16 document would
    /// hide its DOCTYPE from the scan), and a document type or entity declaration, where every XML bomb and external
    /// entity lives (https://cheatsheetseries.owasp.org/cheatsheets/XML_External_Entity_Prevention_Cheat_Sheet.html).
    private static func refuseBeforeParsing(_ bytes: [UInt8]) throws(XMLError) {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0) {
            throw XMLError("the XML is not UTF-8")
        }
        for marker in ["<!DOCTYPE", "<!ENTITY"] where contains(bytes, Array(marker.utf8)) {
            throw XMLError("the XML has a document type declaration, which SAML messages may not have")
        }
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// `node` and its subtree as values, refusing a tree deeper or larger than `limits`.
    private static func copy(_ node: xmlNodePtr, depth: Int, elements: inout Int, limits: XMLLimits) throws(XMLError) -> XMLNode {
        guard depth <= limits.maxDepth else { throw XMLError("the XML nests deeper than \(limits.maxDepth) elements") }
        elements += 1
        guard elements <= limits.maxElements else { throw XMLError("the XML has more than \(limits.maxElements) elements") }
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        let namespace = node.pointee.ns?.pointee.href.map { String(cString: $0) } ?? ""
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            let attributeName = current.pointee.name.map { String(cString: $0) } ?? ""
            var value = ""
            var text = current.pointee.children
            while let part = text {
                if let content = part.pointee.content { value += String(cString: content) }
                text = part.pointee.next
            }
            if let href = current.pointee.ns?.pointee.href {
                attributes["{\(String(cString: href))}\(attributeName)"] = value
            } else {
                attributes[attributeName] = value
            }
            attribute = current.pointee.next
        }
        var children: [XMLNode] = []
        var text = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                children.append(try copy(current, depth: depth + 1, elements: &elements, limits: limits))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { text += String(cString: content) }
            case XML_ENTITY_REF_NODE:
                throw XMLError("the XML refers to an entity")
            default:
                break
            }
            child = current.pointee.next
        }
        return XMLNode(namespace: namespace, name: name, attributes: attributes, children: children, text: text)
    }

    /// Whether the root element carries an enveloped XML signature over itself (a `Signature` child whose one
    /// `Reference` names the root's `ID`) that verifies with one of `certificates`' keys. The key comes from the
    /// certificates given, never from the message's `KeyInfo`; references may only point inside the document, and only
    /// the transforms and algorithms SAML uses are enabled
    /// (https://docs.oasis-open.org/security/saml/v2.0/saml-core-2.0-os.pdf, section 5.4).
    /// `idAttribute` names the root's ID attribute: `ID`, or a SAML 1.1 assertion's `AssertionID`.
    package func hasValidEnvelopedSignature(certificates: [Certificate], idAttribute: String = "ID") -> Bool {
        guard let rootPointer = document.root,
              let id = OwnedDocument.attribute(rootPointer, idAttribute), !id.isEmpty else { return false }
        let signatures = OwnedDocument.elementChildren(rootPointer).filter { OwnedDocument.isElement($0, XMLNamespace.signature, "Signature") }
        guard signatures.count == 1, let signature = signatures.first else { return false }
        let references = OwnedDocument.descendants(of: signature, XMLNamespace.signature, "Reference")
        guard references.count == 1, let reference = references.first,
              OwnedDocument.attribute(reference, "URI") == "#" + id else { return false }
        document.registerIDs(idAttribute)
        return certificates.contains { EnvelopedSignature.verify(signature, certificate: $0) }
    }
}
