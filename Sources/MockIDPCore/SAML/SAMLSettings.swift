/// An app's `saml:` settings: the app is an Entra enterprise app that signs users in with SAML 2.0 or WS-Federation
/// (docs/saml.md, "Configuration"). Its Identifier (entity ID, `wtrealm`) is among the app's `identifierUris`, its
/// Reply URLs (assertion consumer services, `wreply`) among its `redirectUris`.
public struct SAMLSettings: Sendable, Equatable {
    /// What is signed: Entra's "Signing Option"
    /// (https://learn.microsoft.com/en-us/entra/identity/enterprise-apps/certificate-signing-options).
    public enum Signing: String, Sendable, CaseIterable {
        /// The assertion only (Entra's default).
        case assertion
        /// The Response only.
        case response
        /// The assertion, then the Response around it.
        case both
    }

    /// The signature algorithm: RSA with SHA-256 (default) or SHA-1.
    public enum SigningAlgorithm: String, Sendable, CaseIterable {
        /// RSA-SHA256.
        case sha256
        /// RSA-SHA1.
        case sha1
    }

    /// The `NameID` format of the app's "Unique User Identifier" claim
    /// (https://learn.microsoft.com/en-us/entra/identity-platform/saml-claims-customization).
    public enum NameIDFormat: String, Sendable, CaseIterable {
        /// The format the request's `NameIDPolicy` asks for when Entra supports it, else email address.
        case `default`
        /// `urn:oasis:names:tc:SAML:2.0:nameid-format:persistent`.
        case persistent
        /// `urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress`.
        case emailAddress
        /// `urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified`.
        case unspecified
        /// `urn:oasis:names:tc:SAML:2.0:nameid-format:transient`.
        case transient
        /// `urn:oasis:names:tc:SAML:1.1:nameid-format:WindowsDomainQualifiedName`.
        case windowsDomainQualifiedName
    }

    /// The user property the `NameID` holds.
    public enum NameIDSource: String, Sendable, CaseIterable {
        /// The user principal name (default).
        case userPrincipalName
        /// The mail address.
        case mail
        /// The user's object ID.
        case objectId
        /// The on-premises account name (the user principal name's part before `@` here).
        case onPremisesSamAccountName
    }

    /// The assertion inside a WS-Federation `wresult`.
    public enum WSFedTokenType: String, Sendable, CaseIterable {
        /// SAML 2.0 (default).
        case saml2
        /// SAML 1.1.
        case saml11
    }

    /// What is signed.
    public var signing: Signing = .assertion
    /// The signature algorithm.
    public var signingAlgorithm: SigningAlgorithm = .sha256
    /// The `NameID` format.
    public var nameIDFormat: NameIDFormat = .default
    /// The `NameID`'s source.
    public var nameIDSource: NameIDSource = .userPrincipalName
    /// Where LogoutResponses go.
    public var logoutURL: String?
    /// The `RelayState` of IdP-initiated sign-on.
    public var relayState: String?
    /// Whether AuthnRequests must be signed (RSA-SHA256) by one of the app's certificates.
    public var requireSignedRequests: Bool = false
    /// The assertion inside a WS-Federation `wresult`.
    public var wsfedTokenType: WSFedTokenType = .saml2
    /// The app's own attributes: a user's extra claim (by its name in the user's `claims`) and the attribute name it
    /// is sent under, in the order configured.
    public var attributes: [(claim: String, attribute: String)] = []

    /// Entra's defaults.
    public init() {}

    /// Whether every setting is the same, the attributes in the same order.
    public static func == (lhs: SAMLSettings, rhs: SAMLSettings) -> Bool {
        lhs.signing == rhs.signing && lhs.signingAlgorithm == rhs.signingAlgorithm && lhs.nameIDFormat == rhs.nameIDFormat
            && lhs.nameIDSource == rhs.nameIDSource && lhs.logoutURL == rhs.logoutURL && lhs.relayState == rhs.relayState
            && lhs.requireSignedRequests == rhs.requireSignedRequests && lhs.wsfedTokenType == rhs.wsfedTokenType
            && lhs.attributes.elementsEqual(rhs.attributes) { $0.claim == $1.claim && $0.attribute == $1.attribute }
    }
}
