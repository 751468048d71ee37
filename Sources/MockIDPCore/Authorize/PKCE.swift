import MockIDPJOSE

/// Proof Key for Code Exchange (RFC 7636): the verifier a token request sends against the challenge its code was issued with.
enum PKCE {
    /// RFC 7636 §4.6: S256 compares base64url(SHA-256(verifier)) with the challenge; plain compares them as is.
    /// A verifier for a code issued without a challenge is refused as a wrong one (RFC 9700 §2.1.1, PKCE
    /// downgrade): an attacker who strips the challenge from the authorization request must not get a code that
    /// redeems with any verifier.
    static func check(verifier: String?, challenge: String?, method: String?) throws(OAuthError) {
        guard let challenge else {
            if verifier != nil { throw .codeVerifierMismatch() }
            return
        }
        guard let verifier, (43...128).contains(verifier.utf8.count), verifier.utf8.allSatisfy(isCharacter) else {
            throw .codeVerifierMismatch()
        }
        let computed = method == "S256" ? Base64URL.encode(Digest.sha256(Array(verifier.utf8))) : verifier
        guard computed.isSameSecret(as: challenge) else { throw .codeVerifierMismatch() }
    }

    /// RFC 7636 §4.1: a verifier (and a challenge) is made of unreserved characters only.
    static func isCharacter(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
    }
}
