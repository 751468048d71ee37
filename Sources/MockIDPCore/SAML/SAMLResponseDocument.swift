import MockIDPJOSE
import MockIDPXML

/// A SAML 2.0 `Response` shaped as Entra's (docs/saml.md, "What a Response looks like"): `ID` `_`+GUID, `Destination`
/// the assertion consumer service, `InResponseTo` the request's ID (absent for IdP-initiated sign-on), `Issuer`
/// `https://sts.windows.net/{tid}/`; the assertion in the assertion namespace as the default one, its `Signature`
/// right after its `Issuer`, a bearer confirmation, conditions from five minutes before issue to an hour after,
/// Entra's attributes in Entra's order and an authentication statement.
struct SAMLResponseDocument {
    /// A status other than success (`Requester`/`InvalidNameIDPolicy`, `Responder`/`NoPassive`).
    struct Failure {
        var topLevel: String
        var second: String
        var message: String
    }

    var responseID: String
    var assertionID: String
    var issueInstant: Int
    var destination: String
    var inResponseTo: String?
    var issuer: String
    var audience: String
    var nameID: String
    var nameIDFormat: String
    var sessionIndex: String
    var authInstant: Int
    /// Attribute names and their values, in order.
    var attributes: [(name: String, values: [String])]
    var signing: SAMLSettings.Signing
    var method: XMLSignatureMethod
    var certificate: Certificate
    /// Set for a Response that carries no assertion.
    var failure: Failure?
    /// The bearer confirmation's `Recipient` when not `destination` (a tamper defect's).
    var recipient: String? = nil
    /// The assertion's `NotBefore` and `NotOnOrAfter` when not the usual ones (a tamper defect's).
    var validity: (notBefore: Int, notOnOrAfter: Int)? = nil
    /// False for a Response without signature templates (`saml-unsigned`).
    var signatures = true
    /// Whether the `NameID` carries a comment after its domain's first label (`saml-comment-nameid`).
    var nameIDComment = false
    /// What carries the assertion: this Response, or a WS-Federation `wresult`.
    var envelope: SAMLEnvelope = .response

    static let statusPrefix = "urn:oasis:names:tc:SAML:2.0:status:"

    /// `2026-01-02T03:04:05.000Z`: SAML's `xs:dateTime` in UTC, milliseconds as Entra writes them.
    static func instant(_ seconds: Int) -> String {
        let stamp = EntraTime.timestamp(seconds)  // `2026-01-02 03:04:05Z`
        return String(stamp.prefix(10)) + "T" + String(stamp.dropFirst(11).prefix(8)) + ".000Z"
    }

    /// The document to sign (signature templates where `signing` asks for them).
    var xml: String {
        if case .wsTrust(let tokenType, let realm) = envelope { return wsTrustXML(tokenType, realm: realm) }
        let inResponse = inResponseTo.map { " InResponseTo=\"\(XMLText.attribute($0))\"" } ?? ""
        var out = "<samlp:Response ID=\"\(responseID)\" Version=\"2.0\" IssueInstant=\"\(Self.instant(issueInstant))\" "
            + "Destination=\"\(XMLText.attribute(destination))\"\(inResponse) xmlns:samlp=\"\(XMLNamespace.protocolMessages)\">"
            + "<Issuer xmlns=\"\(XMLNamespace.assertion)\">\(XMLText.escape(issuer))</Issuer>"
        if signatures, signing != .assertion {
            out += SignatureTemplate.xml(referenceID: responseID, method: method, certificate: certificate)
        }
        guard failure == nil else { return out + status + "</samlp:Response>" }
        return out + status + assertionXML + "</samlp:Response>"
    }

    private var status: String {
        guard let failure else {
            return "<samlp:Status><samlp:StatusCode Value=\"\(Self.statusPrefix)Success\"/></samlp:Status>"
        }
        return "<samlp:Status><samlp:StatusCode Value=\"\(Self.statusPrefix)\(failure.topLevel)\">"
            + "<samlp:StatusCode Value=\"\(Self.statusPrefix)\(failure.second)\"/></samlp:StatusCode>"
            + "<samlp:StatusMessage>\(XMLText.escape(failure.message))</samlp:StatusMessage></samlp:Status>"
    }

    /// The `Assertion` element, with its signature template when `signing` asks for one.
    var assertionXML: String {
        if tokenType == .saml11 { return saml11AssertionXML }
        let confirmationTarget = inResponseTo.map { " InResponseTo=\"\(XMLText.attribute($0))\"" } ?? ""
        var out = "<Assertion ID=\"\(assertionID)\" IssueInstant=\"\(Self.instant(issueInstant))\" Version=\"2.0\" xmlns=\"\(XMLNamespace.assertion)\">"
            + "<Issuer>\(XMLText.escape(issuer))</Issuer>"
        if signatures, signing != .response {
            out += SignatureTemplate.xml(referenceID: assertionID, method: method, certificate: certificate)
        }
        out += "<Subject><NameID Format=\"\(nameIDFormat)\">\(nameIDText)</NameID>"
            + "<SubjectConfirmation Method=\"urn:oasis:names:tc:SAML:2.0:cm:bearer\">"
            + "<SubjectConfirmationData\(confirmationTarget) NotOnOrAfter=\"\(Self.instant(conditions.notOnOrAfter))\" "
            + "Recipient=\"\(XMLText.attribute(recipient ?? destination))\"/></SubjectConfirmation></Subject>"
            + "<Conditions NotBefore=\"\(Self.instant(conditions.notBefore))\" NotOnOrAfter=\"\(Self.instant(conditions.notOnOrAfter))\">"
            + "<AudienceRestriction><Audience>\(XMLText.escape(audience))</Audience></AudienceRestriction></Conditions>"
            + "<AttributeStatement>"
        for attribute in attributes where !attribute.values.isEmpty {
            out += "<Attribute Name=\"\(XMLText.attribute(attribute.name))\">"
            for value in attribute.values { out += "<AttributeValue>\(XMLText.escape(value))</AttributeValue>" }
            out += "</Attribute>"
        }
        out += "</AttributeStatement>"
            + "<AuthnStatement AuthnInstant=\"\(Self.instant(authInstant))\" SessionIndex=\"\(XMLText.attribute(sessionIndex))\">"
            + "<AuthnContext><AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</AuthnContextClassRef>"
            + "</AuthnContext></AuthnStatement></Assertion>"
        return out
    }

    /// From five minutes before issue to an hour after, unless a defect says otherwise.
    var conditions: (notBefore: Int, notOnOrAfter: Int) { validity ?? (issueInstant - 300, issueInstant + 3600) }

    /// The `NameID`'s content, escaped; with `nameIDComment`, an empty comment after the domain's first label
    /// (`alice@contoso<!---->.onmicrosoft.com`), or in the middle of a value with no domain.
    var nameIDText: String {
        guard nameIDComment else { return XMLText.escape(nameID) }
        let at = nameID.firstIndex(of: "@")
        let cut = at.flatMap { nameID[$0...].firstIndex(of: ".") }
            ?? nameID.index(nameID.startIndex, offsetBy: nameID.count / 2)
        return XMLText.escape(String(nameID[..<cut])) + "<!---->" + XMLText.escape(String(nameID[cut...]))
    }

    /// The Response signed as `signing` asks, by `key`, written once: the bytes to base64 into `SAMLResponse`. A
    /// failure Response is signed only when Responses are.
    func signed(by key: XMLSigningKey) throws(XMLError) -> [UInt8] {
        let text = xml
        guard text.contains("<Signature ") else { return Array(text.utf8) }
        return try key.sign(text, declaration: false)
    }
}

/// Entra's attributes for a user (https://learn.microsoft.com/en-us/entra/identity-platform/reference-saml-tokens), in
/// the order Entra's captured Responses list them (docs/saml.md, "What a Response looks like").
enum SAMLAttributes {
    static let identityClaims = "http://schemas.microsoft.com/identity/claims/"
    static let soapClaims = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/"
    static let authenticationMethods = "http://schemas.microsoft.com/claims/authnmethodsreferences"
    static let password = "http://schemas.microsoft.com/ws/2008/06/identity/authenticationmethod/password"
    static let multipleAuthentication = "http://schemas.microsoft.com/claims/multipleauthn"
    static let groups = "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"
    static let groupsLink = "http://schemas.microsoft.com/claims/groups.link"
    static let role = "http://schemas.microsoft.com/ws/2008/06/identity/claims/role"
    /// Beyond this many groups Entra sends a link to them instead.
    static let groupLimit = 150

    static func of(user: User, tenant: Tenant, app: Application, settings: SAMLSettings, issuer: String,
                   groups: [String], graphHost: String) -> [(name: String, values: [String])] {
        var out: [(name: String, values: [String])] = [
            (identityClaims + "tenantid", [tenant.id]),
            (identityClaims + "objectidentifier", [user.objectID]),
            (identityClaims + "displayname", user.name.map { [$0] } ?? []),
            (identityClaims + "identityprovider", [issuer]),
            (authenticationMethods, user.requireMFA ? [password, multipleAuthentication] : [password]),
            (soapClaims + "givenname", text(user.profile["givenName"])),
            (soapClaims + "surname", text(user.profile["surname"])),
            (soapClaims + "emailaddress", user.email.map { [$0] } ?? []),
            (soapClaims + "name", [user.username]),
        ]
        if app.groupMembershipClaims != .none {
            if groups.count > groupLimit {
                out.append((groupsLink, ["https://\(graphHost)/\(tenant.id)/users/\(user.objectID)/getMemberObjects"]))
            } else {
                out.append((Self.groups, groups))
            }
        }
        out.append((role, user.roles.filter { app.appRoles.isEmpty || app.appRoles.contains($0) }))
        for (claim, attribute) in settings.attributes {
            out.append((attribute, text(user.claims[claim])))
        }
        return out
    }

    /// A claim's value as attribute values: a string, a number or a boolean as text, each item of a list.
    static func text(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let s)?: [s]
        case .int(let i)?: ["\(i)"]
        case .bool(let b)?: [b ? "true" : "false"]
        case .array(let items)?: items.flatMap { text($0) }
        case .double(let d)?: ["\(d)"]
        default: []
        }
    }
}
