import MockIDPJOSE
import MockIDPXML

/// A SAML message as it came over a binding (docs/saml.md, "Sign-on"): the `SAMLRequest` text (base64; DEFLATE'd too
/// over HTTP-Redirect), the `RelayState`, and for HTTP-Redirect the query signature's parts as sent.
package struct SAMLMessage: Sendable {
    /// How the message came.
    package enum Binding: Sendable {
        /// HTTP-Redirect: `signedText` is `SAMLRequest=…[&RelayState=…]&SigAlg=…` as sent (nil without `SigAlg`),
        /// `signature` the decoded `Signature` parameter.
        case redirect(signedText: String?, sigAlg: String?, signature: String?)
        /// HTTP-POST: any signature is inside the XML.
        case post
    }

    /// The `SAMLRequest` parameter, URL-decoded.
    package var samlRequest: String
    /// The `RelayState` parameter.
    package var relayState: String?
    /// The binding.
    package var binding: Binding

    /// A message with these parts.
    package init(samlRequest: String, relayState: String?, binding: Binding) {
        self.samlRequest = samlRequest
        self.relayState = relayState
        self.binding = binding
    }
}

extension SAMLMessage {
    /// The message's XML, read under the inbound bounds: base64, inflated too over HTTP-Redirect; throws a clear
    /// `XMLError` for anything unreadable.
    func document() throws(XMLError) -> InboundDocument {
        guard let decoded = Base64URL.decode(samlRequest, ignoringWhitespace: true) else {
            throw XMLError("the SAMLRequest is not base64")
        }
        guard case .redirect = binding else { return try InboundDocument(decoded) }
        return try InboundDocument(try RawDeflate.inflate(decoded))
    }
}

/// What an `AuthnRequest` asks (https://learn.microsoft.com/en-us/entra/identity-platform/single-sign-on-saml-protocol).
package struct SAMLAuthnRequest {
    var id: String
    var issuer: String
    var assertionConsumerServiceURL: String?
    var forceAuthn: Bool
    var isPassive: Bool
    var nameIDPolicyFormat: String?
    var hasSubject: Bool

    /// The request in `root`; nil when `root` is no `AuthnRequest`.
    package init?(_ root: XMLNode) {
        guard root.namespace == XMLNamespace.protocolMessages, root.name == "AuthnRequest" else { return nil }
        id = root[attribute: "ID"] ?? ""
        issuer = Self.issuer(of: root)
        assertionConsumerServiceURL = root[attribute: "AssertionConsumerServiceURL"]
        forceAuthn = Self.isTrue(root[attribute: "ForceAuthn"])
        isPassive = Self.isTrue(root[attribute: "IsPassive"])
        nameIDPolicyFormat = root.child(XMLNamespace.protocolMessages, "NameIDPolicy")?[attribute: "Format"]
        hasSubject = root.child(XMLNamespace.assertion, "Subject") != nil
    }

    /// A request's `Issuer`, white space around it dropped.
    static func issuer(of root: XMLNode) -> String { trimmed(root.child(XMLNamespace.assertion, "Issuer")?.text ?? "") }

    /// Whether `id` can be a request's `ID`: not empty, and not starting with a digit (an XML ID may not).
    static func isUsableID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first else { return false }
        return !("0"..."9").contains(first)
    }

    /// `text` without the white space around it (an indented document's line breaks included).
    static func trimmed(_ text: String) -> String {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    /// An `xs:boolean`: `true` or `1`.
    static func isTrue(_ value: String?) -> Bool { value == "true" || value == "1" }
}

/// A SAML `NameID` format Entra knows (https://learn.microsoft.com/en-us/entra/identity-platform/single-sign-on-saml-protocol,
/// NameIDPolicy).
enum SAMLNameIDFormat {
    static let persistent = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"
    static let emailAddress = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
    static let unspecified = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
    static let transient = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient"
    static let windowsDomainQualifiedName = "urn:oasis:names:tc:SAML:1.1:nameid-format:WindowsDomainQualifiedName"

    /// The formats a request's `NameIDPolicy` may ask for; anything else is refused with `InvalidNameIDPolicy`.
    static let requestable: Set<String> = [persistent, emailAddress, unspecified, transient]

    /// The format an app's setting and the request's policy give: the configured one, or by default the requested
    /// one, else email address.
    static func chosen(_ setting: SAMLSettings.NameIDFormat, requested: String?) -> String {
        switch setting {
        case .default: requested.flatMap { requestable.contains($0) ? $0 : nil } ?? emailAddress
        case .persistent: persistent
        case .emailAddress: emailAddress
        case .unspecified: unspecified
        case .transient: transient
        case .windowsDomainQualifiedName: windowsDomainQualifiedName
        }
    }
}
