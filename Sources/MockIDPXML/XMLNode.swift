/// An element of inbound XML, copied out of libxml2's tree: its namespace and local name, its attributes (unprefixed
/// ones by local name; namespaced ones as `{namespace}name`), its child elements and its text.
package struct XMLNode: Sendable, Equatable {
    /// The namespace URI, empty when the element has none.
    package var namespace: String
    /// The local name.
    package var name: String
    /// The attributes.
    package var attributes: [String: String]
    /// The child elements, in document order.
    package var children: [XMLNode]
    /// The text directly inside the element (its text and CDATA children, joined).
    package var text: String

    /// An element with these parts.
    package init(namespace: String, name: String, attributes: [String: String] = [:], children: [XMLNode] = [], text: String = "") {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child element with this namespace and name.
    package func child(_ namespace: String, _ name: String) -> XMLNode? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// The child elements with this namespace and name.
    package func children(_ namespace: String, _ name: String) -> [XMLNode] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The value of an attribute without a namespace.
    package subscript(attribute name: String) -> String? { attributes[name] }
}
