import MockIDPJOSE

/// Client assertions (`private_key_jwt`, RFC 7523): the constants and readings the checks below and the
/// on-behalf-of grant share.
enum ClientAssertion {
    /// RFC 7523 §2.2: the only `client_assertion_type` Entra takes.
    static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Clock skew allowed on a client assertion's `exp` and `nbf` ([INF]: Entra's exact allowance is undocumented;
    /// five minutes is the usual default of Microsoft's token validation).
    static let clockSkew = 300

    /// A JWT NumericDate in whole seconds. MSAL writes `exp` and `iat` as floats; values no clock reaches
    /// (beyond ±285 million years) are refused rather than trapping on conversion.
    static func numericDate(_ value: JSONValue?) -> Int? {
        guard let seconds = value?.doubleValue, seconds.isFinite, abs(seconds) < 9.0e15 else { return nil }
        return Int(seconds)
    }

    fileprivate static func thumbprint(_ value: JSONValue?, length: Int) -> [UInt8]? {
        guard let text = value?.stringValue, let bytes = Base64URL.decode(text), bytes.count == length else { return nil }
        return bytes
    }

    /// Upper-case hex, as Entra prints thumbprints.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}

extension TokenCall {
    /// Checks a client assertion: a federated token (`checkFederatedAssertion`), or a certificate credential
    /// (docs/entra-behaviour.md, "Grants"; Entra's certificate-credentials page):
    /// RS256 with `x5t` (SHA-1) or PS256 with `x5t#S256` naming a certificate registered on the app and valid by
    /// the provider's clock, a signature that certificate's key verifies, `iss` = `sub` = client ID, `aud` = this
    /// token endpoint, and `exp`/`nbf` around the provider's clock.
    ///
    /// Entra: a `jti` seen before is accepted. MSAL reuses one assertion for up to 540 seconds
    /// (`oauth2cli/assertion.py`), so refusing a replay would break every MSAL client.
    func checkClientAssertion(_ assertion: String, type: String?, client: Application, tenant: Tenant) throws(OAuthError) {
        guard let type else { throw .missingParameter("client_assertion_type") }
        guard type == ClientAssertion.jwtBearerAssertionType else { throw .unsupportedClientAssertionType(type) }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(assertion)
        } catch {
            throw .malformedClientAssertion(error.reason)
        }
        // Workload identity federation: a token from another issuer (docs/azure-sdks.md).
        if let issuer = jws.payload["iss"]?.stringValue, FederatedAssertion.isFederatedIssuer(issuer, client: client) {
            try checkFederatedAssertion(jws, client: client)
            return
        }
        let alg = jws.header["alg"]?.stringValue ?? "none"
        guard alg == SignatureAlgorithm.rs256.rawValue || alg == SignatureAlgorithm.ps256.rawValue else {
            throw .unsupportedAssertionAlgorithm(alg)
        }
        // Entra: MSAL writes both thumbprints as *padded* base64url; the unpadded form is accepted too.
        let sha256 = ClientAssertion.thumbprint(jws.header["x5t#S256"], length: 32)
        let sha1 = ClientAssertion.thumbprint(jws.header["x5t"], length: 20)
        guard let thumbprint = sha256 ?? sha1 else { throw .assertionCertificateNotIdentified(clientID: client.clientID) }
        let hex = ClientAssertion.hex(thumbprint)
        let registered = client.certificates.compactMap(\.certificate).first { certificate in
            sha256 != nil ? certificate.sha256Thumbprint == thumbprint : certificate.sha1Thumbprint == thumbprint
        }
        guard let certificate = registered else {
            throw .assertionCertificateNotRegistered(thumbprint: hex, clientID: client.clientID)
        }
        guard jws.verify(with: certificate.publicKey) else {
            throw .assertionSignatureInvalid(thumbprint: hex, notBefore: certificate.notBefore, notAfter: certificate.notAfter)
        }
        let now = provider.clock.now()
        guard (certificate.notBefore...certificate.notAfter).contains(now) else {
            throw .assertionCertificateOutsideValidity(thumbprint: hex, notBefore: certificate.notBefore, notAfter: certificate.notAfter)
        }
        let claims = jws.payload
        guard let issuer = claims["iss"]?.stringValue, let subject = claims["sub"]?.stringValue else {
            throw .malformedClientAssertion("it has no iss or sub claim")
        }
        guard issuer == subject else { throw .assertionSubjectNotIssuer() }
        guard issuer.lowercased() == client.clientID else { throw .assertionClientMismatch(issuer: issuer, clientID: client.clientID) }
        // Entra: a list of audiences is refused as malformed (openid-client issue 348).
        guard let audience = claims["aud"]?.stringValue else {
            throw .malformedClientAssertion("its aud claim is missing or not a single string")
        }
        let accepted = acceptedAssertionAudiences(tenant: tenant)
        guard accepted.contains(audience.lowercased()) else {
            throw .assertionAudienceMismatch(audience, expected: accepted.first ?? "")
        }
        try checkAssertionTimeRange(claims)
    }

    /// The token endpoint URLs (v2 and v1) a client may name in `aud`, lower-case: on the host the client used and on
    /// the cloud's own login host, for the tenant as the request named it, by GUID and by each domain. The first is
    /// the v2 endpoint the request used, for messages.
    func acceptedAssertionAudiences(tenant: Tenant) -> [String] {
        let cloud = scope.cloud(for: tenant)
        var segments = [request.tenant, tenant.id] + tenant.domains
        segments = segments.map { $0.lowercased() }
        var urls: [String] = []
        for base in [scope.baseURL, "https://\(cloud.preferredNetworkHost)"] {
            for segment in segments {
                for endpoint in [Endpoint.v2Token, .v1Token] {
                    urls.append(EndpointTable.url(endpoint, baseURL: base, tenant: segment).lowercased())
                }
            }
        }
        return urls
    }
}
