import MockIDPCore
import MockIDPJOSE
import Testing

/// The error catalog: each error carries Entra's words and, where B2C has its own, B2C's; the dialect picks.
@Suite struct ErrorCatalogTests {
    let atPolicy = ErrorDialect.b2c(tenant: "fabrikamb2c.onmicrosoft.com", clientID: "5f9b7d3e-1111-4c2a-9d3e-000000000001")

    @Test("Entra's words at Entra's endpoints, B2C's at a user flow")
    func dialectPicksTheWords() {
        let error = OAuthError.missingParameter("client_id")
        #expect(error.wording(in: .entra) == ErrorWording(
            error: .invalidRequest, code: .aadsts(900144),
            message: "The request body must contain the following parameter: 'client_id'."))
        #expect(error.wording(in: atPolicy) == ErrorWording(
            error: .invalidRequest, code: .b2c("AADB2C90008"), message: "The request does not contain a client ID parameter."))
        #expect(OAuthError.missingParameter("code").wording(in: atPolicy).codeAndMessage
            == "AADB2C90083: The request is missing required parameter: code.")
    }

    @Test("B2C's texts name the tenant as the request wrote it and the request's client")
    func slotsAreFilledFromTheRequest() {
        let unknown = OAuthError.unknownClient("0000aaaa-0000-0000-0000-000000000000", tenant: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11")
        #expect(unknown.wording(in: .entra).message.contains("directory '6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11'"))
        #expect(unknown.wording(in: atPolicy).message
            == "The client ID '0000aaaa-0000-0000-0000-000000000000' specified in the request is not registered in tenant 'fabrikamb2c.onmicrosoft.com'.")
        #expect(OAuthError.codeIssuedToAnotherClient().wording(in: atPolicy).message
            == "The provided client ID '5f9b7d3e-1111-4c2a-9d3e-000000000001' does not match the client ID that issued the grant.")
        // A value the client sent is text, never a slot, even when it looks like one.
        #expect(OAuthError.invalidScope("\\(.tenant){tenant}").wording(in: atPolicy).message
            == "The scope '\\(.tenant){tenant}' provided in the request is not supported.")
    }

    @Test("B2C's own errors read as B2C's wherever they arise; errors B2C has no words for stay Entra's")
    func b2cOnlyAndEntraOnly() {
        let policy = OAuthError.forgotPassword()
        #expect(policy.wording(in: .entra).code == .b2c("AADB2C90118"))
        #expect(policy.wording(in: .entra) == policy.wording(in: atPolicy))
        // A policy the tenant does not have is no OAuth error at all: B2C's web server answers its 404 page.
        let missing = OAuthError.policyNotFound("B2C_1_nope", tenant: "fabrikamb2c.onmicrosoft.com")
        #expect(missing.isMissingResource && missing.status == 404 && OAuthError.policyRequired(tenant: "fabrikamb2c.onmicrosoft.com").isMissingResource)
        #expect(!OAuthError.notB2CTenant("contoso.com", policy: "B2C_1_x").isMissingResource)
        let instance = OAuthError.unknownInstance()
        #expect(instance.wording(in: atPolicy) == instance.wording(in: .entra))
        #expect(instance.wording(in: atPolicy).code == .aadsts(50049))
    }

    @Test("the rendered forms: Entra's JSON carries codes and IDs, B2C's only error and description")
    func reportForms() {
        let error = OAuthError.codeExpired()
        let entra = ErrorReport(error, dialect: .entra, traceID: "t", correlationID: "c", timestamp: "2026-01-01 00:00:00Z").jsonBody
        #expect(entra["error_codes"] == [70008])
        #expect(entra["trace_id"] == "t")
        let b2c = ErrorReport(error, dialect: atPolicy, traceID: "t", correlationID: "c", timestamp: "2026-01-01 00:00:00Z").jsonBody
        #expect(b2c == ["error": "invalid_grant",
                        "error_description": "AADB2C90080: The provided grant has expired. Please re-authenticate and try again.\r\nCorrelation ID: c\r\nTimestamp: 2026-01-01 00:00:00Z\r\n"])
    }

    @Test("an injected fault reads in B2C's words for its number, its own B2C code, or B2C's form without a code")
    func faultsAtAPolicy() {
        var fault = Fault(endpoint: "token")
        fault.aadsts = 70008
        #expect(fault.oauthError().wording(in: atPolicy).code == .b2c("AADB2C90080"))
        #expect(fault.oauthError().wording(in: .entra).code == .aadsts(70008))
        fault.b2cCode = "AADB2C90118"
        #expect(fault.oauthError().wording(in: atPolicy).code == .b2c("AADB2C90118"))
        var plain = Fault(endpoint: "token")
        plain.status = 503
        #expect(plain.oauthError().wording(in: atPolicy).code == .b2c(""))
        #expect(plain.oauthError().wording(in: .entra).code == ErrorWording.Code.none)
        var mfa = Fault(endpoint: "token")
        mfa.aadsts = 50076
        #expect(mfa.oauthError().wording(in: atPolicy).code == .aadsts(50076))
    }

    @Test("every number the catalog maps for faults has a B2C code", arguments: [
        900144, 50011, 700016, 70011, 28000, 700054, 70007, 70003, 7000215, 7000218, 700025, 9002325, 501481, 501491,
        70008, 700082, 54005, 9002313, 50173, 70000, 50058,
    ])
    func faultNumbers(number: Int) throws {
        let wording = try #require(OAuthError.b2cWording(forAADSTS: number))
        #expect(wording.code.hasPrefix("AADB2C"))
    }
}
