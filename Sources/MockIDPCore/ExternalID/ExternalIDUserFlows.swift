import MockIDPJOSE

/// What External ID's pages do to the directory and the outbox: codes mailed to verify an address, sign-up with the
/// tenant's attributes, and password reset (Microsoft Learn, "Create a sign-up and sign-in user flow for customers").
/// Users made here go through `ServedDirectory.upsertUser`, so they are gone after the control API's reset.
package struct ExternalIDUserFlows {
    let provider: IdentityProvider

    /// Mails a new code for `purpose` to `email`; the handle names it on the page's next post.
    package func sendCode(to email: String, purpose: Outbox.Purpose, tenant: Tenant, clientID: String) -> String {
        provider.emailVerifications.send(to: email, purpose: purpose, tenantID: tenant.id, clientID: clientID,
                                         now: provider.clock.now(), random: provider.random, outbox: provider.outbox)
    }

    /// Checks the code typed for the handle; the address it proves, or the sentence the page shows.
    package func checkCode(_ handle: String, code: String, purpose: Outbox.Purpose, tenant: Tenant,
                           clientID: String) -> Result<String, SelfAssertedProblem> {
        switch provider.emailVerifications.check(handle, code: code, purpose: purpose, tenantID: tenant.id, clientID: clientID,
                                                 now: provider.clock.now()) {
        case .success(let email): return .success(email)
        case .failure(.wrongCode): return .failure(SelfAssertedProblem(message: "That code is incorrect. Please try again."))
        case .failure(.expired): return .failure(SelfAssertedProblem(message: "That code has expired. Please request a new code."))
        }
    }

    /// The address a verified code proved, while the page's later steps (password, attributes) are answered.
    package func verifiedEmail(_ handle: String, purpose: Outbox.Purpose, tenant: Tenant, clientID: String) -> String? {
        provider.emailVerifications.verifiedEmail(handle, purpose: purpose, tenantID: tenant.id, clientID: clientID,
                                                  now: provider.clock.now())
    }

    /// Uses the proof of a verified code up: the step it allowed is done.
    package func spend(_ handle: String) { provider.emailVerifications.spend(handle) }

    /// Why `email` cannot start a sign-up in `tenant` (not an address, sign-up off, taken); nil when it can.
    package func signUpRefusal(email: String, tenant: Tenant, directory: Directory) -> SelfAssertedProblem? {
        guard tenant.externalID?.signUp ?? false else {
            return SelfAssertedProblem(message: "Sign-up is not enabled for this application.")
        }
        guard LocalAccount.isEmailAddress(email) else { return SelfAssertedProblem(message: "Please enter a valid email address.") }
        guard directory.user(email, in: tenant) == nil else {
            return SelfAssertedProblem(message: "An account with this email address already exists. Sign in instead.")
        }
        return nil
    }

    /// Each of the tenant's attributes that `values` lacks or gives malformed, with the sentence for it: every
    /// attribute the tenant collects is required, and a value is at most 256 characters of printable text.
    package func attributeProblems(_ values: [String: String], tenant: Tenant) -> [(attribute: String, message: String)] {
        (tenant.externalID?.attributes ?? []).compactMap { name in
            let value = (values[name] ?? "").trimmingSpaces()
            if value.isEmpty { return (name, "This information is required.") }
            if value.count > SignUpAttribute.maximumLength || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                return (name, "Please enter at most \(SignUpAttribute.maximumLength) characters of text.")
            }
            return nil
        }
    }

    /// The new user: a fresh object ID, the e-mail address as sign-in name and `email`, the attributes as Graph
    /// properties (`displayName` as the name). `password` is nil in a tenant that signs in with codes only.
    package func signUp(email: String, password: String?, attributes: [String: String], tenant: Tenant,
                        directory: Directory) -> Result<User, SelfAssertedProblem> {
        if let refusal = signUpRefusal(email: email, tenant: tenant, directory: directory) { return .failure(refusal) }
        if let password, let problem = LocalAccount.passwordProblem(password, reentered: nil, longest: 256) { return .failure(problem) }
        if let problem = attributeProblems(attributes, tenant: tenant).first { return .failure(SelfAssertedProblem(message: problem.message)) }
        var user = User(username: email, password: password ?? Base64URL.encode(provider.random.bytes(24)),
                        objectID: GUID.random(provider.random), email: email)
        for name in tenant.externalID?.attributes ?? [] {
            guard let value = attributes[name]?.trimmingSpaces() else { continue }
            if name == "displayName" { user.name = value } else { user.profile[name] = .string(value) }
        }
        guard provider.served.upsertUser(user, tenant: tenant.id) else {
            return .failure(SelfAssertedProblem(message: "The tenant no longer exists."))
        }
        return .success(user)
    }

    /// Sets a new password for an existing customer.
    package func resetPassword(email: String, newPassword: String, tenant: Tenant, directory: Directory) -> Result<User, SelfAssertedProblem> {
        guard var user = directory.user(email, in: tenant) else {
            return .failure(SelfAssertedProblem(message: "We couldn't find an account with that email address."))
        }
        if let problem = LocalAccount.passwordProblem(newPassword, reentered: nil, longest: 256) { return .failure(problem) }
        user.password = newPassword
        guard provider.served.upsertUser(user, tenant: tenant.id) else {
            return .failure(SelfAssertedProblem(message: "The tenant no longer exists."))
        }
        return .success(user)
    }
}
