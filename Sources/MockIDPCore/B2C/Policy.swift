/// An Azure AD B2C policy (user flow `B2C_1_*` or custom policy `B2C_1A_*`) of a tenant, and what it lets the user do.
package struct Policy: Sendable, Equatable {
    /// The name as configured (B2C matches names without regard to case).
    package var name: String
    /// What the policy's pages let the user do, inferred from the name.
    package var kind: PolicyKind

    /// The policy named `name`.
    package init(name: String) {
        self.name = name
        kind = PolicyKind(inferredFrom: name)
    }

    /// The name as B2C writes it in endpoint paths and `client_info`: lower-case.
    package var pathName: String { name.lowercased() }

    /// Whether this is a custom policy (`B2C_1A_…`, the Identity Experience Framework's prefix) rather than a
    /// user flow (`B2C_1_…`).
    package var isCustomPolicy: Bool { pathName.hasPrefix("b2c_1a_") }
}

/// The kind of user flow, inferred from the policy's name (docs/b2c.md lists the rules).
package enum PolicyKind: String, Sendable, CaseIterable {
    /// Sign-in page with "Sign up now" and "Forgot your password?".
    case signUpOrSignIn
    /// Sign-in page with "Forgot your password?".
    case signIn
    /// The sign-up form.
    case signUp
    /// The password-reset form.
    case passwordReset
    /// Sign-in (or the session), then the profile form.
    case profileEdit
    /// "Sign in using resource owner password credentials": `grant_type=password` at the token endpoint, no pages.
    case ropc

    /// Name fragments, lower-case, tried in this order; the first that occurs in the name decides. A name with
    /// none of them is a sign-in policy.
    static let fragments: [(fragment: String, kind: PolicyKind)] = [
        ("ropc", .ropc),
        ("passwordreset", .passwordReset), ("password_reset", .passwordReset), ("pwdreset", .passwordReset),
        ("sspr", .passwordReset),
        ("profileedit", .profileEdit), ("profile_edit", .profileEdit), ("editprofile", .profileEdit), ("edit_profile", .profileEdit),
        ("signupsignin", .signUpOrSignIn), ("signup_signin", .signUpOrSignIn), ("signuporsignin", .signUpOrSignIn),
        ("signup_or_signin", .signUpOrSignIn), ("susi", .signUpOrSignIn),
        ("signin", .signIn), ("sign_in", .signIn),
        ("signup", .signUp), ("sign_up", .signUp),
    ]

    /// The kind a policy named `name` has.
    package init(inferredFrom name: String) {
        let lower = name.lowercased()
        self = Self.fragments.first { lower.contains($0.fragment) }?.kind ?? .signIn
    }

    /// Whether the flow's page lets a new user create an account.
    package var offersSignUp: Bool { self == .signUpOrSignIn || self == .signUp }
    /// Whether the flow's page signs existing users in.
    package var offersSignIn: Bool { self == .signUpOrSignIn || self == .signIn || self == .profileEdit }
}
