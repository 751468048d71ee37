import MockIDPCore

/// The keys of an `apps:` entry (also the body of the control API's `POST …/apps`), in print order.
package enum AppFields {
    package typealias AppField<Value: FieldValue> = Field<ApplicationEntry, Application, Value>

    package static let clientID = AppField<String>(
        "clientId", .guid, "The application (client) ID.", required: true,
        read: { decoder, node, origin, entry in entry.app.clientID = decoder.guid(node, at: origin, required: true) ?? "" },
        print: { .text($0.clientID) })

    package static let name = AppField<String>.text("name", "The display name (the sign-in and consent pages show it).", \.name)

    package static let type = AppField<ClientType>(
        "type", .choice(of: ClientType.self),
        "The kind of client; by default confidential when it has a secret, a certificate or a federated credential, public otherwise.",
        read: { decoder, node, origin, entry in
            guard let type: ClientType = decoder.choice(node, at: origin) else { return }
            entry.app.type = type
            entry.typeOrigin = origin
        },
        print: { .scalar($0.type.rawValue) })

    package static let secret = AppField<String>(
        "secret", .text, "The client secret of a confidential client.",
        read: { decoder, node, origin, entry in
            guard !node.isNull else { return }
            entry.app.secret = decoder.requiredString(node, at: origin)
            entry.secretOrigin = entry.app.secret == nil ? nil : origin
        },
        print: { .text($0.secret) })

    package static let certificates = AppField<[String]>(
        "certificates", .list(.filePath), "PEM certificate files accepted for client assertions (RSA keys).",
        read: { decoder, node, origin, entry in
            let paths = decoder.strings(node, at: origin)
            entry.certificatesOrigin = paths.isEmpty ? nil : origin
            entry.app.certificates = paths.compactMap { decoder.certificate($0) }
        },
        print: { .list($0.certificates.map(\.source)) })

    package static let federatedCredentials = AppField<[FederatedCredential]>(
        "federatedCredentials", .list(.mapping(FederatedCredentialFields.table.schema)),
        "Workload identity federation: external tokens (issuer, subject, audiences) accepted as client assertions.",
        read: { decoder, node, origin, entry in decoder.federatedCredentials(node, at: origin, into: &entry) },
        print: { app in
            app.federatedCredentials.isEmpty ? nil : .entries(app.federatedCredentials.map(FederatedCredentialFields.table.printed))
        })

    package static let redirectURIs = AppField<[String]>(
        "redirectUris", .list(.uri), "Redirect URIs (loopback ones match on any port).",
        read: { decoder, node, origin, entry in
            let uris = decoder.withoutRepeats(decoder.strings(node, at: origin), ignoringCase: false)
            entry.app.redirectURIs = uris.map(\.value)
            entry.redirectURIOrigins = uris.map(\.origin)
        },
        print: { .list($0.redirectURIs) })

    package static let identifierURIs = AppField<[String]>(
        "identifierUris", .list(.uri), "The names other apps use for this app as an API, such as api://contoso-api.",
        read: { decoder, node, origin, entry in
            let uris = decoder.withoutRepeats(decoder.strings(node, at: origin), ignoringCase: true)
            entry.app.identifierURIs = uris.map(\.value)
            entry.identifierURIOrigins = uris.map(\.origin)
        },
        print: { .list($0.identifierURIs) })

    package static let scopes = AppField<[String]>.names("scopes", "Delegated scopes this app exposes as an API.", \.scopes)

    package static let appRoles = AppField<[String]>.names("appRoles", "App roles this app defines as an API.", \.appRoles)

    package static let apiPermissions = AppField<[APIPermission]>(
        "apiPermissions", .map(.list(.name)),
        "The APIs this app may call (client ID or identifier URI) and the scopes or app roles granted on each.",
        read: { decoder, node, origin, entry in decoder.apiPermissions(node, at: origin, into: &entry) },
        print: { app in
            app.apiPermissions.isEmpty ? nil : .flowLists(app.apiPermissions.map { ($0.resource, $0.values) })
        })

    package static let accessTokenVersion = AppField<Int>(
        "accessTokenVersion", .integer(1...2), "The version of access tokens issued for this app as an API (default 1).",
        read: { decoder, node, origin, entry in
            entry.app.accessTokenVersion = decoder.integer(node, at: origin, in: 1...2, reason: "must be 1 or 2")
        },
        print: { app in app.accessTokenVersion.map { .scalar("\($0)") } })

    package static let multiTenant = AppField<Bool>.flag(
        "multiTenant", "Other tenants may use the app.", \.multiTenant, printedWhenFalse: true)

    package static let enableIDTokenIssuance = AppField<Bool>.flag(
        "enableIdTokenIssuance", "The implicit grant may issue ID tokens (`response_type` may include id_token).",
        \.enableIDTokenIssuance)

    package static let enableAccessTokenIssuance = AppField<Bool>.flag(
        "enableAccessTokenIssuance", "The implicit grant may issue access tokens (`response_type` may include token).",
        \.enableAccessTokenIssuance)

    package static let headlessSignIn = AppField<Bool>.flag(
        "headlessSignIn", "For CI: an authorize request whose login_hint names a user signs that user in with no page.",
        \.headlessSignIn)

    package static let requirePKCE = AppField<Bool>.flag(
        "requirePkce", "Authorize requests must carry a PKCE code_challenge (always so for spa apps).", \.requirePKCE)

    package static let consentRequired = AppField<Bool>.flag(
        "consentRequired",
        "Delegated permissions need the user's consent: the consent page after sign-in, or AADSTS65001 where no page can be shown.",
        \.consentRequired)

    package static let nativeAuth = AppField<Bool>.flag(
        "nativeAuth", "The app may use External ID's native authentication API (External ID tenants).", \.nativeAuth)

    package static let foci = AppField<Bool>(
        "foci", .boolean, "A member of the family of client IDs (public clients only): family refresh tokens redeem here.",
        read: { decoder, node, origin, entry in
            guard decoder.bool(node, at: origin) == true else { return }
            entry.app.foci = true
            entry.fociOrigin = origin
        },
        print: { $0.foci ? .scalar("true") : nil })

    package static let groupMembershipClaims = AppField<GroupMembershipClaims>(
        "groupMembershipClaims", .choice(of: GroupMembershipClaims.self),
        "Which groups the app's tokens carry in the groups claim, as the app manifest (default None).",
        read: { decoder, node, origin, entry in
            if let kind = decoder.groupMembershipClaims(node, at: origin) { entry.app.groupMembershipClaims = kind }
        },
        print: { $0.groupMembershipClaims == .none ? nil : .scalar($0.groupMembershipClaims.rawValue) })

    package static let optionalClaims = AppField<OptionalClaims>(
        "optionalClaims", .mapping(OptionalClaimFields.table.schema),
        "Optional claims added to the app's ID tokens and to access tokens for it as an API, as the app manifest.",
        read: { decoder, node, origin, entry in
            if let claims = decoder.optionalClaims(node, at: origin) { entry.app.optionalClaims = claims }
        },
        print: { $0.optionalClaims.isEmpty ? nil : .mapping(OptionalClaimFields.table.printed($0.optionalClaims)) })

    // `foci` prints last but has always been read before the flags after `multiTenant`: problems on one line
    // (a flow mapping) keep their order.
    static let table = FieldTable(
        clientID, name, type, secret, certificates, federatedCredentials, redirectURIs, identifierURIs, scopes, appRoles, apiPermissions,
        accessTokenVersion, multiTenant, enableIDTokenIssuance, enableAccessTokenIssuance, headlessSignIn, requirePKCE,
        consentRequired, nativeAuth, groupMembershipClaims, optionalClaims, foci,
        saml
    ).reading(foci, before: enableIDTokenIssuance)
}

extension ApplicationEntry: ModelEntry {
    static var modelPath: FieldPath<ApplicationEntry, Application> { \.app }
}
