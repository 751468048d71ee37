import Foundation
@testable import MockIDPCore
import MockIDPJOSE
import Testing

/// The claims structs list their members to a `ClaimsWriter` themselves: every stored member must be in the list,
/// and the token path's bytes must be what any `Encoder` makes of the same struct.
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

    private func check(_ claims: some WritableClaims) throws {
        let written = try ClaimsEncoder.encode(writable: claims)
        guard case .object(let object)? = try? JSONValue.parse(written) else {
            Issue.record("not a JSON object: \(String(decoding: written, as: UTF8.self))")
            return
        }
        // Every stored member is listed (all of them are set here), each once.
        #expect(object.count == Mirror(reflecting: claims).children.count)
        // Any Encoder sees the same members in the same order: the generic encoder's bytes are the writer's.
        #expect(try ClaimsEncoder.encode(claims) == written)
        let decoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(claims)) as? [String: Any]
        #expect(decoded.map { Set($0.keys) } == Set(object.keys))
    }

    @Test("each claims struct writes every member it stores, and encodes alike through any Encoder")
    func everyMemberWritten() throws {
        try check(Self.v2Access)
        try check(Self.v1Access)
        try check(Self.v2ID)
        try check(Self.v1ID)
        try check(Self.b2c)
    }

    @Test("nil members are left out, and overrides replace members in place with the rest after, as the generic encoder does")
    func nilsAndOverrides() throws {
        var claims = Self.v2Access
        claims.groups = nil
        claims.email = nil
        let overriding: JSONObject = ["zz": "last", "email": "late@x", "iss": 7, "roles": ["r2"]]
        let written = try ClaimsEncoder.encode(writable: claims, overriding: overriding)
        #expect(written == (try ClaimsEncoder.encode(claims, overriding: overriding)))
        let text = String(decoding: written, as: UTF8.self)
        #expect(!text.contains("\"groups\""))
        #expect(text.hasPrefix(#"{"aud":"api","iss":7,"iat":1,"#))
        #expect(text.hasSuffix(#","acrs":["c1"],"zz":"last","email":"late@x"}"#))
    }
}
