import MockIDPJOSE
import MockIDPXML

/// A tenant's federation metadata (SAML 2.0 and WS-Federation), shaped as Entra's
/// (https://learn.microsoft.com/en-us/entra/identity-platform/federation-metadata): the entity ID
/// `https://sts.windows.net/{tid}/`, the WS-Federation security token service with its passive requestor endpoint, and
/// the SAML identity provider with single sign-on and single logout over the HTTP-Redirect binding; each with a
/// signing `KeyDescriptor` per published certificate. The document is signed and, as Entra's, begins with a UTF-8
/// byte order mark (docs/saml.md, "Federation metadata").
struct FederationMetadata {
    /// The tenant's ID (`{tenant}` literally for `/common`).
    var tenantID: String
    /// The entity ID: `https://sts.windows.net/{tid}/` in the public cloud.
    var entityID: String
    /// The `saml2` endpoint's URL.
    var saml2URL: String
    /// The `wsfed` endpoint's URL.
    var wsfedURL: String
    /// The certificates published, the one that signs first.
    var certificates: [Certificate]
    /// The document's `ID`.
    var documentID: String

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    static let redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

    /// The unsigned document, with a signature template after the root's start.
    var xml: String {
        let keys = certificates.map { certificate in
            "<KeyDescriptor use=\"signing\"><KeyInfo xmlns=\"\(XMLNamespace.signature)\"><X509Data><X509Certificate>"
                + Base64URL.encodeStandard(certificate.der) + "</X509Certificate></X509Data></KeyInfo></KeyDescriptor>"
        }.joined()
        let endpointReference = "<wsa:EndpointReference xmlns:wsa=\"\(XMLNamespace.addressing)\"><wsa:Address>"
            + XMLText.escape(wsfedURL) + "</wsa:Address></wsa:EndpointReference>"
        return "<EntityDescriptor xmlns=\"\(XMLNamespace.metadata)\" ID=\"\(documentID)\" entityID=\"\(XMLText.attribute(entityID))\">"
            + "<RoleDescriptor xmlns:xsi=\"\(XMLNamespace.schemaInstance)\" xmlns:fed=\"\(XMLNamespace.federation)\" "
            + "xsi:type=\"fed:SecurityTokenServiceType\" protocolSupportEnumeration=\"\(XMLNamespace.federation)\">"
            + keys
            + "<fed:SecurityTokenServiceEndpoint>\(endpointReference)</fed:SecurityTokenServiceEndpoint>"
            + "<fed:PassiveRequestorEndpoint>\(endpointReference)</fed:PassiveRequestorEndpoint>"
            + "</RoleDescriptor>"
            + "<IDPSSODescriptor protocolSupportEnumeration=\"\(XMLNamespace.protocolMessages)\">"
            + keys
            + "<SingleLogoutService Binding=\"\(Self.redirectBinding)\" Location=\"\(XMLText.attribute(saml2URL))\"/>"
            + "<SingleSignOnService Binding=\"\(Self.redirectBinding)\" Location=\"\(XMLText.attribute(saml2URL))\"/>"
            + "</IDPSSODescriptor></EntityDescriptor>"
    }

    /// The document signed by `key` (by RSA-SHA256), written once, after the byte order mark.
    func signed(by key: XMLSigningKey) throws(XMLError) -> [UInt8] {
        var text = xml
        // The signature comes first inside EntityDescriptor, as the metadata schema orders it.
        guard let start = text.firstRange(of: "\">")?.upperBound else { throw XMLError("the metadata has no root element") }
        text.insert(contentsOf: SignatureTemplate.xml(referenceID: documentID, method: .rsaSHA256, certificate: key.certificate), at: start)
        return Self.byteOrderMark + (try key.sign(text, declaration: true))
    }
}
