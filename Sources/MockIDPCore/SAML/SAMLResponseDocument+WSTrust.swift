import MockIDPXML

/// What carries a signed assertion: a SAML 2.0 `Response`, or the WS-Trust `RequestSecurityTokenResponse` a
/// WS-Federation `wresult` is (docs/saml.md, "WS-Federation"), with a SAML 2.0 or 1.1 assertion for `realm`.
enum SAMLEnvelope: Equatable {
    case response
    case wsTrust(SAMLSettings.WSFedTokenType, realm: String)
}

/// The `wresult` around the same assertion a Response carries, and the SAML 1.1 form of that assertion, shaped as
/// Entra's captured ones (docs/saml.md, "WS-Federation").
extension SAMLResponseDocument {
    static let trustNamespace = "http://schemas.xmlsoap.org/ws/2005/02/trust"
    static let utilityNamespace = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
    static let policyNamespace = "http://schemas.xmlsoap.org/ws/2004/09/policy"
    static let addressingNamespace = "http://www.w3.org/2005/08/addressing"
    static let securityNamespace = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
    static let security11Namespace = "http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd"
    static let saml11Namespace = "urn:oasis:names:tc:SAML:1.0:assertion"
    static let noProofKey = "http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey"

    /// The assertion's version: SAML 1.1 only inside a `wresult` that asks for it.
    var tokenType: SAMLSettings.WSFedTokenType {
        if case .wsTrust(let tokenType, _) = envelope { return tokenType }
        return .saml2
    }

    /// The assertion's start tag and end tag, as written.
    var assertionTags: (start: String, end: String) {
        tokenType == .saml11 ? ("<saml:Assertion ", "</saml:Assertion>") : ("<Assertion ", "</Assertion>")
    }

    /// The `RequestSecurityTokenResponse`, its children in the order of Entra's captured `wresult`
    /// (https://github.com/AzureAD/azure-activedirectory-identitymodel-extensions-for-dotnet, ReferenceXml.WresultSaml2Valid):
    /// `Lifetime` (the assertion's conditions), `AppliesTo` (the realm), `RequestedSecurityToken`, the attached and
    /// unattached references to the assertion's ID, `TokenType`, `RequestType` Issue and `KeyType` NoProofKey.
    func wsTrustXML(_ tokenType: SAMLSettings.WSFedTokenType, realm: String) -> String {
        let types = tokenType == .saml11
            ? (token: Self.saml11Namespace, profile: "http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLV1.1",
               id: "http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.0#SAMLAssertionID")
            : (token: "http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLV2.0",
               profile: "http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLV2.0",
               id: "http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLID")
        let reference = "<SecurityTokenReference d3p1:TokenType=\"\(types.profile)\" xmlns:d3p1=\"\(Self.security11Namespace)\" "
            + "xmlns=\"\(Self.securityNamespace)\"><KeyIdentifier ValueType=\"\(types.id)\">\(XMLText.escape(assertionID))</KeyIdentifier>"
            + "</SecurityTokenReference>"
        return "<t:RequestSecurityTokenResponse xmlns:t=\"\(Self.trustNamespace)\"><t:Lifetime>"
            + "<wsu:Created xmlns:wsu=\"\(Self.utilityNamespace)\">\(Self.instant(conditions.notBefore))</wsu:Created>"
            + "<wsu:Expires xmlns:wsu=\"\(Self.utilityNamespace)\">\(Self.instant(conditions.notOnOrAfter))</wsu:Expires></t:Lifetime>"
            + "<wsp:AppliesTo xmlns:wsp=\"\(Self.policyNamespace)\"><wsa:EndpointReference xmlns:wsa=\"\(Self.addressingNamespace)\">"
            + "<wsa:Address>\(XMLText.escape(realm))</wsa:Address></wsa:EndpointReference></wsp:AppliesTo>"
            + "<t:RequestedSecurityToken>\(assertionXML)</t:RequestedSecurityToken>"
            + "<t:RequestedAttachedReference>\(reference)</t:RequestedAttachedReference>"
            + "<t:RequestedUnattachedReference>\(reference)</t:RequestedUnattachedReference>"
            + "<t:TokenType>\(types.token)</t:TokenType><t:RequestType>\(Self.trustNamespace)/Issue</t:RequestType>"
            + "<t:KeyType>\(Self.noProofKey)</t:KeyType></t:RequestSecurityTokenResponse>"
    }

    /// The assertion as SAML 1.1 (https://docs.oasis-open.org/security/saml/v1.1/saml-core-1.1.pdf, section 2), as
    /// Entra writes it for SharePoint (`MajorVersion` 1, `MinorVersion` 1, `AssertionID`, `Issuer` and `IssueInstant`
    /// attributes; https://github.com/Yvand/EntraCP/issues/130): the same conditions, subject, attributes (each name
    /// split at its last `/` into `AttributeNamespace` and `AttributeName`) and sign-in time, the signature last.
    var saml11AssertionXML: String {
        let subject = "<saml:Subject><saml:NameIdentifier Format=\"\(XMLText.attribute(nameIDFormat))\">\(nameIDText)</saml:NameIdentifier>"
            + "<saml:SubjectConfirmation><saml:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:bearer</saml:ConfirmationMethod>"
            + "</saml:SubjectConfirmation></saml:Subject>"
        var out = "<saml:Assertion MajorVersion=\"1\" MinorVersion=\"1\" AssertionID=\"\(XMLText.attribute(assertionID))\" "
            + "Issuer=\"\(XMLText.attribute(issuer))\" IssueInstant=\"\(Self.instant(issueInstant))\" xmlns:saml=\"\(Self.saml11Namespace)\">"
            + "<saml:Conditions NotBefore=\"\(Self.instant(conditions.notBefore))\" NotOnOrAfter=\"\(Self.instant(conditions.notOnOrAfter))\">"
            + "<saml:AudienceRestrictionCondition><saml:Audience>\(XMLText.escape(audience))</saml:Audience>"
            + "</saml:AudienceRestrictionCondition></saml:Conditions><saml:AttributeStatement>" + subject
        for attribute in attributes where !attribute.values.isEmpty {
            let name = Self.saml11AttributeName(attribute.name)
            out += "<saml:Attribute AttributeName=\"\(XMLText.attribute(name.name))\" AttributeNamespace=\"\(XMLText.attribute(name.namespace))\">"
            for value in attribute.values { out += "<saml:AttributeValue>\(XMLText.escape(value))</saml:AttributeValue>" }
            out += "</saml:Attribute>"
        }
        out += "</saml:AttributeStatement><saml:AuthenticationStatement AuthenticationMethod=\"urn:oasis:names:tc:SAML:1.0:am:password\" "
            + "AuthenticationInstant=\"\(Self.instant(authInstant))\">" + subject + "</saml:AuthenticationStatement>"
        if signatures { out += SignatureTemplate.xml(referenceID: assertionID, method: method, certificate: certificate) }
        return out + "</saml:Assertion>"
    }

    /// A claim URI split at its last `/`: `http://schemas.microsoft.com/identity/claims/tenantid` is `tenantid` in
    /// `http://schemas.microsoft.com/identity/claims`. A name without one gets the unspecified name format as namespace.
    static func saml11AttributeName(_ uri: String) -> (namespace: String, name: String) {
        guard let slash = uri.lastIndex(of: "/"), uri.index(after: slash) < uri.endIndex, slash > uri.startIndex else {
            return ("urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified", uri)
        }
        return (String(uri[..<slash]), String(uri[uri.index(after: slash)...]))
    }
}
