import Foundation
import Logging
@testable import MockIDP
import MockIDPCore
import MockIDPJOSE
import Synchronization
import Testing

/// The `jwksUri` cache: fetched on an unknown `kid`, at most once per interval, one fetch at a time.
@Suite struct RemoteKeySetCacheTests {
    static func keySet(_ ids: [String]) -> JSONWebKeySet {
        JSONWebKeySet(keys: ids.map { JSONWebKey(keyType: "RSA", keyID: $0, modulus: "AQAB", exponent: "AQAB") })
    }

    /// A fake URL whose key set the test changes, counting fetches; the clock is the test's.
    final class Fake: Sendable {
        let served = Mutex<Result<JSONWebKeySet, KeySetProblem>>(.success(RemoteKeySetCacheTests.keySet(["k1"])))
        let fetches = Mutex(0)
        let clock = Mutex(100.0)
        let delay = Mutex<UInt32>(0)

        func cache() -> RemoteKeySetCache {
            RemoteKeySetCache(logger: Logger(label: "test"), fetch: { [self] _ in
                fetches.withLock { $0 += 1 }
                let pause = delay.withLock { $0 }
                if pause > 0 { usleep(pause) }
                return served.withLock { $0 }
            }, now: { [self] in clock.withLock { $0 } })
        }
    }

    @Test("a known kid is answered from the cache; an unknown one fetches again, but not twice within a second")
    func rateLimited() {
        let fake = Fake()
        let cache = fake.cache()
        #expect((try? cache.keySet(at: "u", wanting: "k1").get())?.keys.count == 1)
        #expect(fake.fetches.withLock { $0 } == 1)
        for _ in 0..<50 { _ = cache.keySet(at: "u", wanting: "unknown") }
        #expect(fake.fetches.withLock { $0 } == 1)
        fake.served.withLock { $0 = .success(RemoteKeySetCacheTests.keySet(["k1", "k2"])) }
        fake.clock.withLock { $0 += 1.0 }
        #expect((try? cache.keySet(at: "u", wanting: "k2").get())?.keys.map(\.keyID) == ["k1", "k2"])
        #expect(fake.fetches.withLock { $0 } == 2)
        #expect((try? cache.keySet(at: "u", wanting: "k1").get()) != nil)
        #expect(fake.fetches.withLock { $0 } == 2)
    }

    @Test("a failed fetch reports why; the last good key set serves until the next allowed fetch")
    func failures() {
        let fake = Fake()
        fake.served.withLock { $0 = .failure(KeySetProblem(description: "answered HTTP 503")) }
        let cache = fake.cache()
        guard case .failure(let problem) = cache.keySet(at: "u", wanting: "k1") else { Issue.record("a failure"); return }
        #expect(problem.description == "answered HTTP 503")
        guard case .failure = cache.keySet(at: "u", wanting: "k1") else { Issue.record("still a failure"); return }
        #expect(fake.fetches.withLock { $0 } == 1)
        fake.served.withLock { $0 = .success(RemoteKeySetCacheTests.keySet(["k1"])) }
        fake.clock.withLock { $0 += 2 }
        #expect((try? cache.keySet(at: "u", wanting: "k1").get()) != nil)
        fake.served.withLock { $0 = .failure(KeySetProblem(description: "cannot be fetched")) }
        fake.clock.withLock { $0 += 2 }
        guard case .failure = cache.keySet(at: "u", wanting: "k9") else { Issue.record("the refetch failed"); return }
        #expect((try? cache.keySet(at: "u", wanting: "k9").get())?.keys.map(\.keyID) == ["k1"])
    }

    @Test("requests arriving during a fetch wait for it instead of fetching again")
    func oneFetchAtATime() async {
        let fake = Fake()
        fake.delay.withLock { $0 = 200_000 }
        let cache = fake.cache()
        let found = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? cache.keySet(at: "u", wanting: "k1").get()) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(found == 8)
        #expect(fake.fetches.withLock { $0 } == 1)
    }

    @Test("only https, or http on loopback, is fetched")
    func schemes() {
        guard case .failure(let problem) = RemoteKeySetCache.download("http://issuer.example/jwks") else { Issue.record("refused"); return }
        #expect(problem.description.contains("https"))
    }
}
