import MockIDPJOSE
import MockIDPTesting
import Testing

/// The JSON bodies `MockApp` and `MockUser` send: keyed as the configuration file spells each key, in a fixed
/// order, unset fields left out.
@Suite struct MockEntryBodyTests {
    @Test("a user with every field set sends each under its configuration key, in table order")
    func fullUser() {
        let user = MockUser(username: "erin@contoso.com", password: "p", name: "Erin", objectID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d",
                            email: "erin@contoso.com", groups: ["1a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d"], roles: ["Admin"],
                            claims: ["department": "Legal"], requireMFA: false, homeTenant: "2a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d",
                            photo: "photos/erin.png", profile: ["jobTitle": "Counsel"])
        #expect(user.json.objectValue?.keys == ["username", "password", "name", "oid", "email", "groups", "photo", "profile", "roles",
                                                "claims", "requireMfa", "homeTenant"])
        #expect(user.json["profile"] == ["jobTitle": "Counsel"] && user.json["photo"] == "photos/erin.png")
        #expect(user.json["oid"] == "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d")
        #expect(user.json["groups"] == ["1a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d"])
        #expect(user.json["claims"] == ["department": "Legal"])
        #expect(user.json["requireMfa"] == false)
    }

    @Test("a group sends its fields under their configuration keys, unset ones left out")
    func group() {
        #expect(MockGroup(id: "1a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d", displayName: "Sales", securityEnabled: false, mail: "s@contoso.com").json
                == ["id": "1a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d", "displayName": "Sales", "securityEnabled": false, "mail": "s@contoso.com"])
        #expect(MockGroup(id: "1a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d").json == ["id": "1a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d"])
    }

    @Test("a user with only the required fields sends only those")
    func minimalUser() {
        #expect(MockUser(username: "a@contoso.com", password: "p").json == ["username": "a@contoso.com", "password": "p"])
    }

    @Test("an app sends its fields under their configuration keys, apiPermissions as a mapping, settings last")
    func app() {
        let app = MockApp(clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d", name: "Web", type: "spa", secret: nil,
                          certificates: ["certs/app.pem"], redirectURIs: ["https://app/cb"], identifierURIs: ["api://web"],
                          scopes: ["read"], appRoles: ["Reader"], apiPermissions: [(api: "api://x", values: ["read"]), (api: "g", values: [])],
                          accessTokenVersion: 2, multiTenant: true, settings: ["requirePkce": true, "name": "Renamed"])
        #expect(app.json.objectValue?.keys == ["clientId", "name", "type", "certificates", "redirectUris", "identifierUris", "scopes",
                                               "appRoles", "apiPermissions", "accessTokenVersion", "multiTenant", "requirePkce"])
        #expect(app.json["name"] == "Renamed")
        #expect(app.json["apiPermissions"] == ["api://x": ["read"], "g": []])
        #expect(app.json["accessTokenVersion"] == 2 && app.json["multiTenant"] == true && app.json["type"] == "spa")
        #expect(MockApp(clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d").json == ["clientId": "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d"])
        let claims = MockApp(clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d",
                             optionalClaims: MockOptionalClaims(idToken: [.email, .ipAddress], accessToken: [.userPrincipalName]))
        #expect(claims.json["optionalClaims"] == ["idToken": ["email", "ipaddr"], "accessToken": ["upn"]])
        #expect(MockApp(clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d",
                        optionalClaims: MockOptionalClaims(accessToken: [.sessionID])).json["optionalClaims"] == ["accessToken": ["sid"]])
    }
}
