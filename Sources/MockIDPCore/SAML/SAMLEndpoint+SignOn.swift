import MockIDPJOSE
import MockIDPXML

/// What a SAML request comes to once checked.
package enum SAMLRequestCheck {
    /// Refused on the error page, never posted (Entra's refusals of the request itself).
    case errorPage(OAuthError)
    /// Answered with a Response carrying an error status, posted to the service provider.
    case answer(SAMLDelivery)
    /// Checked: the user signs in, then the Response goes out.
    case signIn(SAMLSignOn)
    /// A `LogoutRequest` checked (docs/saml.md, "Single logout"): the browser session ends, and the browser is
    /// redirected to this address, the app's `logoutUrl` with the signed `LogoutResponse`.
    case signOut(location: String)
}

/// What the browser posts to the service provider: `SAMLResponse` and `RelayState` to its assertion consumer service.
package struct SAMLDelivery: Sendable {
    /// The assertion consumer service.
    package var url: String
    /// The form's fields.
    package var fields: [(name: String, value: String)]
}

/// How a checked sign-on meets the browser session.
package enum SAMLInteraction {
    /// The session's one account answers.
    case answer(SessionEntry)
    /// The sign-in page, offering the session's accounts or not (`ForceAuthn`).
    case signInPage(offerSessionAccounts: Bool)
    /// `IsPassive` and no usable session: a `NoPassive` Response.
    case noPassive
}

extension SAMLEndpoint {
    /// Checks an `AuthnRequest` as Entra does (docs/saml.md, "Sign-on"): the tenant, the message's encoding and
    /// bounds, the issuer (one of a SAML app's identifier URIs), the `ID`, no `Subject`, the assertion consumer
    /// service (one of the app's reply URLs), the signature when the app requires one, and the `NameIDPolicy`. A
    /// `LogoutRequest` is checked as single logout (`signOut`).
    package func check(_ message: SAMLMessage, tenant segment: String, context: RequestScope) -> SAMLRequestCheck {
        let directory = context.directory
        guard let tenant = directory.tenant(segment) else { return .errorPage(.tenantNotFound(segment, forDiscovery: false)) }
        let document: InboundDocument
        do throws(XMLError) { document = try message.document() } catch { return .errorPage(.samlMessageUnreadable(error.reason)) }
        if let logout = SAMLLogoutRequest(document.root) {
            return signOut(logout, message: message, document: document, tenant: tenant, context: context)
        }
        guard let request = SAMLAuthnRequest(document.root) else { return .errorPage(.samlNotARequest("a \(document.root.name)")) }
        guard let app = Self.app(identifiedBy: request.issuer, in: tenant), let settings = app.saml else {
            return .errorPage(.samlUnknownIssuer(request.issuer, tenant: tenant.id))
        }
        guard SAMLAuthnRequest.isUsableID(request.id) else { return .errorPage(.samlBadRequestID(request.id)) }
        if request.hasSubject { return .errorPage(.samlSubjectNotSupported()) }
        let acs: String
        switch Self.replyURL(request.assertionConsumerServiceURL, of: app, identifier: request.issuer, parameter: "AssertionConsumerServiceURL") {
        case .success(let url): acs = url
        case .failure(let error): return .errorPage(error)
        }
        if settings.requireSignedRequests, let problem = signatureProblem(message, document: document, app: app) {
            return .errorPage(.samlSignatureRequired(problem, issuer: request.issuer))
        }
        let signOn = SAMLSignOn(
            tenantID: tenant.id, clientID: app.clientID, requestID: request.id, audience: request.issuer,
            assertionConsumerServiceURL: acs, relayState: message.relayState, forceAuthn: request.forceAuthn,
            isPassive: request.isPassive, requestedNameIDFormat: request.nameIDPolicyFormat,
            expiresAt: provider.clock.now() + SAMLSignOn.lifetime)
        if let format = request.nameIDPolicyFormat, !SAMLNameIDFormat.requestable.contains(format) {
            return failure(signOn, "Requester", "InvalidNameIDPolicy",
                           "The NameIDPolicy format '\(format)' is not supported: only persistent, emailAddress, unspecified and transient are.", context: context)
        }
        return .signIn(signOn)
    }

    /// IdP-initiated sign-on, as My Apps launches an app (`GET /{tenant}/saml2?appid=…[&RelayState=…]`): no request,
    /// so the Response is unsolicited (no `InResponseTo`), for the app's first identifier URI, posted to its first
    /// reply URL with `relayState` or the app's configured `relayState`
    /// (https://learn.microsoft.com/en-us/graph/api/resources/serviceprincipal, loginUrl).
    package func idpInitiated(appID: String, relayState: String?, tenant segment: String, context: RequestScope) -> SAMLRequestCheck {
        let directory = context.directory
        guard let tenant = directory.tenant(segment) else { return .errorPage(.tenantNotFound(segment, forDiscovery: false)) }
        guard let app = directory.app(appID, in: tenant), let settings = app.saml, let audience = app.identifierURIs.first else {
            return .errorPage(.samlUnknownApp(appID, tenant: segment))
        }
        guard let acs = app.redirectURIs.first else {
            return .errorPage(.samlUnregisteredReplyURL("", issuer: audience, parameter: "AssertionConsumerServiceURL"))
        }
        return .signIn(SAMLSignOn(
            tenantID: tenant.id, clientID: app.clientID, requestID: nil, audience: audience, assertionConsumerServiceURL: acs,
            relayState: relayState ?? settings.relayState, forceAuthn: false, isPassive: false, requestedNameIDFormat: nil,
            expiresAt: provider.clock.now() + SAMLSignOn.lifetime))
    }

    /// The SAML app of `tenant` with `identifier` among its identifier URIs (without regard to case).
    static func app(identifiedBy identifier: String, in tenant: Tenant) -> Application? {
        tenant.apps.first { app in app.saml != nil && app.identifierURIs.contains { $0.lowercased() == identifier.lowercased() } }
    }

    /// Where the answer goes: `asked` (the request's `parameter`) when it is one of `app`'s reply URLs, else without
    /// one the app's first reply URL; AADSTS50011 otherwise.
    static func replyURL(_ asked: String?, of app: Application, identifier: String, parameter: String) -> Result<String, OAuthError> {
        if let asked {
            return app.redirectURIs.contains(asked) ? .success(asked)
                : .failure(.samlUnregisteredReplyURL(asked, issuer: identifier, parameter: parameter))
        }
        guard let registered = app.redirectURIs.first else { return .failure(.samlUnregisteredReplyURL("", issuer: identifier, parameter: parameter)) }
        return .success(registered)
    }

    /// Why the request's signature does not do (nil: it verifies with one of the app's certificates).
    func signatureProblem(_ message: SAMLMessage, document: InboundDocument, app: Application) -> String? {
        let certificates = app.certificates.compactMap { try? Certificate(pem: $0.pem) }
        switch message.binding {
        case .redirect(let signedText, let sigAlg, let signature):
            guard let signedText, let sigAlg, let signature else { return "the request has no Signature and SigAlg parameters" }
            guard let bytes = Base64URL.decode(signature, ignoringWhitespace: true) else { return "the Signature parameter is not base64" }
            return RedirectSignature.verify(signedText: signedText, signature: bytes, algorithmURI: sigAlg, certificates: certificates)
                ? nil : "the query signature (\(sigAlg)) does not verify with the app's certificates"
        case .post:
            return document.hasValidEnvelopedSignature(certificates: certificates)
                ? nil : "the request has no enveloped signature over itself that verifies with the app's certificates"
        }
    }

    /// Keeps a checked sign-on while its user signs in; returns its key.
    package func keep(_ signOn: SAMLSignOn) -> String {
        let key = provider.newSessionID()
        provider.samlSignOns.keep(key, signOn, now: provider.clock.now())
        return key
    }

    /// The sign-on kept under `key`, while it lives.
    package func pending(_ key: String) -> SAMLSignOn? { provider.samlSignOns.find(key, now: provider.clock.now()) }

    /// Forgets a sign-on once answered.
    package func finish(_ key: String) { provider.samlSignOns.remove(key) }

    /// The browser session's decision for `signOn`: `ForceAuthn` asks again, `IsPassive` shows no page, else the
    /// session's one account of the tenant answers, or the sign-in page offers them.
    package func interaction(for signOn: SAMLSignOn, sessionID: String?, directory: Directory) -> SAMLInteraction {
        let accounts = provider.signIn.sessionAccounts(sessionID, tenantSegment: signOn.tenantID, directory: directory)
        if signOn.forceAuthn { return signOn.isPassive ? .noPassive : .signInPage(offerSessionAccounts: false) }
        if accounts.count == 1, let only = accounts.first {
            return .answer(SessionEntry(account: only.account, user: only.user, tenant: only.tenant))
        }
        return signOn.isPassive ? .noPassive : .signInPage(offerSessionAccounts: true)
    }

    /// The names the sign-in page shows: the tenant's and the app's.
    package func displayNames(_ signOn: SAMLSignOn, directory: Directory) -> (tenant: String, app: String) {
        let tenant = directory.tenant(signOn.tenantID)
        let app = tenant.flatMap { directory.app(signOn.clientID, in: $0) }
        return (tenant?.displayName ?? "Microsoft", app?.displayName ?? signOn.audience)
    }

    /// The `NoPassive` Response for `signOn`.
    package func noPassive(_ signOn: SAMLSignOn, context: RequestScope) -> SAMLRequestCheck {
        failure(signOn, "Responder", "NoPassive", "AADSTS50058: A passive sign-in was requested and no user is signed in.", context: context)
    }

    /// A Response with an error status, posted to the service provider.
    private func failure(_ signOn: SAMLSignOn, _ topLevel: String, _ second: String, _ message: String,
                         context: RequestScope) -> SAMLRequestCheck {
        guard let tenant = context.directory.tenant(signOn.tenantID), let app = context.directory.app(signOn.clientID, in: tenant),
              let settings = app.saml else { return .errorPage(.samlUnknownApp(signOn.clientID, tenant: signOn.tenantID)) }
        do {
            let key = try signingKey(tenant: tenant, app: app)
            var document = SAMLResponseDocument(
                responseID: "_" + provider.newGUID(), assertionID: "", issueInstant: provider.clock.now(),
                destination: signOn.assertionConsumerServiceURL, inResponseTo: signOn.requestID,
                issuer: Self.entityID(tenant.id, cloud: context.cloud(for: tenant)), audience: signOn.audience, nameID: "",
                nameIDFormat: "", sessionIndex: "", authInstant: 0, attributes: [], signing: settings.signing,
                method: Self.method(settings), certificate: key.certificate, failure: nil)
            document.failure = .init(topLevel: topLevel, second: second, message: message)
            return .answer(delivery(try document.signed(by: key), signOn))
        } catch {
            return .errorPage(.samlSigningFailed(error.reason))
        }
    }

    /// The Response that signs `user` of `tenant` in to the service provider of `signOn`, `authTime` being when the
    /// user last typed a password.
    package func response(_ signOn: SAMLSignOn, user: User, tenant: Tenant, authTime: Int, context: RequestScope) -> Result<SAMLDelivery, OAuthError> {
        let directory = context.directory
        guard let app = directory.app(signOn.clientID, in: tenant), let settings = app.saml else {
            return .failure(.samlUnknownApp(signOn.clientID, tenant: tenant.id))
        }
        let cloud = context.cloud(for: tenant)
        let issuer = Self.entityID(tenant.id, cloud: cloud)
        let format = SAMLNameIDFormat.chosen(settings.nameIDFormat, requested: signOn.requestedNameIDFormat)
        let assertionID = "_" + provider.newGUID()
        do {
            let key = try signingKey(tenant: tenant, app: app)
            let groups = app.groupMembershipClaims.claimed(directory.groups(of: user, in: tenant))
            var document = SAMLResponseDocument(
                responseID: "_" + provider.newGUID(), assertionID: assertionID, issueInstant: provider.clock.now(),
                destination: signOn.assertionConsumerServiceURL, inResponseTo: signOn.requestID, issuer: issuer,
                audience: signOn.audience, nameID: nameID(user, format: format, source: settings.nameIDSource),
                nameIDFormat: format, sessionIndex: assertionID, authInstant: authTime,
                attributes: SAMLAttributes.of(user: user, tenant: tenant, app: app, settings: settings, issuer: issuer,
                                              groups: groups, graphHost: cloud.cloudGraphHostName),
                signing: settings.signing, method: Self.method(settings), certificate: key.certificate, failure: nil)
            let wsFederation = signOn.answer == .wsFederation
            if wsFederation {
                // A wresult carries the assertion alone, signed whatever `signing` says (docs/saml.md, "WS-Federation").
                document.envelope = .wsTrust(settings.wsfedTokenType, realm: signOn.audience)
                document.signing = .assertion
            }
            guard let defect = provider.controls.takeSAMLDefect(
                clientID: app.clientID, where: { !wsFederation || $0.appliesToWSFederation(settings.wsfedTokenType) }) else {
                return .success(delivery(try document.signed(by: key), signOn))
            }
            let inputs = SAMLTamperInputs(newGUID: { [provider] in provider.newGUID() },
                                          otherNameID: otherNameID(than: user, in: tenant, format: format, source: settings.nameIDSource))
            return .success(delivery(try document.signed(by: key, defect: defect, inputs: inputs), signOn, defect: defect))
        } catch {
            return .failure(.samlSigningFailed(error.reason))
        }
    }

    /// The form that carries `bytes`: `SAMLResponse` (base64) and `RelayState`, or WS-Federation's `wa`, `wresult` (the
    /// XML itself) and `wctx`. The document is kept as the app's last, for the inspector.
    private func delivery(_ bytes: [UInt8], _ signOn: SAMLSignOn, defect: SAMLDefect? = nil) -> SAMLDelivery {
        let xml = String(decoding: bytes, as: UTF8.self)
        provider.samlResponses.record(.init(tenantID: signOn.tenantID, clientID: signOn.clientID, sentAt: provider.clock.now(),
                                            destination: signOn.assertionConsumerServiceURL, defect: defect, xml: xml))
        var fields: [(name: String, value: String)]
        switch signOn.answer {
        case .samlResponse:
            fields = [(name: "SAMLResponse", value: Base64URL.encodeStandard(bytes))]
            if let relayState = signOn.relayState { fields.append((name: "RelayState", value: relayState)) }
        case .wsFederation:
            fields = [(name: "wa", value: "wsignin1.0"), (name: "wresult", value: xml)]
            if let context = signOn.relayState { fields.append((name: "wctx", value: context)) }
        }
        return SAMLDelivery(url: signOn.assertionConsumerServiceURL, fields: fields)
    }

    /// The key that signs the app's Responses now.
    func signingKey(tenant: Tenant, app: Application) throws(XMLError) -> XMLSigningKey {
        guard let key = try provider.samlCertificates.keys(tenantID: tenant.id, clientID: app.clientID).first else {
            throw XMLError("the app has no SAML signing certificate")
        }
        return key
    }

    /// The `NameID` of another user of `tenant` for `saml-xsw`: the first other user, or a made-up `mallory` of
    /// `user`'s domain when the tenant has no other (docs/saml.md, "Tamper defects").
    private func otherNameID(than user: User, in tenant: Tenant, format: String, source: SAMLSettings.NameIDSource) -> String {
        if let other = tenant.users.first(where: { $0.objectID != user.objectID }) {
            return nameID(other, format: format, source: source)
        }
        let domain = user.username.firstIndex(of: "@").map { String(user.username[$0...]) } ?? ""
        return "mallory" + domain
    }

    /// The `NameID`'s value: the configured source, or for a transient format a new value each time.
    private func nameID(_ user: User, format: String, source: SAMLSettings.NameIDSource) -> String {
        if format == SAMLNameIDFormat.transient { return "_" + provider.newGUID() }
        switch source {
        case .userPrincipalName: return user.username
        case .mail: return user.email ?? user.username
        case .objectId: return user.objectID
        case .onPremisesSamAccountName: return String(user.username.prefix { $0 != "@" })
        }
    }

    static func method(_ settings: SAMLSettings) -> XMLSignatureMethod { settings.signingAlgorithm == .sha1 ? .rsaSHA1 : .rsaSHA256 }
}
