import CXMLSec

/// A libxml2 document this module owns: freed with the object.
final class OwnedDocument {
    /// The document.
    let pointer: xmlDocPtr

    init(_ pointer: xmlDocPtr) { self.pointer = pointer }

    deinit { xmlFreeDoc(pointer) }

    /// The root element.
    var root: xmlNodePtr? { xmlDocGetRootElement(pointer) }

    /// Parses `bytes` as UTF-8 XML with the network, entity substitution and DTD loading off, errors not printed.
    static func parse(_ bytes: [UInt8]) throws(XMLError) -> OwnedDocument {
        try XMLSecLibrary.prepare()
        guard bytes.count < Int(Int32.max) else { throw XMLError("the XML is too large") }
        // XML_PARSE_NONET: no network access. No XML_PARSE_NOENT (entities would be substituted), no XML_PARSE_DTDLOAD
        // or XML_PARSE_DTDATTR (external subsets would be read), no XML_PARSE_HUGE (libxml2's own depth and size
        // limits stay on). See https://gnome.pages.gitlab.gnome.org/libxml2/html/libxml-parser.html#xmlParserOption.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(chars.count), "noname.xml", "UTF-8", options)
            }
        }
        guard let parsed else { throw XMLError("the XML is not well-formed") }
        let document = OwnedDocument(parsed)
        guard parsed.pointee.intSubset == nil, parsed.pointee.extSubset == nil else {
            throw XMLError("the XML has a document type declaration, which SAML messages may not have")
        }
        return document
    }

    /// Registers every attribute named `name` (SAML 2.0's `ID`, SAML 1.1's `AssertionID`) as an XML ID, so that a
    /// signature's `Reference URI="#…"` finds its element.
    func registerIDs(_ name: String = "ID") {
        guard let root else { return }
        let name: [xmlChar] = Array(name.utf8) + [0]
        name.withUnsafeBufferPointer { namePointer in
            var ids: [UnsafePointer<xmlChar>?] = [namePointer.baseAddress, nil]
            ids.withUnsafeMutableBufferPointer { xmlSecAddIDs(pointer, root, $0.baseAddress) }
        }
    }

    /// The document written out once, in UTF-8, with or without the XML declaration.
    func serialized(declaration: Bool) throws(XMLError) -> [UInt8] {
        guard let buffer = xmlBufferCreate() else { throw XMLError("out of memory writing XML") }
        defer { xmlBufferFree(buffer) }
        let options = declaration ? Int32(0) : Int32(XML_SAVE_NO_DECL.rawValue)
        guard let context = xmlSaveToBuffer(buffer, "UTF-8", options) else { throw XMLError("XML could not be written") }
        let written = xmlSaveDoc(context, pointer)
        guard xmlSaveClose(context) >= 0, written >= 0, let content = xmlBufferContent(buffer) else {
            throw XMLError("XML could not be written")
        }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }
}

/// Walking libxml2's tree.
extension OwnedDocument {
    /// Whether `node` is an element in `namespace` named `name`.
    static func isElement(_ node: xmlNodePtr, _ namespace: String, _ name: String) -> Bool {
        guard node.pointee.type == XML_ELEMENT_NODE, let nodeName = node.pointee.name, String(cString: nodeName) == name else { return false }
        guard let ns = node.pointee.ns, let href = ns.pointee.href else { return namespace.isEmpty }
        return String(cString: href) == namespace
    }

    /// The element children of `node`.
    static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var out: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { out.append(current) }
            child = current.pointee.next
        }
        return out
    }

    /// Every element under `node` (itself included) in `namespace` named `name`, in document order.
    static func descendants(of node: xmlNodePtr, _ namespace: String, _ name: String) -> [xmlNodePtr] {
        var out: [xmlNodePtr] = []
        if isElement(node, namespace, name) { out.append(node) }
        for child in elementChildren(node) { out += descendants(of: child, namespace, name) }
        return out
    }

    /// The value of `node`'s attribute `name` without a namespace.
    static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let value = xmlGetNoNsProp(node, name) else { return nil }
        defer { CXMLSec_free(value) }
        return String(cString: value)
    }
}
