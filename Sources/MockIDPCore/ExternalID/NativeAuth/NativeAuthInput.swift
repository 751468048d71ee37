import MockIDPJOSE

/// What the native authentication API checks in what a client sends, and how it words what it sends back: the
/// `challenge_type` list, user names, passwords, `attributes`, one-time passcodes and masked addresses.
enum NativeAuthInput {
    /// The challenge types the API knows (MSAL for iOS and macOS, `MSALNativeAuthInternalChallengeType`).
    static let challengeTypes: Set<String> = ["oob", "password", "redirect"]

    /// The most bytes of `attributes` JSON a request may carry: every attribute a tenant collects at its longest
    /// value fits many times over, and no client's text grows a flow beyond it.
    static let maximumAttributesBytes = 8192

    /// How many digits a mailed code has (the reference's `code_length`).
    static let codeLength = 8

    /// `challenge_type`: a space-separated list of known types that includes `redirect`.
    static func challengeTypes(_ value: String?) throws(OAuthError) -> Set<String> {
        guard let value else { throw .missingParameter("challenge_type") }
        let types = value.split(separator: " ").map(String.init)
        for type in types where !challengeTypes.contains(type) { throw .unknownChallengeType(type) }
        guard types.contains("redirect") else { throw .challengeTypeWithoutRedirect() }
        return Set(types)
    }

    /// `capabilities` (MSAL's name) or `capability` (the reference's): a space-separated list.
    static func capabilities(_ parameters: TokenParameters) -> Set<String> {
        Set((parameters["capabilities"] ?? parameters["capability"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init))
    }

    /// `username`: an email address (`local@domain.tld`, at most 113 characters as a UPN, no spaces or controls).
    static func username(_ parameters: TokenParameters) throws(OAuthError) -> String {
        guard let name = parameters["username"] else { throw .nativeAuthInvalidParameter("username", "it is missing") }
        guard isEmailAddress(name) else { throw .nativeAuthInvalidParameter("username", "'\(name)' is not an email address") }
        return name
    }

    /// Whether `text` is an email address: the sign-up pages' rule (`LocalAccount`), at most 254 characters with
    /// 64 before the `@`, nothing that is a space or a control character.
    static func isEmailAddress(_ text: String) -> Bool {
        guard LocalAccount.isEmailAddress(text), text.utf8.count <= 254, (text.split(separator: "@").first?.utf8.count ?? 0) <= 64
        else { return false }
        return !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Entra's password policy (Microsoft Learn, "Password policies and account restrictions in Microsoft Entra
    /// ID"): 8 to 256 characters, three of lower case, upper case, digits and symbols, no control characters.
    static func checkPassword(_ password: String) throws(OAuthError) {
        let count = password.count
        guard count >= 8 else { throw .passwordRefused(.passwordTooShort, "New password is too short.") }
        guard count <= 256 else { throw .passwordRefused(.passwordTooLong, "New password is too long.") }
        guard !password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .passwordRefused(.passwordIsInvalid, "New password contains characters that are not allowed.")
        }
        var kinds = Set<Int>()
        for c in password.unicodeScalars {
            kinds.insert(c.properties.isLowercase ? 0 : c.properties.isUppercase ? 1 : ("0"..."9").contains(c) ? 2 : 3)
        }
        guard kinds.count >= 3 else { throw .passwordRefused(.passwordTooWeak, "New password is too weak.") }
    }

    /// The values of an `attributes` parameter (a JSON object as a string) for the tenant's attributes: members the
    /// tenant does not collect are ignored, as Entra ignores them; a value that is not text of 1 to 256 characters
    /// without control characters is refused with `attribute_validation_failed`.
    static func attributes(_ json: String?, collected: [String]) throws(OAuthError) -> [String: String] {
        guard let json else { return [:] }
        guard json.utf8.count <= maximumAttributesBytes else {
            throw .nativeAuthInvalidParameter("attributes", "it is longer than \(maximumAttributesBytes) bytes")
        }
        guard let parsed = try? JSONValue.parse(json), let object = parsed.objectValue else {
            throw .nativeAuthInvalidParameter("attributes", "it is not a JSON object")
        }
        var values: [String: String] = [:]
        var invalid: [String] = []
        for (name, value) in object where collected.contains(name) {
            guard let text = value.stringValue, !text.allSatisfy(\.isWhitespace), text.count <= SignUpAttribute.maximumLength,
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                invalid.append(name)
                continue
            }
            values[name] = text
        }
        guard invalid.isEmpty else { throw .attributeValidationFailed(invalid) }
        return values
    }

    /// An address as the API shows where a code went (`c***r@co**o.com`): the first and last character of the
    /// local part, the domain's first two and its top-level label.
    static func masked(_ address: String) -> String {
        let parts = address.split(separator: "@", maxSplits: 1)
        guard parts.count == 2, let first = parts[0].first, let last = parts[0].last else { return "***" }
        let domain = parts[1]
        let top = domain.split(separator: ".").last.map { "." + $0 } ?? ""
        return "\(first)***\(last)@\(domain.prefix(2))**\(top)"
    }

    /// Whether `given` is the flow's code and the code is still valid at `now`.
    static func codeMatches(_ given: String?, _ flow: NativeAuthFlow, now: Int) -> Bool {
        guard let given, let code = flow.code, code.expiresAt > now else { return false }
        return given.isSameSecret(as: code.value)
    }
}
