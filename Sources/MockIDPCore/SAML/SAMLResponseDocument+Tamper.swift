import MockIDPJOSE
import MockIDPXML

extension SAMLResponseDocument {
    /// The Response with `defect` (docs/saml.md, "Tamper defects"), signed by `key` unless the defect is about who
    /// signs, and written once. Defects of content are made before signing, so the signature covers them; defects of
    /// the signature or of the document's shape after.
    func signed(by key: XMLSigningKey, defect: SAMLDefect, inputs: SAMLTamperInputs) throws(XMLError) -> [UInt8] {
        var document = self
        switch defect {
        case .unsigned:
            document.signatures = false
        case .badSignature:
            // The SessionIndex, or a SAML 1.1 assertion's AuthenticationInstant (it has no SessionIndex).
            let text = String(decoding: try self.signed(by: key), as: UTF8.self)
            let (signed, altered) = tokenType == .saml11
                ? (" AuthenticationInstant=\"\(Self.instant(authInstant))\"", " AuthenticationInstant=\"\(Self.instant(authInstant - 1))\"")
                : (" SessionIndex=\"\(XMLText.attribute(sessionIndex))\"", " SessionIndex=\"_\(inputs.newGUID())\"")
            guard text.contains(signed) else { throw XMLError("the signed assertion has no\(signed) to alter") }
            return Array(text.replacing(signed, with: altered).utf8)
        case .foreignKey:
            let foreign = try SAMLCertificates.make()
            document.certificate = foreign.certificate
            return try document.signed(by: foreign)
        case .wrongIssuer:
            document.issuer = TokenDefect.onOtherHost(issuer)
        case .wrongAudience:
            document.audience = "spn:" + inputs.newGUID()
        case .wrongRecipient:
            document.recipient = TokenDefect.onOtherHost(destination, host: "recipient.invalid")
        case .wrongDestination:
            document.recipient = destination
            document.destination = TokenDefect.onOtherHost(destination, host: "destination.invalid")
        case .wrongInResponseTo:
            document.inResponseTo = "_" + inputs.newGUID()
        case .expired:
            // Issued an hour and ten minutes ago: the conditions and the confirmation ended ten minutes ago.
            document.issueInstant = issueInstant - 3600 - 600
            document.authInstant = min(authInstant, document.issueInstant)
        case .notYetValid:
            document.validity = (issueInstant + 600, issueInstant + 600 + 3900)
        case .commentInNameID:
            document.nameIDComment = true
        case .signatureWrapping:
            return try wrapped(by: key, inputs: inputs)
        }
        return try document.signed(by: key)
    }

    /// `saml-xsw`: the Response with only its assertion signed, that assertion moved untouched into the Response's
    /// `Extensions` (in a `wresult`, right before `RequestedSecurityToken`, as WS-Trust's extension elements may be),
    /// and in its place an unsigned copy naming `inputs.otherNameID` under a new ID.
    private func wrapped(by key: XMLSigningKey, inputs: SAMLTamperInputs) throws(XMLError) -> [UInt8] {
        var original = self
        original.signing = .assertion
        let signed = String(decoding: try original.signed(by: key), as: UTF8.self)
        let tags = assertionTags
        let isResponse = envelope == .response
        guard let insertion = isResponse ? signed.firstRange(of: "</Issuer>")?.upperBound
                : signed.firstRange(of: "<t:RequestedSecurityToken>")?.lowerBound,
              let start = signed[insertion...].firstRange(of: tags.start),
              let end = signed[start.upperBound...].firstRange(of: tags.end) else {
            throw XMLError("the signed Response has no assertion to wrap")
        }
        var forged = original
        forged.signatures = false
        forged.assertionID = "_" + inputs.newGUID()
        forged.sessionIndex = forged.assertionID
        forged.nameID = inputs.otherNameID
        let head = String(signed[..<insertion])
        let assertion = String(signed[start.lowerBound..<end.upperBound])
        let moved = isResponse ? "<samlp:Extensions>" + assertion + "</samlp:Extensions>" : assertion
        let between = String(signed[insertion..<start.lowerBound])
        let tail = String(signed[end.upperBound...])
        let wrapped = head + moved + between + forged.assertionXML + tail
        return Array(wrapped.utf8)
    }
}
