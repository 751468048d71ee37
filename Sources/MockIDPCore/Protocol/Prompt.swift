/// The `prompt` values Entra accepts on authorize (docs/entra-behaviour.md, "Sign-in decisions").
package enum Prompt: String, Sendable, CaseIterable {
    /// Sign in again whatever the session holds.
    case login
    /// No page: answer from the session or fail with `login_required`.
    case none
    /// Show the consent page after sign-in.
    case consent
    /// Show the account picker.
    case selectAccount = "select_account"
    /// The sign-up experience (shown here as sign-in).
    case create
}
