/// WS-Federation passive requestor (docs/saml.md, "WS-Federation"): `wsignin1.0` is one more kind of SAML sign-on,
/// answered with a `wresult` instead of a Response; `wsignout1.0` ends the browser session
/// (https://docs.oasis-open.org/wsfed/federation/v1.2/os/ws-federation-1.2-spec-os.html, section 13).
extension SAMLEndpoint {
    /// Checks a `wa=wsignin1.0` request as Entra does: the tenant, `wtrealm` one of a SAML app's identifier URIs
    /// (AADSTS700016), `wreply` one of its reply URLs (AADSTS50011; without one, the first). `wctx` comes back with the
    /// answer; `wfresh=0` asks for the password again, as `ForceAuthn` does.
    package func wsFederationSignIn(realm: String?, reply: String?, wctx: String?, fresh: String?, tenant segment: String,
                                    context: RequestScope) -> SAMLRequestCheck {
        guard let tenant = context.directory.tenant(segment) else { return .errorPage(.tenantNotFound(segment, forDiscovery: false)) }
        guard let realm, !realm.isEmpty else { return .errorPage(.missingParameter("wtrealm")) }
        guard let app = Self.app(identifiedBy: realm, in: tenant) else { return .errorPage(.samlUnknownIssuer(realm, tenant: tenant.id)) }
        let target: String
        switch Self.replyURL(reply.flatMap { $0.isEmpty ? nil : $0 }, of: app, identifier: realm, parameter: "wreply") {
        case .success(let url): target = url
        case .failure(let error): return .errorPage(error)
        }
        return .signIn(SAMLSignOn(
            tenantID: tenant.id, clientID: app.clientID, requestID: nil, audience: realm, assertionConsumerServiceURL: target,
            relayState: wctx, forceAuthn: fresh == "0", isPassive: false, requestedNameIDFormat: nil,
            expiresAt: provider.clock.now() + SAMLSignOn.lifetime, answer: .wsFederation))
    }

    /// Where `wa=wsignout1.0` returns once the session has ended: `reply` when it is a reply URL or the logout URL of
    /// one of the tenant's SAML apps (the app `realm` names, when given); nil shows the signed-out page. An unknown
    /// tenant is refused.
    package func wsFederationSignOutTarget(reply: String?, realm: String?, tenant segment: String,
                                           directory: Directory) -> Result<String?, OAuthError> {
        guard let tenant = directory.tenant(segment) else { return .failure(.tenantNotFound(segment, forDiscovery: false)) }
        guard let reply, !reply.isEmpty else { return .success(nil) }
        let apps = realm.flatMap { $0.isEmpty ? nil : Self.app(identifiedBy: $0, in: tenant) }.map { [$0] }
            ?? tenant.apps.filter { $0.saml != nil }
        let registered = apps.contains { $0.redirectURIs.contains(reply) || $0.saml?.logoutURL == reply }
        return .success(registered ? reply : nil)
    }
}
