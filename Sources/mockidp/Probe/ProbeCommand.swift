#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import MockIDP
import MockIDPCore
import MockIDPHTTPClient
import MockIDPJOSE

/// `mockidp probe URL`: sends the API at URL one clean token and one token per tamper defect, each as
/// `Authorization: Bearer`, and checks the verdicts: the clean token accepted (2xx), every defective one refused
/// (401 or 403). Exit 0 when every verdict holds, 1 otherwise.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Send an API one clean and one defective bearer token per tamper defect, and check that it refuses each defect.",
        discussion: """
            The tokens are minted as `mockidp token` mints them (same options, state directory and configuration), so \
            an API that validates against the running server's key set sees real tokens. Defects a token cannot carry \
            (a nonce or hash defect on an access token) are skipped and listed. Example: mockidp probe \
            http://localhost:5000/api/hello --client <client-id> --scope api://contoso-api/.default
            """
    )

    @Argument(help: ArgumentHelp("The API's URL (http:// or https://).", valueName: "url"))
    var url: String

    @Option(name: .long, help: "The HTTP method (default GET).")
    var method = "GET"

    @Option(name: .customLong("header"), help: ArgumentHelp("An extra request header, 'Name: value'; repeatable.", valueName: "header"))
    var headers: [String] = []

    @Option(name: .long, help: ArgumentHelp("A PEM file of CAs to trust for an https:// API (default: the system's).", valueName: "file"))
    var cacert: String?

    @Flag(name: .long, help: "Do not verify an https:// API's certificate.")
    var insecure = false

    @Flag(name: .long, help: "Print one JSON object instead of the table.")
    var json = false

    @OptionGroup var mint: MintOptions

    func validate() throws {
        guard BlockingHTTPClient.Target(url) != nil else { throw ValidationError("the URL must be http://host[:port]/path or https://…, got '\(url)'") }
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter && $0.isASCII }) else { throw ValidationError("--method must be an HTTP method such as GET") }
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex, !header.contains("\r"), !header.contains("\n") else {
                throw ValidationError("--header must be 'Name: value', got '\(header)'")
            }
        }
    }

    /// One probe: the defect (nil for the clean token), the status, and whether the verdict holds.
    struct Row {
        var defect: TokenDefect?
        var status: Int
        var holds: Bool
        var name: String { defect?.rawValue ?? "(clean)" }
        var verdict: String {
            let expected = defect == nil ? "accepted" : "refused"
            let got = (200...299).contains(status) ? "accepted" : [401, 403].contains(status) ? "refused" : "answered \(status)"
            return holds ? "ok: \(expected)" : "FAIL: \(got), must be \(expected)"
        }
    }

    func run() throws {
        guard let target = BlockingHTTPClient.Target(url) else { throw ExitStatus.usage }
        let (provider, request): (IdentityProvider, MintRequest)
        do { (provider, request) = try mint.provider() } catch {
            if let line = error.line("probe") { printError(line) }
            throw error.status
        }
        let client = BlockingHTTPClient(caFile: cacert, insecure: insecure)
        let extra = headers.map { header -> (String, String) in
            let colon = header.firstIndex(of: ":")!
            return (String(header[..<colon]), String(header[header.index(after: colon)...]).trimmingSpaces())
        }
        var rows: [Row] = []
        var skipped: [String] = []
        let plan = TokenDefect.probeTokens
        for (index, defect) in plan.enumerated() {
            progress("probing \(index + 1)/\(plan.count): \(defect?.rawValue ?? "clean token")")
            let token: String
            do { token = try MintOptions.mint(request, defect: defect, with: provider) } catch {
                if let defect { skipped.append(defect.rawValue); continue }
                progress(nil)
                if let line = error.line("probe") { printError(line) }
                throw error.status
            }
            let status: Int
            do {
                status = try client.send(method.uppercased(), target, headers: [("Authorization", "Bearer \(token)")] + extra, readBody: false).status
            } catch {
                progress(nil)
                printError("mockidp probe: \(url): \(error.description)" + (error.isUntrustedCertificate ? "; pass --cacert FILE or --insecure" : ""))
                throw ExitStatus.failure
            }
            rows.append(Row(defect: defect, status: status, holds: TokenDefect.probeVerdictHolds(defect, status: status)))
        }
        progress(nil)
        let failed = rows.filter { !$0.holds }
        if json {
            let results: [JSONValue] = rows.map { row in
                .object(["defect": row.defect.map { .string($0.rawValue) } ?? .null, "status": .int(row.status),
                         "verdict": .string(row.verdict), "ok": .bool(row.holds)])
            }
            let report: JSONValue = .object(["url": .string(url), "passed": .bool(failed.isEmpty), "results": .array(results),
                                             "skipped": .array(skipped.map { .string($0) })])
            print(String(decoding: report.serialized(), as: UTF8.self))
        } else {
            let width = max(18, (rows.map(\.name.count).max() ?? 0) + 2)
            print("defect".padded(to: width) + "status  verdict")
            for row in rows { print(row.name.padded(to: width) + String(row.status).padded(to: 8) + row.verdict) }
            if !skipped.isEmpty { print("skipped (this token cannot carry them): \(skipped.joined(separator: ", "))") }
            print(failed.isEmpty ? "all \(rows.count) verdicts hold"
                  : "\(failed.count) of \(rows.count) verdicts failed: \(failed.map(\.name).joined(separator: ", "))")
        }
        if !failed.isEmpty { throw ExitStatus.failure }
    }

    /// A progress line on standard error, rewritten in place on a terminal; nil clears it.
    private func progress(_ text: String?) {
        guard isatty(2) == 1 else { return }
        printErrorRaw(text.map { "\r\u{1B}[2K\($0)" } ?? "\r\u{1B}[2K")
    }
}

private extension String {
    func padded(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
