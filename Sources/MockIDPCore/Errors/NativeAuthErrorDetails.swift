import MockIDPJOSE

/// The members the native authentication API sends beside an error (Microsoft Learn, "Native authentication API
/// reference": `continuation_token` with `credential_required`, `attributes_required` and `mfa_required`;
/// `required_attributes` with `attributes_required`; `invalid_attributes` with `attribute_validation_failed`).
package struct NativeAuthErrorDetails: Sendable, Equatable {
    /// The continuation token of the flow's next step, when the error is a step of the flow.
    package var continuationToken: String?
    /// The attributes sign-up still needs, each `{"name", "type", "required"}`.
    package var requiredAttributes: [SignUpAttribute] = []
    /// The names of the attributes whose values were refused.
    package var invalidAttributes: [String] = []

    /// Details carrying the next step's continuation token.
    package init(continuationToken: String?, requiredAttributes: [SignUpAttribute] = [], invalidAttributes: [String] = []) {
        self.continuationToken = continuationToken
        self.requiredAttributes = requiredAttributes
        self.invalidAttributes = invalidAttributes
    }

    /// Adds the members to an error body.
    func write(into body: inout JSONObject) {
        if let continuationToken { body["continuation_token"] = .string(continuationToken) }
        if !requiredAttributes.isEmpty {
            body["required_attributes"] = .array(requiredAttributes.map {
                ["name": .string($0.name), "type": .string($0.type), "required": .bool(true)]
            })
        }
        if !invalidAttributes.isEmpty {
            body["invalid_attributes"] = .array(invalidAttributes.map { ["name": .string($0)] })
        }
    }
}
