import Foundation
import MockIDPConfiguration

/// Shared inputs and helpers for the configuration tests.
enum ConfigurationFixtures {
    /// The problems `parse` reports for `text`, printed; empty when it loads.
    static func problems(_ text: String, file: String = "test.yaml", baseDirectory: String = ".") -> [String] {
        do {
            _ = try ConfigurationLoader.parse(text: text, fileName: file, baseDirectory: baseDirectory)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// The problems `load` reports for `paths`, printed; empty when they load.
    static func loadProblems(_ paths: [String]) -> [String] {
        do {
            _ = try ConfigurationLoader.load(paths: paths)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// The repository's `config/` folder, found from this source file.
    static var configDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config").path
    }

    /// The example configurations shipped in `config/examples/`.
    static let exampleNames = ["multi-tenant.yaml", "b2c.yaml", "sovereign.yaml", "guest.yaml", "headless-ci.yaml",
                                     "on-behalf-of.yaml", "azure-sdk.yaml", "workload-identity.yaml"]

    /// A self-signed certificate (made with `openssl req -x509`), as a client would register it.
    static let certificatePEM = """
-----BEGIN CERTIFICATE-----
MIIDHTCCAgWgAwIBAgIUGrPnmYTGJsv0aQOIaLjcqtGKlocwDQYJKoZIhvcNAQEL
BQAwHjEcMBoGA1UEAwwTbW9ja2lkcCB0ZXN0IGNsaWVudDAeFw0yNjExMjIwNDQ5
NDNaFw0zNjExMTkwNDQ5NDNaMB4xHDAaBgNVBAMME21vY2tpZHAgdGVzdCBjbGll
bnQwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCcoYZvsTa+ZmBQrMya
HlXjxh5Yq5NdZuUjnz7oSrk4wt5xgvcH98vFfgGPyZBhH34dhk2D5ZhPMO9ymSet
jDyPnd7fGTjZaTc3XJb5ZD6Opt6HvwkXVyio/CW/fKqAt37tt8zMjeZmoLAXXAV6
Pj6LyKO7T3qKRkBqZHcr8MvOBatdLTE1SWCzHWiPFFAq4zO1UT/BSGEXTMITTO5P
0JwEtkH6T8SxmXcfw/vokAtYQbxKhGQh5JzECkIFch/Em2Z6iop5UmXTuOACZImt
CR1R6D8G6x0PDsrBSai/tpAJxI/TreCf4nFTsPh3pHMTeYsiRKCg2uskDjZ9ZCPi
lLurAgMBAAGjUzBRMB0GA1UdDgQWBBSpHxUQKQ3FdPWMtDL6mN22fIuLcDAfBgNV
HSMEGDAWgBSpHxUQKQ3FdPWMtDL6mN22fIuLcDAPBgNVHRMBAf8EBTADAQH/MA0G
CSqGSIb3DQEBCwUAA4IBAQCQn0ecVL6WNoG8xHdmfFiWDobyuI6G2qfWtQ/kXKra
cV2VO+CqsG0oyOsnU8crgmc4HlCsruHa/o+BlhC/CDKM+bWsldwrxWspISFxGS4s
SdvgTQ3Bn+ABxuIddX/nkTgafkbqv5CWYwYeOYUa2v2BblJqG1nkkPhupmAfrQgN
YpvVEYMFJ9Pk4aan9DZ2X6FMCLsDTb+l4oS/1hLDLNJFWMsG/z/1c9BGbOzsR3yH
XCqedp8N+BCIUo+JlhU4mcFjQlH2VHoIqQxuIFPoTm9vLgxz0t9cHm42m1JwOCIw
hevCad/Oo0DObFJfL2kyYklaQPgybbU9+222l1dRlqhf
-----END CERTIFICATE-----

"""
}

/// A fresh directory under the system's temporary directory, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `contents` to `name` (folders created as needed) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        try write(name, Data(contents.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: file))
        return file
    }
}
