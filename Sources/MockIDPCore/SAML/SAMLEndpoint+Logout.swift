import MockIDPJOSE
import MockIDPText
import MockIDPXML

/// What a `LogoutRequest` says (https://learn.microsoft.com/en-us/entra/identity-platform/single-sign-out-saml-protocol):
/// its `ID`, `Version`, `IssueInstant` and `Issuer`, and whether it names a user. Entra does not read the `NameID`'s
/// value: the browser session says whom to sign out.
package struct SAMLLogoutRequest {
    var id: String
    var version: String?
    var issueInstant: String?
    var issuer: String
    var hasNameID: Bool

    /// The request in `root`; nil when `root` is no `LogoutRequest`.
    package init?(_ root: XMLNode) {
        guard root.namespace == XMLNamespace.protocolMessages, root.name == "LogoutRequest" else { return nil }
        id = root[attribute: "ID"] ?? ""
        version = root[attribute: "Version"]
        issueInstant = root[attribute: "IssueInstant"]
        issuer = SAMLAuthnRequest.issuer(of: root)
        hasNameID = root.child(XMLNamespace.assertion, "NameID") != nil || root.child(XMLNamespace.assertion, "EncryptedID") != nil
    }

    /// What the request lacks of what Entra requires, worded for the error page; nil when nothing.
    package var missing: String? {
        guard version == "2.0" else { return version.map { "Version '\($0)' where 2.0 is required" } ?? "no Version" }
        guard let issueInstant, !issueInstant.isEmpty else { return "no IssueInstant" }
        return hasNameID ? nil : "no NameID"
    }
}

/// The `LogoutResponse` Entra answers a `LogoutRequest` with
/// (https://learn.microsoft.com/en-us/entra/identity-platform/single-sign-out-saml-protocol): `ID` `_`+GUID, `Issuer`
/// `https://login.microsoftonline.com/{tid}/` (not the assertions' issuer), status `Success`; sent over HTTP-Redirect,
/// DEFLATE'd and base64, with a signature over the query string.
struct SAMLLogoutResponse {
    var id: String
    var issueInstant: Int
    var destination: String
    var inResponseTo: String
    var issuer: String

    var xml: String {
        "<samlp:LogoutResponse ID=\"\(id)\" Version=\"2.0\" IssueInstant=\"\(SAMLResponseDocument.instant(issueInstant))\" "
            + "Destination=\"\(XMLText.attribute(destination))\" InResponseTo=\"\(XMLText.attribute(inResponseTo))\" "
            + "xmlns:samlp=\"\(XMLNamespace.protocolMessages)\">"
            + "<Issuer xmlns=\"\(XMLNamespace.assertion)\">\(XMLText.escape(issuer))</Issuer>"
            + "<samlp:Status><samlp:StatusCode Value=\"\(SAMLResponseDocument.statusPrefix)Success\"/></samlp:Status>"
            + "</samlp:LogoutResponse>"
    }

    /// The address the browser is sent to: `destination` with `SAMLResponse`, `RelayState` when given, `SigAlg` and
    /// the `Signature` over the first three as they appear in the query
    /// (https://docs.oasis-open.org/security/saml/v2.0/saml-bindings-2.0-os.pdf, section 3.4.4.1).
    func location(relayState: String?, key: PrivateKey, method: XMLSignatureMethod) throws(XMLError) -> String {
        let encoded = { (value: String) in PercentEncoding.encode(value, spaceAsPlus: true) }
        let message = Base64URL.encodeStandard(try RawDeflate.deflate(Array(xml.utf8)))
        let signedText = RedirectSignature.signedText(message: ("SAMLResponse", encoded(message)),
                                                      relayState: relayState.map(encoded), sigAlg: encoded(method.signatureURI))
        let signature: [UInt8]
        do { signature = try RedirectSignature.sign(signedText: signedText, key: key, method: method) } catch {
            throw XMLError("the LogoutResponse could not be signed: \(error)")
        }
        let separator = destination.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
        return destination + separator + signedText + "&Signature=" + encoded(Base64URL.encodeStandard(signature))
    }
}

extension SAMLEndpoint {
    /// Checks a `LogoutRequest` as Entra does (docs/saml.md, "Single logout"): over HTTP-Redirect only, from a SAML
    /// app's identifier, with an `ID`, `Version` 2.0, an `IssueInstant` and a `NameID`, signed when the app requires
    /// signed requests, and for an app with a `logoutUrl`; then the signed `LogoutResponse`'s address.
    func signOut(_ request: SAMLLogoutRequest, message: SAMLMessage, document: InboundDocument, tenant: Tenant,
                 context: RequestScope) -> SAMLRequestCheck {
        guard case .redirect = message.binding else { return .errorPage(.samlLogoutNotRedirect()) }
        guard let app = Self.app(identifiedBy: request.issuer, in: tenant), let settings = app.saml else {
            return .errorPage(.samlUnknownIssuer(request.issuer, tenant: tenant.id))
        }
        guard SAMLAuthnRequest.isUsableID(request.id) else { return .errorPage(.samlBadRequestID(request.id)) }
        if let missing = request.missing { return .errorPage(.samlLogoutIncomplete(missing)) }
        if settings.requireSignedRequests, let problem = signatureProblem(message, document: document, app: app) {
            return .errorPage(.samlSignatureRequired(problem, issuer: request.issuer))
        }
        guard let logoutURL = settings.logoutURL else { return .errorPage(.samlNoLogoutURL(request.issuer)) }
        let response = SAMLLogoutResponse(
            id: "_" + provider.newGUID(), issueInstant: provider.clock.now(), destination: logoutURL, inResponseTo: request.id,
            issuer: "https://\(context.cloud(for: tenant).issuerHost)/\(tenant.id)/")
        do {
            let key = try signingKey(tenant: tenant, app: app)
            return .signOut(location: try response.location(relayState: message.relayState, key: key.privateKey, method: Self.method(settings)))
        } catch {
            return .errorPage(.samlSigningFailed(error.reason))
        }
    }
}
