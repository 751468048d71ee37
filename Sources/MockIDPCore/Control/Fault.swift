import MockIDPJOSE

/// A failure (or a delay) the next matching requests meet, registered through `POST /_mockidp/faults`.
///
/// A fault that has only `delayMilliseconds` lets the request through and delays its real answer; any other fault
/// answers with Entra's error for `aadsts`/`error`/`status` (after the delay, when one is given).
package struct Fault: Sendable, Equatable {
    /// The endpoint names a fault can name (`Endpoint.controlName`).
    package static let endpointNames: [String] = ["token", "authorize", "devicecode", "discovery", "keys", "userinfo",
                                                 "logout", "instance", "userrealm", "devicelogin", ManagedIdentityHost.controlName]

    /// Assigned when the fault is registered; shown in the control API's answer.
    package var id: Int = 0
    /// One of `endpointNames`.
    package var endpoint: String
    /// Only requests from this client (`client_id`, or HTTP Basic).
    package var clientID: String?
    /// Only requests to this tenant segment (GUID or domain; compared as the tenant they name).
    package var tenant: String?
    /// Only token requests with this `grant_type`.
    package var grantType: String?
    /// How many requests still fail; nil fails every matching request until `reset`.
    package var remaining: Int?
    /// The HTTP status (default: the code's usual one, else 400).
    package var status: Int?
    /// The OAuth `error` (default: the code's usual one, else from the status).
    package var error: OAuthError.Code?
    /// The AADSTS number.
    package var aadsts: Int?
    /// B2C's code (`AADB2C90118`) for the fault met at a B2C policy's endpoints (ignored at Entra's).
    package var b2cCode: String?
    /// Entra's `suberror`.
    package var suberror: OAuthError.Suberror?
    /// A claims challenge (a JSON object as a string); AADSTS50076, 50079 and 53003 get a default one.
    package var claims: String?
    /// Seconds for `Retry-After` (429 and 503 get 1 when not given).
    package var retryAfter: Int?
    /// Milliseconds to wait before answering.
    package var delayMilliseconds: Int?
    /// The message after `AADSTSnnnn: ` (default: Entra's text for the code).
    package var message: String?

    /// A fault on `endpoint` with every other field unset.
    package init(endpoint: String) { self.endpoint = endpoint }

    /// True when the fault only delays the real answer.
    package var isDelayOnly: Bool { status == nil && error == nil && aadsts == nil && delayMilliseconds != nil }

    /// The challenge a request must answer to get past this fault, if any.
    package var challenge: String? {
        if let claims { return claims }
        switch aadsts {
        case 50076, 50079: return Self.multiFactorChallenge
        case 53003: return Self.conditionalAccessChallenge
        default: return nil
        }
    }

    /// mockidp's default MFA challenge: the authentication context `c1`.
    package static let multiFactorChallenge = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
    /// mockidp's default Conditional Access challenge (the shape of the example in
    /// docs/entra-behaviour.md, "Error responses").
    package static let conditionalAccessChallenge =
        #"{"access_token":{"capolids":{"essential":true,"values":["01234567-89ab-cdef-fedc-ba9876543210"]}}}"#

    /// The status this fault answers with.
    package var effectiveStatus: Int {
        if let status { return status }
        if let aadsts, let known = Self.knownCodes[aadsts] { return known.status }
        return 400
    }

    /// Seconds for `Retry-After`, when the answer carries one.
    package var effectiveRetryAfter: Int? {
        retryAfter ?? ([429, 503].contains(effectiveStatus) ? 1 : nil)
    }

    /// Entra's usual `error`, status and text for codes tests commonly inject
    /// (docs/entra-behaviour.md, "AADSTS codes").
    static let knownCodes: [Int: (error: OAuthError.Code, status: Int, suberror: OAuthError.Suberror?, message: String)] = [
        50076: (.invalidGrant, 400, .basicAction, "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '{resource}'."),
        50079: (.invalidGrant, 400, .basicAction, "Due to a configuration change made by your administrator, or because you moved to a new location, you must enroll in multi-factor authentication to access '{resource}'."),
        53003: (.invalidGrant, 400, .messageOnly, "Access has been blocked by Conditional Access policies. The access policy does not allow token issuance."),
        50126: (.invalidGrant, 400, nil, "Error validating credentials due to invalid username or password."),
        50055: (.invalidGrant, 400, .userPasswordExpired, "The password is expired."),
        50057: (.invalidGrant, 400, nil, "The user account is disabled."),
        50053: (.invalidGrant, 400, nil, "Account is locked because user tried to sign in too many times with an incorrect user ID or password."),
        70008: (.invalidGrant, 400, nil, "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource."),
        700082: (.invalidGrant, 400, .badToken, "The refresh token has expired due to inactivity."),
        50173: (.invalidGrant, 400, nil, "The provided grant has expired due to it being revoked, a fresh auth token is needed."),
        65001: (.invalidGrant, 400, .consentRequired, "The user or administrator has not consented to use the application. Send an interactive authorization request for this user and resource."),
        50196: (.temporarilyUnavailable, 429, nil, "The server terminated an operation because it encountered a client request loop."),
        7000215: (.invalidClient, 401, nil, "Invalid client secret provided."),
    ]

    /// The error this fault answers with; `resource` fills `{resource}` in Entra's texts. At a B2C policy it reads in
    /// B2C's form (`AADB2Cnnnnn: …` and correlation ID, no `error_codes`): `b2cCode` when given, else B2C's words for
    /// `aadsts` where the catalog has them; an `aadsts` B2C has no words for keeps Entra's form (as B2C's other
    /// errors do), and a fault with neither is B2C's form without a code.
    package func oauthError(resource: String = "00000003-0000-0000-c000-000000000000") -> OAuthError {
        let known = aadsts.flatMap { Self.knownCodes[$0] }
        let status = effectiveStatus
        let error = self.error ?? known?.error ?? Self.error(forStatus: status)
        let text = message ?? known?.message.replacingOccurrences(of: "{resource}", with: resource)
            ?? "A fault was injected for this request (POST /_mockidp/faults)."
        let b2c: B2CWording? = if let b2cCode { B2CWording(code: b2cCode, message: "\(text)") }
            else if let aadsts { OAuthError.b2cWording(forAADSTS: aadsts) }
            else { B2CWording(code: "", message: "\(text)") }
        return OAuthError(code: error, aadsts: aadsts, message: text, b2c: b2c, suberror: suberror ?? known?.suberror,
                          claims: challenge, status: status, mayRedirect: true,
                          reason: "injected fault \(id) on '\(endpoint)' answered \(status) \(error.rawValue)" + (aadsts.map { " AADSTS\($0)" } ?? "")
                            + (b2cCode.map { " (\($0) at a B2C policy)" } ?? ""))
    }

    private static func error(forStatus status: Int) -> OAuthError.Code {
        switch status {
        case 401: .invalidClient
        case 429, 503: .temporarilyUnavailable
        case 500...: .serverError
        default: .invalidRequest
        }
    }
}

/// What a fault is matched against: the endpoint and what the request says about itself.
package struct FaultTarget: Sendable {
    /// `Endpoint.controlName` of the endpoint the request reached.
    package var endpoint: String
    package var clientID: String?
    package var tenant: String?
    package var grantType: String?
    /// The request's `claims` parameter, when it has one: a fault's challenge it answers lets it through.
    package var claims: ClaimsRequest?

    /// A target for the named endpoint.
    package init(endpoint: String, clientID: String? = nil, tenant: String? = nil, grantType: String? = nil, claims: ClaimsRequest? = nil) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.tenant = tenant
        self.grantType = grantType
        self.claims = claims
    }
}

extension Endpoint {
    /// The name faults use for this endpoint (`Fault.endpointNames`); nil for the health check, which never fails.
    package var controlName: String? {
        switch self {
        case .v2Token, .v1Token: "token"
        case .v2Authorize, .v1Authorize: "authorize"
        case .v2DeviceCode, .v1DeviceCode: "devicecode"
        case .v2Discovery, .v1Discovery: "discovery"
        case .v2Keys, .v1Keys: "keys"
        case .userInfo, .v1UserInfo: "userinfo"
        case .v2Logout, .v1Logout: "logout"
        case .instanceDiscovery: "instance"
        case .userRealm: "userrealm"
        case .deviceLogin: "devicelogin"
        case .federationMetadata, .saml2, .wsfed, .health, .v1CheckSession, .kerberos: nil
        case .nativeSignInInitiate, .nativeSignInChallenge, .nativeSignInIntrospect, .nativeSignUpStart, .nativeSignUpChallenge,
             .nativeSignUpContinue, .nativeResetPasswordStart, .nativeResetPasswordChallenge, .nativeResetPasswordContinue,
             .nativeResetPasswordSubmit, .nativeResetPasswordPollCompletion, .nativeRegisterIntrospect, .nativeRegisterChallenge,
             .nativeRegisterContinue: nil
        }
    }
}
