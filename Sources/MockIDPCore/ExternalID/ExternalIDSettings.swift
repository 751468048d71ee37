/// The Microsoft Entra External ID part of a tenant (a customer, "CIAM" tenant): where it is served and how its
/// users sign up and sign in (docs/external-id.md, "What is served").
public struct ExternalIDSettings: Sendable, Equatable {
    /// The tenant's `{subdomain}.ciamlogin.com` host label, lower-case.
    public var subdomain: String
    /// Custom URL domains, served as the ciamlogin host is (lower-case host names).
    public var customDomains: [String]
    /// Whether users sign in with a password or with a one-time code mailed to them.
    public var signIn: ExternalIDSignInMethod
    /// Whether users may sign themselves up.
    public var signUp: Bool
    /// What sign-up asks for beyond the email address (Graph user property names, or `extension_<appId>_<name>`).
    public var attributes: [String]

    /// Settings of a tenant served at `{subdomain}.ciamlogin.com`.
    public init(subdomain: String, customDomains: [String] = [], signIn: ExternalIDSignInMethod = .password,
                signUp: Bool = true, attributes: [String] = []) {
        self.subdomain = subdomain
        self.customDomains = customDomains
        self.signIn = signIn
        self.signUp = signUp
        self.attributes = attributes
    }

    /// The tenant's ciamlogin host names: `{subdomain}.ciamlogin.com` and `{tid}.ciamlogin.com`.
    public func ciamloginHosts(tenantID: String) -> [String] {
        ["\(subdomain).\(Self.hostSuffix)", "\(tenantID).\(Self.hostSuffix)"]
    }

    /// The domain External ID gives every tenant, `{subdomain}.onmicrosoft.com`: authorities name it.
    public var initialDomain: String { "\(subdomain).onmicrosoft.com" }

    /// External ID's login domain.
    public static let hostSuffix = "ciamlogin.com"
}

/// How the users of an External ID tenant prove who they are.
public enum ExternalIDSignInMethod: String, Sendable, CaseIterable {
    /// Email and password (with self-service password reset).
    case password
    /// Email and a one-time passcode, no password.
    case otp
}
