import Mustache

/// The HTML pages of `templates/` (compiled in), rendered with Mustache; every `{{value}}` is HTML-escaped.
struct Pages: Sendable {
    private let library: MustacheLibrary

    /// The compiled-in templates, parsed once, on first use (Swift initializes a static `let` lazily and once).
    static let shared: Pages = {
        do { return try Pages() } catch { preconditionFailure("the compiled-in templates parse: \(error)") }
    }()

    init() throws {
        let sources: [String: [UInt8]] = [
            "style": PackageResources.style_mustache, "signin": PackageResources.signin_mustache,
            "consent": PackageResources.consent_mustache, "error": PackageResources.error_mustache,
            "form_post": PackageResources.form_post_mustache, "signedout": PackageResources.signedout_mustache,
            "devicecode": PackageResources.devicecode_mustache, "message": PackageResources.message_mustache,
            "b2c_signin": PackageResources.b2c_signin_mustache, "b2c_selfasserted": PackageResources.b2c_selfasserted_mustache,
            "externalid": PackageResources.externalid_mustache,
            "inspector": PackageResources.inspector_mustache, "not_found": PackageResources.not_found_mustache,
        ]
        var templates: [String: MustacheTemplate] = [:]
        for (name, bytes) in sources { templates[name] = try MustacheTemplate(string: String(decoding: bytes, as: UTF8.self)) }
        library = MustacheLibrary(templates: templates)
    }

    /// Renders `name` with `context` (dictionaries and arrays of them).
    func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    /// Hidden form fields as the templates expect them.
    static func fields(_ pairs: [(name: String, value: String)]) -> [[String: String]] {
        pairs.map { ["name": $0.name, "value": $0.value] }
    }
}
