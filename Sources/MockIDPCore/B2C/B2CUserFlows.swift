import MockIDPJOSE

/// What a B2C page reports back to the user when a form is not accepted (shown on the page, not sent to the app).
package struct SelfAssertedProblem: Error, Sendable, Equatable {
    /// The sentence B2C shows above the form.
    package var message: String
}

/// The user flows behind B2C's pages: sign-up, password reset and profile edit change the directory through
/// `ServedDirectory.upsertUser`, so what they change is gone after `restoreLoadedConfiguration` (the control API's reset).
package struct B2CUserFlows {
    let served: ServedDirectory

    /// Signs a new local account up in the policy's tenant: the e-mail address is the sign-in name.
    package func signUp(email: String, password: String, reenteredPassword: String, displayName: String,
                          givenName: String, surname: String, authority: B2CAuthority, directory: Directory) -> Result<User, SelfAssertedProblem> {
        let email = email.trimmingSpaces()
        guard LocalAccount.isEmailAddress(email) else { return .failure(SelfAssertedProblem(message: "Please enter a valid email address.")) }
        if let problem = LocalAccount.passwordProblem(password, reentered: reenteredPassword, longest: 64) { return .failure(problem) }
        let tenant = authority.tenant
        guard directory.user(email, in: tenant) == nil else {
            return .failure(SelfAssertedProblem(message: "A user with the specified ID already exists. Please choose a different one."))
        }
        var claims = JSONObject()
        if !givenName.isEmpty { claims["given_name"] = .string(givenName) }
        if !surname.isEmpty { claims["family_name"] = .string(surname) }
        let name = displayName.isEmpty ? [givenName, surname].filter { !$0.isEmpty }.joined(separator: " ") : displayName
        let user = User(username: email, password: password, name: name.isEmpty ? nil : name,
                        objectID: User.derivedObjectID(tenantID: tenant.id, username: email), email: email, claims: claims)
        guard served.upsertUser(user, tenant: tenant.id) else { return .failure(SelfAssertedProblem(message: "The tenant no longer exists.")) }
        return .success(user)
    }

    /// Sets a new password for an existing local account (B2C would first verify the e-mail address by a code).
    package func resetPassword(email: String, newPassword: String, reenteredPassword: String,
                                 authority: B2CAuthority, directory: Directory) -> Result<User, SelfAssertedProblem> {
        guard var user = directory.user(email.trimmingSpaces(), in: authority.tenant) else {
            return .failure(SelfAssertedProblem(message: "An account could not be found for the provided user ID."))
        }
        if let problem = LocalAccount.passwordProblem(newPassword, reentered: reenteredPassword, longest: 64) { return .failure(problem) }
        user.password = newPassword
        guard served.upsertUser(user, tenant: authority.tenant.id) else { return .failure(SelfAssertedProblem(message: "The tenant no longer exists.")) }
        return .success(user)
    }

    /// Changes the display name, given name and surname of a signed-in user.
    package func editProfile(_ user: User, displayName: String, givenName: String, surname: String,
                               authority: B2CAuthority, directory: Directory) -> Result<User, SelfAssertedProblem> {
        guard var current = directory.user(user.username, in: authority.tenant), current.objectID == user.objectID else {
            return .failure(SelfAssertedProblem(message: "An account could not be found for the provided user ID."))
        }
        guard !displayName.isEmpty else { return .failure(SelfAssertedProblem(message: "Display Name is required.")) }
        current.name = displayName
        current.claims["given_name"] = givenName.isEmpty ? nil : .string(givenName)
        current.claims["family_name"] = surname.isEmpty ? nil : .string(surname)
        guard served.upsertUser(current, tenant: authority.tenant.id) else { return .failure(SelfAssertedProblem(message: "The tenant no longer exists.")) }
        return .success(current)
    }
}
