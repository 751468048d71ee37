/// The rules for accounts people make themselves on a sign-up page (B2C's local accounts, External ID's customers):
/// an e-mail address as sign-in name and a password of the tenant's strength.
enum LocalAccount {
    /// Why `password` is refused: Entra's rule, 8 characters to `longest` (B2C: 64, Entra ID: 256) and three of
    /// lower case, upper case, digit and symbol (Microsoft Learn, "Password policies and account restrictions in
    /// Microsoft Entra ID"; "Configure complexity requirements for passwords in Azure Active Directory B2C"); and
    /// both fields alike when the page asks twice (`reentered`). Nil when it is accepted.
    static func passwordProblem(_ password: String, reentered: String?, longest: Int) -> SelfAssertedProblem? {
        let classes = [
            password.contains(where: \.isLowercase), password.contains(where: \.isUppercase),
            password.contains(where: \.isNumber), password.contains(where: { !$0.isLetter && !$0.isNumber && $0 != " " }),
        ].filter { $0 }.count
        guard (8...longest).contains(password.count), classes >= 3 else {
            return SelfAssertedProblem(message: "The password must be between 8 and \(longest) characters and have at least 3 of the following: a lowercase letter, an uppercase letter, a digit, a symbol.")
        }
        if let reentered, password != reentered {
            return SelfAssertedProblem(message: "The password entry fields do not match. Please enter the same password in both fields and try again.")
        }
        return nil
    }

    /// Whether `text` reads as one e-mail address: at most 254 bytes (RFC 5321 §4.5.3.1.3's path, less its angle
    /// brackets), one `@`, a local part, a domain with a dot inside, no spaces, angle brackets or control characters.
    static func isEmailAddress(_ text: String) -> Bool {
        guard text.utf8.count <= 254, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else { return false }
        return !text.contains(where: { $0 == " " || $0 == "<" || $0 == ">" })
    }
}
