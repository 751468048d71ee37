// Entra's errors for SAML 2.0 enterprise apps (docs/saml.md, "Refusals"), as the error page shows them. 700016 and
// 50011 word as Entra's OpenID Connect ones; 750054 as Entra answers a redirect without a message (scaler-tech/laravel-saml2
// issue 114); 75005 is what Entra answers a request it cannot take, an ID that starts with a digit included
// (https://github.com/dexidp/dex/pull/985), worded here with what was wrong.
extension OAuthError {
    /// AADSTS700016: no app of the tenant has the request's `Issuer` among its identifier URIs.
    package static func samlUnknownIssuer(_ issuer: String, tenant: String) -> OAuthError {
        OAuthError(code: .unauthorizedClient, aadsts: 700016,
                   message: "Application with identifier '\(issuer)' was not found in the directory '\(tenant)'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.",
                   reason: "no SAML app of tenant '\(tenant)' has '\(issuer)' among its identifierUris")
    }

    /// AADSTS700016 for `?appid=`: the tenant has no SAML app with this client ID.
    package static func samlUnknownApp(_ clientID: String, tenant: String) -> OAuthError {
        var error = unknownClient(clientID, tenant: tenant)
        error.reason = "tenant '\(tenant)' has no SAML app with client id '\(clientID)' (an app needs saml: in its configuration)"
        return error
    }

    /// AADSTS50011: the request's `AssertionConsumerServiceURL` (WS-Federation's `wreply`) is not one of the app's reply
    /// URLs.
    package static func samlUnregisteredReplyURL(_ url: String, issuer: String, parameter: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 50011,
                   message: "The reply URL '\(url)' specified in the request does not match the reply URLs configured for the application: '\(issuer)'. Make sure the reply URL sent in the request matches one added to your application in the Azure portal.",
                   reason: "the \(parameter) '\(url)' is not among the redirectUris of the SAML app '\(issuer)'")
    }

    /// AADSTS750054: no SAML message where one must be.
    package static func samlMessageMissing() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 750054,
                   message: "SAMLRequest or SAMLResponse must be present as query string parameters in HTTP request for SAML Redirect binding.",
                   reason: "the request has no SAMLRequest (and no appid for IdP-initiated sign-on)")
    }

    /// AADSTS75005: the message could not be read (base64, DEFLATE, XML, or its bounds).
    package static func samlMessageUnreadable(_ why: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 75005,
                   message: "The request is not a valid Saml2 protocol message: \(why).",
                   reason: "the SAML request could not be read: \(why)")
    }

    /// AADSTS75005: the message is XML but no SAML request Entra takes.
    package static func samlNotARequest(_ what: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 75005,
                   message: "The request is not a valid Saml2 protocol message.",
                   reason: "the message is \(what), not a SAML 2.0 AuthnRequest or LogoutRequest")
    }

    /// AADSTS75005: the request's `ID` starts with a digit (an XML ID may not).
    package static func samlBadRequestID(_ id: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 75005,
                   message: "The request is not a valid Saml2 protocol message: its ID '\(id)' must not begin with a number.",
                   reason: "the request ID '\(id)' is empty or starts with a digit")
    }

    /// AADSTS75005: the request carries a `Subject`, which Entra does not take (`login_hint` instead).
    package static func samlSubjectNotSupported() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 75005,
                   message: "The request is not a valid Saml2 protocol message: a Subject is not supported; use the login_hint query parameter instead.",
                   reason: "the AuthnRequest has a Subject element")
    }

    /// An unsigned or badly signed request when the app requires signed requests (the code Entra uses here is not
    /// confirmed; 75005 as for other requests it cannot take).
    package static func samlSignatureRequired(_ why: String, issuer: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 75005,
                   message: "The request is not a valid Saml2 protocol message: the application requires signed requests, and this one's signature is missing or does not verify with its verification certificates.",
                   reason: "the SAML app '\(issuer)' requires signed requests: \(why)")
    }

    /// AADSTS750054 for a `LogoutRequest` over HTTP-POST: Entra takes single logout over HTTP-Redirect only
    /// (https://learn.microsoft.com/en-us/entra/identity-platform/single-sign-out-saml-protocol).
    package static func samlLogoutNotRedirect() -> OAuthError {
        var error = samlMessageMissing()
        error.reason = "a LogoutRequest came over the HTTP-POST binding; Entra takes single logout over HTTP-Redirect (GET) only"
        return error
    }

    /// AADSTS75005: a `LogoutRequest` without a part Entra requires (`Version` 2.0, `IssueInstant`, `NameID`).
    package static func samlLogoutIncomplete(_ what: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 75005,
                   message: "The request is not a valid Saml2 protocol message: the LogoutRequest has \(what).",
                   reason: "the LogoutRequest has \(what)")
    }

    /// AADSTS500113 (Entra's "No reply address is registered for the application", chosen here: Microsoft documents
    /// no code for this case): single logout from an app without a `logoutUrl`, where the LogoutResponse would go.
    package static func samlNoLogoutURL(_ issuer: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 500113,
                   message: "No reply address is registered for the application.",
                   reason: "the SAML app '\(issuer)' has no saml.logoutUrl, where the LogoutResponse goes")
    }

    /// A SAML signing certificate could not be made or used.
    package static func samlSigningFailed(_ why: String) -> OAuthError {
        OAuthError(code: .serverError, message: "The SAML message could not be signed.", status: 500, reason: why)
    }
}

extension OAuthError {
    /// A WS-Federation request whose `wa` is none of the actions served (docs/saml.md, "WS-Federation").
    package static func wsFederationUnknownAction(_ action: String?) -> OAuthError {
        var error = invalidParameter("wa", "must be wsignin1.0, wsignout1.0 or wsignoutcleanup1.0")
        error.reason = action.map { "the WS-Federation action wa='\($0)' is not one this endpoint serves" } ?? "the WS-Federation request has no wa"
        return error
    }
}
