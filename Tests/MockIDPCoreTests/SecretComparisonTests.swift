@testable import MockIDPCore
import Testing

/// `isSameSecret`, which every secret the server checks goes through (client secrets, passwords, the admin token,
/// the identity header, PKCE challenges), accepts exactly the equal texts.
@Suite struct SecretComparisonTests {
    static let secret = "daemon-secret"

    @Test("Equal texts match, from strings and substrings alike")
    func equalTexts() {
        #expect(Self.secret.isSameSecret(as: "daemon-secret"))
        #expect("xdaemon-secretx".dropFirst().dropLast().isSameSecret(as: Self.secret))
        #expect("".isSameSecret(as: ""))
        #expect("pässwörd".isSameSecret(as: "pässwörd"))
    }

    @Test("Any difference refuses: a byte, a prefix, an extension, case, another spelling of the same character")
    func differentTexts() {
        for other in ["daemon-secreT", "daemon-secre", "daemon-secret ", "", "DAEMON-SECRET", "xaemon-secret"] {
            #expect(!Self.secret.isSameSecret(as: other), "\(other.debugDescription)")
            #expect(!other.isSameSecret(as: Self.secret), "\(other.debugDescription)")
        }
        #expect(!"caf\u{E9}".isSameSecret(as: "cafe\u{301}"))
    }

    @Test("Lengths a multiple of 256 apart never match, whichever side is longer")
    func lengthsFarApart() {
        // The answers are kept apart from the texts, so that a failure does not print 65,536 characters.
        for extra in [256, 512, 65_536] {
            let longer = Self.secret + String(repeating: "x", count: extra)
            let longerSent = Self.secret.isSameSecret(as: longer), shorterSent = longer.isSameSecret(as: Self.secret)
            #expect(!longerSent, "\(extra) characters added")
            #expect(!shorterSent, "\(extra) characters added")
        }
        let firstPart = String(repeating: "s", count: 300).isSameSecret(as: String(repeating: "s", count: 44))
        #expect(!firstPart)
    }
}
