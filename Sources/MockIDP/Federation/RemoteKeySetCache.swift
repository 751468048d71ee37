import Foundation
import Logging
import MockIDPCore
import MockIDPHTTPClient
import MockIDPJOSE
import Synchronization

/// The key sets trusted issuers publish at a URL (`trustedIssuers[].jwksUri`), fetched with MockIDPHTTPClient's client
/// at start and again when a token names a key the cached set lacks. Bounded so that a slow or hostile URL, or a
/// flood of tokens with unknown `kid`s, can neither hang token requests nor make the server hammer the URL:
///
/// - one fetch of a URL at a time; requests that need it meanwhile wait for it, and no longer than its timeout;
/// - a URL is fetched again at most once per `minimumRefetchInterval`; in between, an unknown `kid` is answered
///   from the cached set (AADSTS7000272);
/// - each fetch ends after `timeoutSeconds` and reads at most `maximumBytes`.
///
/// Trust: http only on loopback, else https verified against the system's store and `SSL_CERT_FILE` when set.
final class RemoteKeySetCache: RemoteKeySetSource {
    /// A URL is fetched again at most this often (seconds).
    static let minimumRefetchInterval = 1.0
    /// One fetch (connect, TLS, request, answer) ends after this many seconds.
    static let timeoutSeconds = 5.0
    /// Key sets larger than this are refused (a set of a hundred RSA-4096 keys is under 100 KB).
    static let maximumBytes = 256 * 1024

    private struct Entry {
        var keySet: JSONWebKeySet?
        /// Monotonic time of the last fetch's end.
        var fetchedAt: Double?
        var fetching = false
        var problem: KeySetProblem?
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let fetch: @Sendable (String) -> Result<JSONWebKeySet, KeySetProblem>
    private let now: @Sendable () -> Double
    private let logger: Logger

    /// A cache fetching with `fetch` (by default over HTTP), timed by `now` (monotonic seconds).
    init(logger: Logger, fetch: (@Sendable (String) -> Result<JSONWebKeySet, KeySetProblem>)? = nil,
         now: @escaping @Sendable () -> Double = RemoteKeySetCache.monotonicNow) {
        self.logger = logger
        self.fetch = fetch ?? { url in RemoteKeySetCache.download(url) }
        self.now = now
    }

    func keySet(at url: String, wanting keyID: String?) -> Result<JSONWebKeySet, KeySetProblem> {
        let waitUntil = now() + Self.timeoutSeconds + 1
        while true {
            enum Step { case answer(Result<JSONWebKeySet, KeySetProblem>), fetch, wait }
            let step = entries.withLock { entries -> Step in
                var entry = entries[url] ?? Entry()
                if let keySet = entry.keySet, keyID == nil || keySet.keys.contains(where: { $0.keyID == keyID }) {
                    return .answer(.success(keySet))
                }
                if entry.fetching { return .wait }
                let due = entry.fetchedAt.map { now() - $0 >= Self.minimumRefetchInterval } ?? true
                guard due else {
                    if let keySet = entry.keySet { return .answer(.success(keySet)) }
                    return .answer(.failure(entry.problem ?? KeySetProblem(description: "has not been fetched")))
                }
                entry.fetching = true
                entries[url] = entry
                return .fetch
            }
            switch step {
            case .answer(let result):
                return result
            case .wait:
                guard now() < waitUntil else { return .failure(KeySetProblem(description: "is still being fetched")) }
                usleep(10_000)
            case .fetch:
                return record(fetch(url), for: url)
            }
        }
    }

    /// Fetches each URL once, in the background (`mockidp serve` does at start); token requests that need one
    /// meanwhile wait for its fetch.
    func prefetch(_ urls: [String]) {
        for url in Set(urls) {
            Thread.detachNewThread { [self] in _ = keySet(at: url, wanting: nil) }
        }
    }

    private func record(_ result: Result<JSONWebKeySet, KeySetProblem>, for url: String) -> Result<JSONWebKeySet, KeySetProblem> {
        switch result {
        case .success(let keySet): logger.debug("fetched the key set at \(url): \(keySet.keys.count) key(s)")
        case .failure(let problem): logger.warning("the key set at \(url) \(problem)")
        }
        return entries.withLock { entries in
            var entry = entries[url] ?? Entry()
            entry.fetching = false
            entry.fetchedAt = now()
            switch result {
            case .success(let keySet):
                entry.keySet = keySet
                entry.problem = nil
            case .failure(let problem):
                // The last good set stays for later requests; this one reports why the fetch failed.
                entry.problem = problem
            }
            entries[url] = entry
            return result
        }
    }

    /// GET `url` and read it as a trusted issuer's key set.
    static func download(_ url: String) -> Result<JSONWebKeySet, KeySetProblem> {
        guard let target = BlockingHTTPClient.Target(url), target.secure || target.isLoopback else {
            return .failure(KeySetProblem(description: "is not an https URL (or http on loopback)"))
        }
        let client = BlockingHTTPClient(timeoutSeconds: timeoutSeconds, maximumResponseBytes: maximumBytes)
        let response: BlockingHTTPClient.Response
        do { response = try client.send("GET", target, headers: [("Accept", "application/json")]) } catch {
            return .failure(KeySetProblem(description: "cannot be fetched: \(error.description)"))
        }
        guard response.status == 200 else { return .failure(KeySetProblem(description: "answered HTTP \(response.status)")) }
        let json: JSONValue
        do { json = try JSONValue.parse(response.body) } catch {
            return .failure(KeySetProblem(description: "is not JSON: \(error.reason)"))
        }
        return TrustedIssuerKeys.keySet(json)
    }

    @Sendable static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
