import Foundation

/// Runs an installed program (the `openssl` CLI, Python) to check this module against an independent implementation.
enum ExternalTool {
    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Whether `name` is found on PATH (tests that need it are skipped otherwise, and say so).
    static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// Runs `name` (looked up on PATH) with `arguments`, feeding `input`; returns the exit status and the
    /// standard output and error together.
    static func run(_ name: String, _ arguments: [String], input: String = "") throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// A fresh directory for files a tool reads; removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-jose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
