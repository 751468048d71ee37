import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The control API's consents (docs/control-api.md): record one as the consent page would, list them, revoke them.
extension EndpointHandlers {
    /// `POST /_mockidp/consents` `{"username", "clientId", "scope", "tenant"?}`: 201 with the user's grants for the app.
    func grantConsent(_ request: HTTPRequest, context: RequestScope) -> HTTPResponse {
        var body = ControlBody(request.body, known: ["username", "clientId", "scope", "tenant"])
        for key in ["username", "clientId", "scope"] { body.require(key) }
        let username = body.string("username"), clientID = body.string("clientId"), scope = body.string("scope")
        let tenant = body.string("tenant")
        guard body.problems.isEmpty, let username, let clientID, let scope else { return invalidBody(body.problems) }
        switch provider.consentPolicy.grantConsent(username: username, clientID: clientID, scope: scope, tenant: tenant, context: context) {
        case .failure(let refusal): return invalidBody([refusal.reason])
        case .success(let grants): return controlJSON(.object(["consents": .array(grants.map(\.json))]), status: .created)
        }
    }

    /// `DELETE /_mockidp/consents` with an optional `{"username", "clientId"}` narrowing it: `{"revoked": n}`.
    func revokeConsents(_ request: HTTPRequest) -> HTTPResponse {
        var body = ControlBody(request.body, known: ["username", "clientId"])
        let username = body.string("username"), clientID = body.string("clientId")
        guard body.problems.isEmpty else { return invalidBody(body.problems) }
        return controlJSON(.object(["revoked": .int(provider.consents.revoke(username: username, clientID: clientID))]))
    }
}

extension ConsentGrant {
    /// A grant as the control API and the inspector show it (Graph's `oAuth2PermissionGrant` names, plus the user's).
    var json: JSONValue {
        .object(["tenantId": .string(tenantID), "principalId": .string(userObjectID), "username": .string(username),
                 "clientId": .string(clientID), "resourceId": .string(resourceID), "scope": .string(scopes.joined(separator: " "))])
    }
}
