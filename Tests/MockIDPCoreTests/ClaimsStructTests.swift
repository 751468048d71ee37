@testable import MockIDPCore
import MockIDPJOSE
import Testing

/// The claims structs list their members to a `ClaimsWriter` themselves: every stored member must be in the list,
/// under its wire name, in Entra's order; the bytes below are the tokens' payloads, member for member.
@Suite struct ClaimsStructTests {
    static let v2Access = V2AccessTokenClaims(
        audience: "api", issuer: "iss", issuedAt: 1, notBefore: 2, expires: 3, aio: "aio", authorizedParty: "azp",
        authorizedPartyAuthentication: "1", groups: ["g1", "g2"], identityProvider: "idp", email: "e@x", identityType: "app",
        name: "N", objectID: "oid", preferredUsername: "pu", refreshHint: "rh", roles: ["r"], scope: "s", subject: "sub",
        tenantID: "tid", tokenIdentifier: "uti", managedIdentityResourceID: "/sub/x", authenticationMethods: ["pwd", "mfa"],
        authenticationContexts: ["c1"])
    static let v1Access = V1AccessTokenClaims(
        audience: "api", issuer: "iss", issuedAt: 1, notBefore: 2, expires: 3, authenticationContextClass: "1", aio: "aio",
        authenticationMethods: ["pwd"], appID: "app", appIDAuthentication: "0", familyName: "F", givenName: "G",
        groups: ["g"], identityProvider: "idp", email: "e@x", identityType: "user", name: "N", objectID: "oid",
        refreshHint: "rh", roles: ["r"], scope: "s", subject: "sub", tenantID: "tid", uniqueName: "un",
        userPrincipalName: "upn", tokenIdentifier: "uti", managedIdentityResourceID: "/sub/x", authenticationContexts: ["c1"])
    static let v2ID = V2IDTokenClaims(
        audience: "app", issuer: "iss", issuedAt: 1, notBefore: 2, expires: 3, authTime: 0, aio: "aio", nonce: "n",
        codeHash: "c", accessTokenHash: "a", identityProvider: "idp", email: "e@x", groups: ["g"], name: "N",
        objectID: "oid", preferredUsername: "pu", refreshHint: "rh", roles: ["r"], subject: "sub", tenantID: "tid",
        tokenIdentifier: "uti", authenticationMethods: ["pwd"], authenticationContexts: ["c1"])
    static let v1ID = V1IDTokenClaims(
        audience: "app", issuer: "iss", issuedAt: 1, notBefore: 2, expires: 3, authTime: 0, authenticationMethods: ["pwd"],
        aio: "aio", nonce: "n", codeHash: "c", accessTokenHash: "a", identityProvider: "idp", email: "e@x",
        familyName: "F", givenName: "G", name: "N", groups: ["g"], objectID: "oid", refreshHint: "rh", roles: ["r"],
        subject: "sub", tenantID: "tid", uniqueName: "un", userPrincipalName: "upn", tokenIdentifier: "uti",
        authenticationContexts: ["c1"])
    static let b2c = B2CTokenClaims(
        expires: 3, notBefore: 2, issuer: "iss", subject: "sub", audience: "app", nonce: "n", issuedAt: 1, authTime: 0,
        objectID: "oid", name: "N", givenName: "G", familyName: "F", emails: ["e@x"], newUser: true,
        trustFrameworkPolicy: "B2C_1_susi", policyAsACR: "b2c_1_susi", codeHash: "c", accessTokenHash: "a", scope: "s",
        authorizedParty: "azp", tenantID: "tid")

    private func text(_ claims: some WritableClaims, overriding: JSONObject = JSONObject()) -> String {
        String(decoding: ClaimsWriter.json(of: claims, overriding: overriding), as: UTF8.self)
    }

    @Test("each claims struct writes every member it stores, each once")
    func everyMemberWritten() throws {
        for claims in [Self.v2Access, Self.v1Access, Self.v2ID, Self.v1ID, Self.b2c] as [any WritableClaims] {
            let written = ClaimsWriter.json(of: claims)
            guard case .object(let object)? = try? JSONValue.parse(written) else {
                Issue.record("not a JSON object: \(String(decoding: written, as: UTF8.self))")
                continue
            }
            // All members are set here: each stored member is listed, each under a name of its own.
            #expect(object.count == Mirror(reflecting: claims).children.count, "\(type(of: claims))")
        }
    }

    // The exact bytes of each kind of token's claims: member order and formatting are part of what clients see.
    @Test("a v2 access token's members, in order")
    func v2AccessOrder() {
        #expect(text(Self.v2Access) == #"{"aud":"api","iss":"iss","iat":1,"nbf":2,"exp":3,"aio":"aio","azp":"azp","azpacr":"1","groups":["g1","g2"],"idp":"idp","email":"e@x","idtyp":"app","name":"N","oid":"oid","preferred_username":"pu","rh":"rh","roles":["r"],"scp":"s","sub":"sub","tid":"tid","uti":"uti","ver":"2.0","xms_mirid":"/sub/x","amr":["pwd","mfa"],"acrs":["c1"]}"#)
    }

    @Test("a v1 access token's members, in order")
    func v1AccessOrder() {
        #expect(text(Self.v1Access) == #"{"aud":"api","iss":"iss","iat":1,"nbf":2,"exp":3,"acr":"1","aio":"aio","amr":["pwd"],"appid":"app","appidacr":"0","family_name":"F","given_name":"G","groups":["g"],"idp":"idp","email":"e@x","idtyp":"user","name":"N","oid":"oid","rh":"rh","roles":["r"],"scp":"s","sub":"sub","tid":"tid","unique_name":"un","upn":"upn","uti":"uti","ver":"1.0","xms_mirid":"/sub/x","acrs":["c1"]}"#)
    }

    @Test("a v2 ID token's members, in order")
    func v2IDOrder() {
        #expect(text(Self.v2ID) == #"{"aud":"app","iss":"iss","iat":1,"nbf":2,"exp":3,"auth_time":0,"aio":"aio","nonce":"n","c_hash":"c","at_hash":"a","idp":"idp","email":"e@x","groups":["g"],"name":"N","oid":"oid","preferred_username":"pu","rh":"rh","roles":["r"],"sub":"sub","tid":"tid","uti":"uti","ver":"2.0","amr":["pwd"],"acrs":["c1"]}"#)
    }

    @Test("a v1 ID token's members, in order")
    func v1IDOrder() {
        #expect(text(Self.v1ID) == #"{"aud":"app","iss":"iss","iat":1,"nbf":2,"exp":3,"auth_time":0,"amr":["pwd"],"aio":"aio","nonce":"n","c_hash":"c","at_hash":"a","idp":"idp","email":"e@x","family_name":"F","given_name":"G","name":"N","groups":["g"],"oid":"oid","rh":"rh","roles":["r"],"sub":"sub","tid":"tid","unique_name":"un","upn":"upn","uti":"uti","ver":"1.0","acrs":["c1"]}"#)
    }

    @Test("a B2C token's members, in order")
    func b2cOrder() {
        #expect(text(Self.b2c) == #"{"exp":3,"nbf":2,"ver":"1.0","iss":"iss","sub":"sub","aud":"app","nonce":"n","iat":1,"auth_time":0,"oid":"oid","name":"N","given_name":"G","family_name":"F","emails":["e@x"],"newUser":true,"tfp":"B2C_1_susi","acr":"b2c_1_susi","c_hash":"c","at_hash":"a","scp":"s","azp":"azp","tid":"tid"}"#)
    }

    @Test("nil members are left out, and overrides replace members in place with the rest after, as a JSONObject merge does")
    func nilsAndOverrides() throws {
        var claims = Self.v2Access
        claims.groups = nil
        claims.email = nil
        let overriding: JSONObject = ["zz": "last", "email": "late@x", "iss": 7, "roles": ["r2"]]
        let written = text(claims, overriding: overriding)
        guard case .object(var expected) = try JSONValue.parse(ClaimsWriter.json(of: claims)) else {
            Issue.record("not a JSON object")
            return
        }
        expected.merge(overriding)
        #expect(written == JSONValue.object(expected).jsonString)
        #expect(!written.contains("\"groups\""))
        #expect(written.hasPrefix(#"{"aud":"api","iss":7,"iat":1,"#))
        #expect(written.hasSuffix(#","acrs":["c1"],"zz":"last","email":"late@x"}"#))
    }
}
