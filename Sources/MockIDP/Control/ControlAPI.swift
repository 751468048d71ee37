import MockIDPConfiguration
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The control API for tests (`/_mockidp/…`, docs/control-api.md): JSON in and out. Without `--admin-token` it answers
/// loopback callers only (403); with it every caller must send `Authorization: Bearer <token>` (401);
/// `--no-admin` turns it off (404). The health check is not part of it and is always open.
public enum ControlCall: String, CaseIterable, Sendable {
    case addUser, addApp, addManagedIdentity, addGroup, addClaims, addFault, listFaults, rotateKeys, retireKeys, clock, requests, reset, outbox
    case grantConsent, listConsents, revokeConsents
    case inspector, inspection, inspectToken
    case rotateSAMLCertificate

    /// The control API's paths: the one place they are spelled.
    static let paths: [(call: ControlCall, method: String, template: String)] = [
        (.addUser, "POST", "/_mockidp/tenants/{tenant}/users"),
        (.addApp, "POST", "/_mockidp/tenants/{tenant}/apps"),
        (.addManagedIdentity, "POST", "/_mockidp/tenants/{tenant}/managedIdentities"),
        (.addGroup, "POST", "/_mockidp/tenants/{tenant}/groups"),
        (.addClaims, "POST", "/_mockidp/claims"),
        (.addFault, "POST", "/_mockidp/faults"),
        (.listFaults, "GET", "/_mockidp/faults"),
        (.rotateKeys, "POST", "/_mockidp/keys/rotate"),
        (.retireKeys, "POST", "/_mockidp/keys/retire"),
        (.clock, "POST", "/_mockidp/clock"),
        (.requests, "GET", "/_mockidp/requests"),
        (.reset, "POST", "/_mockidp/reset"),
        // The one-time passcodes External ID would have mailed.
        (.outbox, "GET", "/_mockidp/outbox"),
        // Consents users gave apps with consentRequired (Control/EndpointHandlers+Consents.swift).
        (.grantConsent, "POST", "/_mockidp/consents"),
        (.listConsents, "GET", "/_mockidp/consents"),
        (.revokeConsents, "DELETE", "/_mockidp/consents"),
        // The inspector page and the calls its script makes (Control/Inspector.swift).
        (.inspector, "GET", "/_mockidp/"),
        (.inspection, "GET", "/_mockidp/inspection"),
        (.inspectToken, "POST", "/_mockidp/tokens/inspect"),
        // A SAML app's signing certificate (SAML/EndpointHandlers+SAML.swift).
        (.rotateSAMLCertificate, "POST", "/_mockidp/tenants/{tenant}/apps/{clientId}/saml/rotate"),
    ]

    /// The prefix every control path starts with (also the health check's).
    static let prefix = "/_mockidp/"

    /// The HTTP method of `call`.
    public var method: String { Self.row(self).method }

    /// The path of `call` (`{tenant}` filled in for the user and app calls, `{clientId}` for an app's).
    public func path(tenant: String = "", clientID: String = "") -> String {
        Self.row(self).template.replacingOccurrences(of: "{tenant}", with: tenant).replacingOccurrences(of: "{clientId}", with: clientID)
    }

    private static func row(_ call: ControlCall) -> (call: ControlCall, method: String, template: String) {
        guard let row = paths.first(where: { $0.call == call }) else { preconditionFailure("every ControlCall has a row in paths") }
        return row
    }
}

extension EndpointHandlers {
    /// Registers every control call on `table`, each behind the access rule (`Route.controlAccess`).
    static func addControlRoutes(to table: inout RouteTable<Route>, _ h: EndpointHandlers) {
        for (call, method, template) in ControlCall.paths {
            table.add(template, methods: [method], Route(template: template, hostRefusal: nil, faultSite: nil, controlAccess: true) {
                request, params, context in h.control(call, request, params, context: context)
            })
        }
    }

    /// The access rule's answer when `request` may not use the control API; nil when it may.
    func controlAccessRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard options.adminEnabled else {
            return controlError(.notFound, .notFound, "No endpoint at \(request.method) \(request.path).",
                                reason: "the control API is turned off (--no-admin)")
        }
        if let token = options.adminToken {
            let sent = Self.bearerToken(request)
            guard let sent, sent.isSameSecret(as: token) else {
                var r = controlError(.unauthorized, .unauthorized, "The control API needs Authorization: Bearer with the server's admin token.",
                                     reason: sent == nil ? "the control call has no Authorization: Bearer header (the server runs with --admin-token)"
                                         : "the control call's bearer token is not the server's --admin-token")
                r.headers["WWW-Authenticate"] = #"Bearer realm="mockidp""#
                return r
            }
            return nil
        }
        guard request.isLoopback else {
            return controlError(.forbidden, .forbidden, "The control API answers loopback callers only; start the server with --admin-token to allow others.",
                                reason: "the control call came from \(request.remoteAddress.isEmpty ? "an unknown address" : request.remoteAddress), not loopback, and the server has no --admin-token")
        }
        return nil
    }

    /// The control API's answer to a state-changing call that a web page could have sent from another site; nil when it
    /// could not. Without `--admin-token` the API trusts every loopback caller, and a browser on this machine is one: any
    /// page it shows could POST a `text/plain` "simple request" (no CORS preflight) to `https://127.0.0.1:8443/_mockidp/…`
    /// (cross-site request forgery). So a call that changes state must carry its body as `application/json` (which a page
    /// can send cross-site only after a preflight this server never grants), and a browser's `Origin` or
    /// `Sec-Fetch-Site` (Fetch Metadata) must say it came from this server's own origin. Test clients send neither
    /// header. With `--admin-token` the bearer token, which a page cannot attach cross-site, already rules this out.
    func crossSiteRefusal(_ request: HTTPRequest, context: RequestScope) -> HTTPResponse? {
        guard options.adminToken == nil, request.method != "GET", request.method != "HEAD" else { return nil }
        func refuse(_ reason: String) -> HTTPResponse {
            controlError(.forbidden, .forbidden, "The control API refuses calls a web page could send from another site: \(reason).",
                         reason: "a possible cross-site request: \(reason)")
        }
        if let origin = request.headers["Origin"] {
            let own = context.baseURL.hasSuffix("/") ? String(context.baseURL.dropLast()) : context.baseURL
            guard origin.lowercased() == own.lowercased() else {
                return refuse("its Origin header (\(origin)) is not this server's origin (\(own))")
            }
            // DNS rebinding: a page of attacker.example whose name now resolves to 127.0.0.1 is "same origin" by the
            // Host header alone, so a page's origin must also name a host this server is known by.
            let unbracketed = { (name: String) in name.lowercased().filter { $0 != "[" && $0 != "]" } }
            var known: Set<String> = ["localhost", "127.0.0.1", "::1", unbracketed(options.host)]
            known.formUnion(provider.snapshot().configuration.servedHostNames.map(unbracketed))
            if let publicURL = options.publicURL { known.insert(unbracketed(HostHeader.hostName(of: publicURL))) }
            guard known.contains(unbracketed(HostHeader.hostName(of: origin))) else {
                return refuse("its Origin (\(origin)) names a host this server is not known by (DNS rebinding?)")
            }
        }
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            return refuse("its Sec-Fetch-Site header says \(site)")
        }
        if !request.body.isEmpty {
            let field = (request.headers["Content-Type"] ?? "").split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let mediaType = String(field.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
            guard mediaType == "application/json" else {
                return refuse(mediaType.isEmpty ? "its body has no Content-Type (send Content-Type: application/json)"
                              : "its body is \(mediaType), not application/json")
            }
        }
        return nil
    }

    private func control(_ call: ControlCall, _ request: HTTPRequest, _ params: RouteParameters, context: RequestScope) -> HTTPResponse {
        switch call {
        case .addUser, .addApp, .addManagedIdentity, .addGroup:
            return addDirectoryEntry(call, request, tenant: params["tenant"] ?? "")
        case .addClaims:
            switch ExtraClaims.read(request.body) {
            case .failure(let problems): return invalidBody(problems.problems)
            case .success(let extra): return controlJSON(provider.controls.add(extra).json, status: .created)
            }
        case .addFault:
            if SAMLTamperFault.isSAMLTamper(request.body) {
                switch SAMLTamperFault.read(request.body) {
                case .failure(let problems): return invalidBody(problems.problems)
                case .success(let fault): return controlJSON(provider.controls.add(fault).json, status: .created)
                }
            }
            if TamperFault.isTamper(request.body) {
                switch TamperFault.read(request.body) {
                case .failure(let problems): return invalidBody(problems.problems)
                case .success(let fault): return controlJSON(provider.controls.add(fault).json, status: .created)
                }
            }
            switch Fault.read(request.body) {
            case .failure(let problems): return invalidBody(problems.problems)
            case .success(let fault): return controlJSON(provider.controls.add(fault).json, status: .created)
            }
        case .listFaults:
            return controlJSON(.object(["faults": .array(provider.controls.pendingFaults.map(\.json) + provider.controls.pendingTamperFaults.map(\.json)
                                                  + provider.controls.pendingSAMLTamperFaults.map(\.json))]))
        case .rotateKeys:
            let previous = provider.snapshot().signingKeys.first?.keyID
            let key: SigningKey
            do { key = try SigningKey.generate() } catch {
                return controlError(.internalServerError, .serverError, "A new signing key could not be made.",
                                    reason: "generating a signing key failed: \(error)")
            }
            provider.served.rotateSigningKey(to: key)
            var body: JSONObject = ["kid": .string(key.keyID), "keys": .array(provider.snapshot().signingKeys.map { .string($0.keyID) })]
            if let previous { body["previous"] = .string(previous) }
            return controlJSON(.object(body))
        case .retireKeys:
            let retired = provider.served.retireSigningKeys()
            let retiredSAML = provider.samlCertificates.retire()
            return controlJSON(.object(["kid": .string(provider.snapshot().signingKeys.first?.keyID ?? ""),
                                        "retired": .array(retired.map { .string($0) }),
                                        "retiredSamlCertificates": .array(retiredSAML.map { .string($0) })]))
        case .clock:
            var body = ControlBody(request.body, known: ["advance"])
            body.require("advance")
            let seconds = body.integer("advance", in: 0...315_360_000)
            guard body.problems.isEmpty, let seconds else { return invalidBody(body.problems) }
            provider.clock.advance(by: seconds)
            return controlJSON(.object(["now": .int(provider.clock.now()), "offset": .int(provider.clock.offset)]))
        case .requests:
            return controlJSON(requestLog.json)
        case .outbox:
            return controlJSON(.object(["messages": .array(provider.outbox.all.map(\.json))]))
        case .reset:
            provider.reset()
            requestLog.clear()
            return controlJSON(.object(["status": "reset", "now": .int(provider.clock.now())]))
        case .grantConsent:
            return grantConsent(request, context: context)
        case .listConsents:
            return controlJSON(.object(["consents": .array(provider.consents.all.map(\.json))]))
        case .revokeConsents:
            return revokeConsents(request)
        case .inspector:
            return inspectorPage()
        case .inspection:
            return inspection(context: context)
        case .inspectToken:
            return inspectToken(request)
        case .rotateSAMLCertificate:
            return rotateSAMLCertificate(tenant: params["tenant"] ?? "", clientID: params["clientId"] ?? "")
        }
    }

    /// A user, app or group in the configuration's own keys, decoded and validated as the configuration file is.
    private func addDirectoryEntry(_ call: ControlCall, _ request: HTTPRequest, tenant segment: String) -> HTTPResponse {
        guard let tenant = provider.snapshot().configuration.tenants.first(where: { t in
            t.id == segment.lowercased() || t.domains.contains { $0.lowercased() == segment.lowercased() }
        }) else {
            return controlError(.notFound, .tenantNotFound, "No configured tenant has the id or domain '\(segment)'.",
                                reason: "no configured tenant has the id or domain '\(segment)'")
        }
        let text = String(decoding: request.body, as: UTF8.self)
        let what = switch call {
        case .addUser: "user"
        case .addManagedIdentity: "managed identity"
        case .addGroup: "group"
        default: "app"
        }
        do throws(ConfigurationError) {
            if call == .addGroup {
                let group = try ConfigurationLoader.decodeGroup(text: text, fileName: "request body", tenantID: tenant.id,
                                                                joining: provider.snapshot().configuration)
                provider.served.upsertGroup(group, tenant: tenant.id)
                return controlJSON(.object(["tenant": .string(tenant.id), "id": .string(group.id)]), status: .created)
            }
            if call == .addUser {
                let user = try ConfigurationLoader.decodeUser(text: text, fileName: "request body", tenantID: tenant.id,
                                                              joining: provider.snapshot().configuration)
                provider.served.upsertUser(user, tenant: tenant.id)
                return controlJSON(.object(["tenant": .string(tenant.id), "username": .string(user.username),
                                            "oid": .string(user.objectID)]), status: .created)
            }
            if call == .addManagedIdentity {
                let identity = try ConfigurationLoader.decodeManagedIdentity(text: text, fileName: "request body", tenantID: tenant.id,
                                                                            joining: provider.snapshot().configuration)
                provider.served.upsertManagedIdentity(identity, tenant: tenant.id)
                return controlJSON(.object(["tenant": .string(tenant.id), "clientId": .string(identity.clientID),
                                            "objectId": .string(identity.objectID), "resourceId": .string(identity.resourceID),
                                            "systemAssigned": .bool(identity.systemAssigned)]), status: .created)
            }
            let app = try ConfigurationLoader.decodeApp(text: text, fileName: "request body", baseDirectory: ".", tenantID: tenant.id,
                                                        joining: provider.snapshot().configuration)
            provider.served.upsertApp(app, tenant: tenant.id)
            return controlJSON(.object(["tenant": .string(tenant.id), "clientId": .string(app.clientID),
                                        "type": .string(app.type.rawValue)]), status: .created)
        } catch {
            let problems: [JSONValue] = error.problems.map { p in
                .object(["path": .string(p.path), "line": .int(p.line), "reason": .string(p.reason)])
            }
            let summary = error.problems.map { ($0.path.isEmpty ? "" : "\($0.path): ") + $0.reason }.joined(separator: "; ")
            var r = HTTPResponse.json(JSONValue.object([
                "error": .string(OAuthError.Code.invalidRequest.rawValue), "error_description": .string("The \(what) is not valid: \(summary)"),
                "problems": .array(problems),
            ]).serialized(), status: .badRequest)
            r.rejectionReason = "the \(what) in the body is not valid: \(summary)"
            return r
        }
    }

    /// The 400 for a control call whose body has `problems`.
    func invalidBody(_ problems: [String]) -> HTTPResponse {
        var r = HTTPResponse.json(JSONValue.object([
            "error": .string(OAuthError.Code.invalidRequest.rawValue), "error_description": .string(problems.joined(separator: "; ")),
            "problems": .array(problems.map { .string($0) }),
        ]).serialized(), status: .badRequest)
        r.rejectionReason = "the control call's body is not valid: " + problems.joined(separator: "; ")
        return r
    }

    func controlJSON(_ body: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        var r = HTTPResponse.json(body.serialized(), status: status)
        r.headers["Cache-Control"] = "no-store"
        return r
    }

    func controlError(_ status: HTTPStatus, _ error: OAuthError.Code, _ description: String, reason: String) -> HTTPResponse {
        var r = Self.jsonError(status: status, error: error, description: description)
        r.rejectionReason = reason
        return r
    }
}
