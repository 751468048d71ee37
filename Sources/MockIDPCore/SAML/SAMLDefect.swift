import MockIDPJOSE

/// One defect a service provider must refuse in a SAML Response (docs/saml.md, "Tamper defects"): a Response issued
/// with it is correct in every way but this one (signed by the app's certificate over exclusive c14n, the usual
/// conditions and confirmation) unless the defect is about that part.
public enum SAMLDefect: String, CaseIterable, Sendable, Equatable {
    /// No signature at all.
    case unsigned = "saml-unsigned"
    /// Signed, then the assertion's `SessionIndex` changed: the digest no longer matches.
    case badSignature = "saml-bad-signature"
    /// Signed by a fresh key whose certificate is in `KeyInfo`, not by the app's certificate.
    case foreignKey = "saml-foreign-key"
    /// Both `Issuer`s on another host.
    case wrongIssuer = "saml-wrong-issuer"
    /// An `Audience` of no app.
    case wrongAudience = "saml-wrong-audience"
    /// The bearer confirmation's `Recipient` on another host.
    case wrongRecipient = "saml-wrong-recipient"
    /// The Response's `Destination` on another host.
    case wrongDestination = "saml-wrong-destination"
    /// An `InResponseTo` (the Response's and the confirmation's) of no request.
    case wrongInResponseTo = "saml-wrong-inresponseto"
    /// Issued an hour and ten minutes ago: expired ten minutes ago.
    case expired = "saml-expired"
    /// `NotBefore` ten minutes in the future.
    case notYetValid = "saml-not-yet-valid"
    /// Signature wrapping: the signed assertion, untouched, in the Response's `Extensions`; in its place an unsigned
    /// assertion naming another user.
    case signatureWrapping = "saml-xsw"
    /// A comment inside the signed `NameID` after its domain's first label; the signature still verifies.
    case commentInNameID = "saml-comment-nameid"

    /// The defects' names.
    package static var names: [String] { allCases.map(\.rawValue) }

    /// Whether a WS-Federation `wresult` with a `tokenType` assertion can carry the defect (docs/saml.md,
    /// "WS-Federation"): it has no `Destination` and answers no request, and a SAML 1.1 assertion has no `Recipient`.
    /// A defect that cannot is left for the next SAML Response.
    package func appliesToWSFederation(_ tokenType: SAMLSettings.WSFedTokenType) -> Bool {
        switch self {
        case .wrongDestination, .wrongInResponseTo: false
        case .wrongRecipient: tokenType == .saml2
        default: true
        }
    }
}

/// What applying a SAML defect needs besides the Response: fresh values, and another user for `saml-xsw`.
package struct SAMLTamperInputs: Sendable {
    /// A new GUID (for a request, an assertion, a session index or an app that never existed).
    package var newGUID: @Sendable () -> String
    /// The `NameID` of another user of the tenant (`saml-xsw`).
    package var otherNameID: String

    /// Inputs drawing GUIDs from `newGUID`, with `otherNameID` for `saml-xsw`.
    package init(newGUID: @escaping @Sendable () -> String, otherNameID: String) {
        self.newGUID = newGUID
        self.otherNameID = otherNameID
    }
}

/// A registered SAML tamper fault (`POST /_mockidp/faults` with `"token": "saml"`): the next matching Responses are
/// issued with `defect`, each one counting once.
package struct SAMLTamperFault: Sendable, Equatable {
    /// Assigned when registered (shared with the other faults' IDs).
    package var id = 0
    /// The defect the Responses get.
    package var defect: SAMLDefect
    /// Only Responses to this app (its client ID).
    package var clientID: String?
    /// How many Responses still get the defect; nil for every matching one until reset.
    package var remaining: Int? = 1

    /// A fault for the next `remaining` Responses (nil: every one until reset), to `clientID` when given.
    package init(defect: SAMLDefect, clientID: String? = nil, remaining: Int? = 1) {
        self.defect = defect
        self.clientID = clientID
        self.remaining = remaining
    }

    /// Whether a Response to the app `clientID` takes this fault.
    func matches(clientID: String) -> Bool {
        self.clientID.map { $0.lowercased() == clientID.lowercased() } ?? true
    }

    /// The fault as the control API shows it.
    package var json: JSONValue {
        var o: JSONObject = ["id": .int(id), "tamper": .string(defect.rawValue), "token": "saml",
                             "count": remaining.map { .int($0) } ?? .int(0)]
        if let clientID { o["clientId"] = .string(clientID) }
        return .object(o)
    }
}
