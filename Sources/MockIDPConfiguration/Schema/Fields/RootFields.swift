import MockIDPCore

/// The keys at the top of a configuration file, in print order.
package enum RootFields {
    package typealias RootField<Value: FieldValue> = Field<ConfigurationOverlay, IdentityProviderConfiguration, Value>

    package static let tokens = RootField<Nested>(
        "tokens", .mapping(TokenFields.table.schema), "Lifetimes of what the provider issues, in seconds.",
        read: { decoder, node, origin, overlay in overlay.tokens = decoder.tokens(node, at: origin) },
        print: { .mapping(TokenFields.table.printed($0.tokens)) })

    package static let hosts = RootField<[String]>(
        "hosts", .list(.hostName), "Extra host names served (and put into the TLS certificate).",
        read: { decoder, node, origin, overlay in
            var seen = Set<String>()
            for host in decoder.hostNames(node, at: origin) where seen.insert(host.value).inserted {
                overlay.hosts.append(host)
            }
        },
        print: { .list($0.hosts) })

    package static let tenants = RootField<Nested>(
        "tenants", .list(.mapping(TenantFields.table.schema)), "The tenants served, with their users and apps.",
        read: { decoder, node, origin, overlay in
            let tenants = decoder.tenants(node, at: origin)
            // Taken whole when there is nothing before them (copying would retain every value of every tenant).
            if overlay.tenants.isEmpty { overlay.tenants = tenants } else { overlay.tenants += tenants }
        },
        print: { configuration in
            configuration.tenants.isEmpty ? .scalar("[]") : .entries(configuration.tenants.map(TenantFields.table.printed))
        })

    package static let trustedIssuers = RootField<Nested>(
        "trustedIssuers", .list(.mapping(TrustedIssuerFields.table.schema)),
        "External OpenID issuers whose tokens federated credentials may accept, with their keys (jwks or jwksUri).",
        read: { decoder, node, origin, overlay in overlay.trustedIssuers = decoder.trustedIssuers(node, at: origin) },
        print: { configuration in
            configuration.trustedIssuers.isEmpty ? nil : .entries(configuration.trustedIssuers.map(TrustedIssuerFields.table.printed))
        })

    static let table = FieldTable(tokens, hosts, tenants, trustedIssuers)
}

/// The keys of `tokens:`, in print order.
package enum TokenFields {
    package typealias TokenField = Field<TokensOverlay, TokenSettings, Int>

    package static let lifetime = lifetimeField(
        "lifetime", "Access and ID tokens (default 3600).", ConfigurationSchema.lifetimeRange, \.lifetime, \.lifetime)
    package static let refreshLifetime = lifetimeField(
        "refreshLifetime", "Refresh tokens (default 86400).", ConfigurationSchema.lifetimeRange, \.refreshLifetime, \.refreshLifetime)
    package static let codeLifetime = lifetimeField(
        "codeLifetime", "Authorization codes (default 300).", ConfigurationSchema.codeLifetimeRange, \.codeLifetime, \.codeLifetime)

    static let table = FieldTable(lifetime, refreshLifetime, codeLifetime)

    /// A lifetime in seconds, within `range`.
    private static func lifetimeField(_ key: String, _ summary: String, _ range: ClosedRange<Int>,
                                 _ path: FieldPath<TokensOverlay, Sourced<Int>?>, _ setting: KeyPath<TokenSettings, Int> & Sendable)
        -> TokenField {
        TokenField(
            key, .integer(range), summary,
            read: { decoder, node, origin, tokens in
                let reason = "must be a whole number of seconds from \(range.lowerBound) to \(range.upperBound) (ten years)"
                tokens[keyPath: path] = decoder.integer(node, at: origin, in: range, reason: reason)
                    .map { Sourced(value: $0, origin: origin) }
            },
            print: { .scalar("\($0[keyPath: setting])") })
    }
}
