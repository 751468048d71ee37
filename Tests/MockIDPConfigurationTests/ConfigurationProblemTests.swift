import MockIDPConfiguration
import Testing

@Suite struct ConfigurationProblemTests {
    @Test("a problem prints as FILE:LINE: PATH: reason, leaving out a missing line or path")
    func description() {
        #expect(ConfigurationProblem(file: "contoso.yaml", line: 12, path: "tenants[0].apps[1].clientId", reason: "must be a GUID")
            .description == "contoso.yaml:12: tenants[0].apps[1].clientId: must be a GUID")
        #expect(ConfigurationProblem(file: "contoso.yaml", line: 3, path: "", reason: "invalid YAML: x").description
            == "contoso.yaml:3: invalid YAML: x")
        #expect(ConfigurationProblem(file: "contoso.yaml", line: 0, path: "", reason: "cannot be read: no such file").description
            == "contoso.yaml: cannot be read: no such file")
    }

    @Test("an error prints one problem a line")
    func errorDescription() {
        let error = ConfigurationError(problems: [
            ConfigurationProblem(file: "a.yaml", line: 1, path: "tokens", reason: "must be a mapping"),
            ConfigurationProblem(file: "b.yaml", line: 2, path: "hosts", reason: "must be a list of strings"),
        ])
        #expect(error.description == "a.yaml:1: tokens: must be a mapping\nb.yaml:2: hosts: must be a list of strings")
    }
}
