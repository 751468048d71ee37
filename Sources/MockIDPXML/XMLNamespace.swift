/// The namespace URIs SAML 2.0, XML Signature and WS-Federation metadata use
/// (https://docs.oasis-open.org/security/saml/v2.0/saml-core-2.0-os.pdf, https://www.w3.org/TR/xmldsig-core1/).
package enum XMLNamespace {
    /// SAML 2.0 assertions.
    package static let assertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    /// SAML 2.0 protocol messages.
    package static let protocolMessages = "urn:oasis:names:tc:SAML:2.0:protocol"
    /// SAML 2.0 metadata.
    package static let metadata = "urn:oasis:names:tc:SAML:2.0:metadata"
    /// XML Signature.
    package static let signature = "http://www.w3.org/2000/09/xmldsig#"
    /// XML Schema instances (`xsi:type`).
    package static let schemaInstance = "http://www.w3.org/2001/XMLSchema-instance"
    /// WS-Federation.
    package static let federation = "http://docs.oasis-open.org/wsfed/federation/200706"
    /// WS-Addressing.
    package static let addressing = "http://www.w3.org/2005/08/addressing"
}
