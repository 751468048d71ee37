import MockIDPJOSE

extension FederatedAssertion {
    /// Whether a client assertion issued by `issuer` is a federated token (workload identity federation) rather
    /// than a certificate credential, whose `iss` is the client ID. A GUID that is another app's client ID stays
    /// a certificate credential, refused with Entra's AADSTS700021 (`checkClientAssertion`).
    package static func isFederatedIssuer(_ issuer: String, client: Application) -> Bool {
        issuer.lowercased() != client.clientID && !GUID.isValid(issuer)
    }
}

extension TokenCall {
    /// Checks a federated client assertion in Entra's order
    /// (docs/azure-sdks.md, "Azure SDKs: workload identity federation"): a federated credential of the app must match
    /// its issuer, audience and subject exactly; then its time range; then its signature, by the issuer's keys.
    ///
    /// Entra: a federated token is accepted again and again until it expires. The Azure CLI keeps the one
    /// GitHub token `azure/login` gave it and sends it with every later token request, which fails only once it
    /// expires (Azure/login issue 180, azure-powershell issue 24304: AADSTS700024, never a replay error); so
    /// no `jti` is remembered here.
    func checkFederatedAssertion(_ jws: CompactJWS, client: Application) throws(OAuthError) {
        let assertion: FederatedAssertion
        switch FederatedAssertion.read(jws.payload) {
        case .success(let claims): assertion = claims
        case .failure(let problem): throw .malformedClientAssertion(problem.reason)
        }
        try checkFederatedCredential(assertion, client: client)
        try checkAssertionTimeRange(jws.payload)
        try checkFederatedSignature(jws, issuer: assertion.issuer)
    }

    /// AADSTS70021, 700211, 700212, 700213: no federated credential of the app accepts the token.
    func checkFederatedCredential(_ assertion: FederatedAssertion, client: Application) throws(OAuthError) {
        switch client.federatedCredential(accepting: assertion) {
        case .success: return
        case .failure(.noCredentials):
            throw .noFederatedCredential(issuer: assertion.issuer, subject: assertion.subject, audience: assertion.audienceText)
        case .failure(.issuer): throw .federatedIssuerNotFound(assertion.issuer)
        case .failure(.audience): throw .federatedAudienceNotFound(assertion.audienceText)
        case .failure(.subject): throw .federatedSubjectNotFound(assertion.subject)
        }
    }

    /// AADSTS7000272, 90061, 700027: the token must be RS256 and verify with the issuer's key its `kid` names (any
    /// of its keys when it names none).
    func checkFederatedSignature(_ jws: CompactJWS, issuer: String) throws(OAuthError) {
        let alg = jws.header["alg"]?.stringValue ?? "none"
        // Microsoft Learn: only issuers that sign with RS256 are supported for workload identity federation.
        guard alg == SignatureAlgorithm.rs256.rawValue else {
            throw .federatedSignatureInvalid("it is signed with '\(alg)'; federated tokens must be RS256")
        }
        let keyID = jws.header["kid"]?.stringValue
        let keys = try federatedKeys(of: issuer, wanting: keyID)
        let candidates = keyID.map { id in keys.filter { $0.keyID == id } } ?? keys
        guard !candidates.isEmpty else { throw .federatedKeyNotFound(keyID: keyID ?? "", issuer: issuer) }
        guard candidates.contains(where: { jws.verify(with: $0.key) }) else {
            throw .federatedSignatureInvalid("no key of '\(issuer)'" + (keyID.map { " named '\($0)'" } ?? "") + " verifies it")
        }
    }

    /// The public keys of a trusted issuer: a `trustedIssuers` entry's (its file, or its URL through the remote
    /// key sets), else, for the v2 issuer of one of this server's tenants, the keys this server publishes.
    func federatedKeys(of issuer: String, wanting keyID: String?) throws(OAuthError) -> [(keyID: String, key: PublicKey)] {
        let keySet: JSONWebKeySet
        if let trusted = directory.configuration.trustedIssuers.first(where: { $0.issuer == issuer }) {
            switch trusted.keys {
            case .file(_, let keys):
                keySet = keys
            case .uri(let url):
                switch provider.remoteKeySets.keySet(at: url, wanting: keyID) {
                case .success(let keys): keySet = keys
                case .failure(let problem): throw .federatedKeySetUnavailable(issuer: issuer, why: "\(url) \(problem)")
                }
            }
        } else if let tenantID = TrustedIssuer.ownTenantID(ofIssuer: issuer), let tenant = directory.tenant(tenantID), tenant.b2c == nil {
            return directory.signingKeys.map { ($0.keyID, $0.certificate.publicKey) }
        } else {
            throw .federatedKeySetUnavailable(issuer: issuer, why: "it is neither in trustedIssuers nor a tenant of this server")
        }
        return keySet.keys.compactMap { key in (try? key.publicKey()).map { (key.keyID, $0) } }
    }

    /// AADSTS700024: `exp` (required) and `nbf` (when present) around the provider's clock, with
    /// `assertionClockSkew` either way.
    func checkAssertionTimeRange(_ claims: JSONObject) throws(OAuthError) {
        guard let expiry = ClientAssertion.numericDate(claims["exp"]) else {
            throw .malformedClientAssertion("it has no numeric exp claim")
        }
        let now = provider.clock.now()
        let notBefore = ClientAssertion.numericDate(claims["nbf"])
        guard now <= expiry + ClientAssertion.clockSkew, (notBefore ?? now) <= now + ClientAssertion.clockSkew else {
            throw .assertionOutsideTimeRange(now: now, notBefore: notBefore, expiry: expiry)
        }
    }
}
