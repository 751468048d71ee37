import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The inspector (`GET /_mockidp/`, docs/control-api.md): one HTML page, no external assets, behind the control API's
/// access rule. The page itself holds no data: its script reads `GET /_mockidp/inspection` (tenants, users, apps,
/// authority URLs, SAML apps' URLs, certificates and last Response, keys, sessions), polls `GET /_mockidp/requests` for the request log, and sends pasted tokens to
/// `POST /_mockidp/tokens/inspect`. Everything from the server is set as text (`textContent`), never as markup, so
/// names from configuration or control calls cannot inject HTML.
extension EndpointHandlers {
    /// The page, with a fresh nonce for its one inline script and style (CSP Level 3 nonces): nothing else runs.
    func inspectorPage() -> HTTPResponse {
        let nonce = provider.newSessionID()
        var response = HTTPResponse.html(pages.render("inspector", ["nonce": nonce]))
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Content-Security-Policy"] = "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return response
    }

    /// What the page shows, as JSON; URLs on the base URL the request came to.
    func inspection(context: RequestScope) -> HTTPResponse {
        let directory = provider.snapshot()
        let base = context.baseURL
        let tenants: [JSONValue] = directory.configuration.tenants.map { tenant in
            let users: [JSONValue] = tenant.users.map { user in
                ["username": .string(user.username), "name": user.name.map(JSONValue.string) ?? nil, "oid": .string(user.objectID),
                 "madeOnTheFly": .bool(user.isMadeOnTheFly), "guest": .bool(user.homeTenantID != nil)]
            }
            let apps: [JSONValue] = tenant.apps.map { app in
                ["clientId": .string(app.clientID), "name": .string(app.displayName), "type": .string(app.type.rawValue),
                 "redirectUris": .array(app.redirectURIs.map(JSONValue.string)),
                 "identifierUris": .array(app.identifierURIs.map(JSONValue.string)), "scopes": .array(app.scopes.map(JSONValue.string)),
                 "saml": app.saml == nil ? nil : provider.saml.inspection(of: app, in: tenant, context: context)]
            }
            let identities: [JSONValue] = tenant.managedIdentities.map { identity in
                ["clientId": .string(identity.clientID), "objectId": .string(identity.objectID),
                 "resourceId": .string(identity.resourceID), "systemAssigned": .bool(identity.systemAssigned)]
            }
            let groups: [JSONValue] = tenant.groups.map { group in
                ["id": .string(group.id), "name": group.displayName.map(JSONValue.string) ?? nil,
                 "securityEnabled": .bool(group.securityEnabled), "mail": group.mail.map(JSONValue.string) ?? nil]
            }
            return ["id": .string(tenant.id), "name": .string(tenant.displayName), "domains": .array(tenant.domains.map(JSONValue.string)),
                    "cloud": .string(tenant.cloud.rawValue), "anyUser": .bool(tenant.signIn.anyUser),
                    "externalId": .bool(tenant.externalID != nil),
                    "authorities": .array(authorities(of: tenant, base: base)), "users": .array(users), "apps": .array(apps),
                    "managedIdentities": .array(identities), "groups": .array(groups)]
        }
        let keys: [JSONValue] = directory.signingKeys.enumerated().map { index, key in
            ["kid": .string(key.keyID), "notAfter": .int(key.certificate.notAfter), "signing": .bool(index == 0)]
        }
        let sessions: [JSONValue] = provider.sessions.live().map { accounts in
            .array(accounts.map { ["username": .string($0.username), "tenant": .string($0.tenantID), "authTime": .int($0.authTime)] })
        }
        return controlJSON(["baseUrl": .string(base), "now": .int(provider.clock.now()), "tenants": .array(tenants),
                            "keys": .array(keys), "sessions": .array(sessions), "consents": .array(provider.consents.all.map(\.json)),
                            "outbox": .array(provider.outbox.all.map(\.json))])
    }

    /// Every authority form a client may use for `tenant`, each a labelled URL from the endpoint tables.
    private func authorities(of tenant: Tenant, base: String) -> [JSONValue] {
        func row(_ label: String, _ url: String) -> JSONValue { ["label": .string(label), "url": .string(url)] }
        var rows: [JSONValue] = []
        let discovery = EndpointTable.url(.v2Discovery, baseURL: base, tenant: tenant.id)
        let authority = String(discovery.prefix(upTo: discovery.range(of: "/v2.0/")?.lowerBound ?? discovery.endIndex))
        rows.append(row("authority (MSAL, azure-identity)", authority))
        for domain in tenant.domains { rows.append(row("authority by domain", base + "/" + domain)) }
        rows.append(row("v2 discovery", discovery))
        rows.append(row("v2 token", EndpointTable.url(.v2Token, baseURL: base, tenant: tenant.id)))
        rows.append(row("v1 discovery (ADAL)", EndpointTable.url(.v1Discovery, baseURL: base, tenant: tenant.id)))
        rows.append(row("v1 token (ADAL)", EndpointTable.url(.v1Token, baseURL: base, tenant: tenant.id)))
        rows.append(row("keys", EndpointTable.url(.v2Keys, baseURL: base, tenant: tenant.id)))
        for policy in tenant.b2c?.policies ?? [] {
            rows.append(row("B2C \(policy)", B2CEndpointTable.tfpAuthority(baseURL: base, tenant: tenant.primaryDomain, policy: policy)))
        }
        if let externalID = tenant.externalID {
            for host in externalID.ciamloginHosts(tenantID: tenant.id) + externalID.customDomains {
                rows.append(row("External ID at \(host) (when that name reaches this server)", "https://\(host)/\(tenant.id)"))
            }
        }
        if tenant.cloud != .public {
            let host = Cloud.named(tenant.cloud).preferredNetworkHost
            rows.append(row("\(tenant.cloud.rawValue) cloud host (when that name reaches this server)", "https://\(host)/\(tenant.id)"))
        }
        return rows
    }

    /// A pasted token taken apart, its signature checked against this server's keys.
    func inspectToken(_ request: HTTPRequest) -> HTTPResponse {
        var body = ControlBody(request.body, known: ["token"])
        body.require("token")
        let token = body.string("token")
        guard body.problems.isEmpty, let token else { return invalidBody(body.problems) }
        return controlJSON(provider.inspector.inspect(token))
    }
}
