// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "mockidp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mockidp", targets: ["mockidp"]),
        .library(name: "MockIDP", targets: ["MockIDP"]),
        .library(name: "MockIDPTesting", targets: ["MockIDPTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // MockIDPTesting's live mode: a real HTTP client that trusts the server's own CA on Linux (URLSession cannot).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // System libraries: Debian packages named so SwiftPM can say what to install.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CTLS", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        // Only libyaml's header: the code is the copy Yams builds (see Sources/CLibYAML/module.modulemap).
        .systemLibrary(name: "CLibYAML", providers: [.apt(["libyaml-dev"])]),
        // SAML's XML: libxml2 and xmlsec1 with its OpenSSL back end (zlib, which libxml2 needs too, inflates the
        // HTTP-Redirect binding).
        .systemLibrary(name: "CXMLSec", pkgConfig: "xmlsec1-openssl", providers: [.apt(["libxml2-dev", "libxmlsec1-dev", "zlib1g-dev"])]),

        // The small text helpers every layer shares, written once: ASCII case folding and classes, IP-address text,
        // percent-encoding.
        .target(name: "MockIDPText"),
        .target(name: "MockIDPHTTP", dependencies: [
            "CMicroHTTPD", "CTextCoding", "MockIDPText",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The outgoing HTTP client (HTTPS over libssl): `mockidp probe`, and the server's fetches of trusted issuers'
        // key sets.
        .target(name: "MockIDPHTTPClient", dependencies: ["CTLS"]),
        // The one C of our own: the byte work of JSON text, base64 and form text, sixteen bytes at a time.
        .target(name: "CTextCoding"),
        .target(name: "MockIDPJOSE", dependencies: ["COpenSSL", "CTextCoding", "MockIDPText"]),
        // SAML's XML: inbound messages parsed safely, assertions and metadata signed, signed requests checked.
        .target(name: "MockIDPXML", dependencies: ["CXMLSec", "MockIDPJOSE"]),
        .target(name: "MockIDPCore", dependencies: ["MockIDPJOSE", "MockIDPText", "MockIDPXML"]),
        .target(
            name: "MockIDPConfiguration",
            dependencies: ["MockIDPCore", "MockIDPText", "CLibYAML", .product(name: "Yams", package: "Yams")],
            resources: [.embedInCode("Resources/default.yaml")]
        ),
        .target(
            name: "MockIDP",
            dependencies: [
                "MockIDPHTTP", "MockIDPHTTPClient", "MockIDPJOSE", "MockIDPCore", "MockIDPConfiguration", "MockIDPText",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The pages of templates/ (symlinked), compiled into the binary.
            resources: ["style", "signin", "consent", "error", "form_post", "signedout", "devicecode", "message", "b2c_signin", "b2c_selfasserted", "externalid", "inspector", "not_found"].map { .embedInCode("Resources/\($0).mustache") }
        ),
        .target(name: "MockIDPTesting", dependencies: [
            "MockIDP", "MockIDPCore", "MockIDPConfiguration", "MockIDPJOSE", "MockIDPHTTP",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .executableTarget(name: "mockidp", dependencies: [
            "MockIDP", "MockIDPConfiguration", "MockIDPCore", "MockIDPJOSE", "MockIDPHTTP", "MockIDPHTTPClient",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // libFuzzer harnesses for every parser of outside input (scripts/fuzz); a normal build replays inputs.
        .executableTarget(name: "MockIDPFuzz", dependencies: [
            "MockIDP", "MockIDPHTTP", "MockIDPJOSE", "MockIDPCore", "MockIDPConfiguration", "MockIDPText", "MockIDPXML",
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "MockIDPTextTests", dependencies: ["MockIDPText"]),
        // CTLS: RawHTTPClient sends exact bytes over TLS too; MockIDPHTTPClient: the outgoing client against the server.
        .testTarget(name: "MockIDPHTTPTests", dependencies: ["MockIDPHTTP", "MockIDPHTTPClient", "CTLS"]),
        .testTarget(name: "MockIDPHTTPClientTests", dependencies: ["MockIDPHTTPClient"]),
        .testTarget(name: "MockIDPJOSETests", dependencies: ["MockIDPJOSE"]),
        .testTarget(name: "MockIDPXMLTests", dependencies: ["MockIDPXML", "MockIDPJOSE"]),
        .testTarget(name: "MockIDPCoreTests", dependencies: ["MockIDPCore", "MockIDPJOSE", "MockIDPText", "MockIDPXML"]),
        .testTarget(name: "MockIDPConfigurationTests", dependencies: ["MockIDPConfiguration", "MockIDPCore"]),
        .testTarget(name: "MockIDPTests", dependencies: [
            "MockIDP", "MockIDPHTTP", "MockIDPCore", "MockIDPJOSE", "MockIDPConfiguration",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "MockIDPTestingTests", dependencies: ["MockIDPTesting", "MockIDP", "MockIDPCore", "MockIDPJOSE", "MockIDPConfiguration"]),
        .testTarget(name: "MockIDPIntegrationTests", dependencies: ["MockIDPTesting", "MockIDP", "MockIDPCore", "MockIDPJOSE", "MockIDPConfiguration", "MockIDPText", "MockIDPXML"]),
        // The command line parsed and validated without running it: `@testable import mockidp` (its commands are internal).
        .testTarget(name: "MockIDPCommandLineTests", dependencies: [
            "mockidp", "MockIDP", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ]
)
