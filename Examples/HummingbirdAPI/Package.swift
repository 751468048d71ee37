// swift-tools-version: 6.2
// An API on Hummingbird that validates Microsoft Entra access tokens with vapor/jwt-kit, and its tests, which probe
// it with mockidp's defective tokens through MockIDPTesting. A package of its own, so that mockidp's build never
// pulls in Hummingbird or jwt-kit: run it with `swift test` in this folder (scripts/test does).
import Foundation
import PackageDescription

// SwiftPM names a package found by path after its folder; mockidp's is the repository's clone, whatever its name.
let mockidp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "HummingbirdAPI",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The API: its routes and the token check.
        .target(name: "OrdersAPI", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Its tests: mockidp in the test process, the API's router in-process and over its own listener.
        .testTarget(name: "OrdersAPITests", dependencies: [
            "OrdersAPI",
            .product(name: "MockIDPTesting", package: mockidp),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
    ]
)
