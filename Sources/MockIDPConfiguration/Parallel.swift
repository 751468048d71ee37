import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Work over many independent items (the tenants of a large configuration) spread over the machine's cores.
enum Parallel {
    /// The processors online.
    static let cores: Int = {
        #if canImport(Glibc)
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        return 1
        #endif
    }()

    /// `body` over contiguous ranges that cover `0..<count` in order, at the same time on up to `cores` threads,
    /// and the results in range order: the same as `[body(0..<count)]` split up. Each range holds at least
    /// `minimumChunk` items, so a small input runs on the calling thread alone.
    ///
    /// The ranges run on other threads: `body` must only read what they share (values, and objects nothing
    /// mutates meanwhile) and keep what it changes to itself.
    static func map<Result>(_ count: Int, minimumChunk: Int, _ body: (Range<Int>) -> Result) -> [Result] {
        let chunks = max(1, min(cores, count / max(1, minimumChunk)))
        guard chunks > 1 else { return [body(0..<count)] }
        return withoutActuallyEscaping(body) { body in
            let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: chunks)
            results.initialize(repeating: nil)
            defer { results.deinitialize().deallocate() }
            let shared = Shared(body: body, results: results)
            let run = { @Sendable (chunk: Int) in
                // Each chunk writes its own slot only; every chunk has returned before the results are read.
                shared.results[chunk] = shared.body(count * chunk / chunks..<count * (chunk + 1) / chunks)
            }
            if let crew = Crew.claim() {
                defer { crew.release() }
                crew.run(chunks: chunks, run)
            } else {
                DispatchQueue.concurrentPerform(iterations: chunks, execute: run)
            }
            return results.map { $0! }
        }
    }

    /// Threads that always run the same chunk of `map`: chunk 0 on the caller, chunk n on worker n. What a chunk
    /// allocates, malloc takes from its thread's arena, and freed memory is reused only within its arena; so when
    /// the same chunk of tenants is composed, decoded, validated and built on one thread, each pass reuses what the
    /// one before freed, and a large load peaks lower than with any thread taking any chunk.
    /// Used by one `map` at a time; a `map` that finds it busy (nested, or on another thread) uses Dispatch.
    private final class Crew: Sendable {
        private static let shared = Crew(workers: cores - 1)
        private let workers: [Worker]
        private let busy = Atomic<Bool>(false)

        private init(workers: Int) {
            self.workers = (0..<workers).map { _ in Worker() }
        }

        static func claim() -> Crew? {
            shared.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged ? shared : nil
        }

        func release() {
            busy.store(false, ordering: .releasing)
        }

        /// Chunks `0..<chunks` (at most one more than the workers), chunk 0 here; returns when all have.
        func run(chunks: Int, _ body: @escaping @Sendable (Int) -> Void) {
            for chunk in 1..<chunks { workers[chunk - 1].start { body(chunk) } }
            body(0)
            for chunk in 1..<chunks { workers[chunk - 1].wait() }
        }
    }

    /// A thread that runs one job at a time, handed over and waited for through semaphores.
    private final class Worker: @unchecked Sendable {  // Unchecked: `job` is written before `start` and read after.
        private let started = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)
        private var job: (@Sendable () -> Void)?

        init() {
            var thread = pthread_t()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            let context = Unmanaged.passRetained(self).toOpaque()
            let created = pthread_create(&thread, &attributes, { context in
                let worker = Unmanaged<Worker>.fromOpaque(context!).takeRetainedValue()
                while true {
                    worker.started.wait()
                    worker.job?()
                    worker.job = nil
                    worker.finished.signal()
                }
            }, context)
            precondition(created == 0, "a thread for configuration work could not be started")
        }

        func start(_ job: @escaping @Sendable () -> Void) {
            self.job = job
            started.signal()
        }

        func wait() {
            finished.wait()
        }
    }

    /// `body` over the ranges of `map` (of `jobs` items), each giving elements through `put` at indices below
    /// `capacity` (default `count`), at most one per index and no index from two ranges; and the elements in index
    /// order as one array, with each range's result. The elements are written where the array keeps them, not
    /// copied there from the ranges' arrays afterwards: a copy of a tenant's entries counts a reference for each of
    /// their values, and the copied-from arrays would be held beside it.
    static func compactMap<Element, Result>(_ jobs: Int, minimumChunk: Int, capacity: Int? = nil,
                                            _ body: (Range<Int>, _ put: (Int, Element) -> Void) -> Result)
        -> (elements: [Element], results: [Result]) {
        var results: [Result] = []
        let count = capacity ?? jobs
        let elements = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            let present = UnsafeMutableBufferPointer<Bool>.allocate(capacity: count)
            present.initialize(repeating: false)
            defer { present.deallocate() }
            let shared = Destination(elements: buffer, present: present)
            results = map(jobs, minimumChunk: minimumChunk) { range in
                body(range) { index, element in
                    precondition(index < count && !shared.present[index], "one element per index")
                    (shared.elements.baseAddress! + index).initialize(to: element)
                    shared.present[index] = true
                }
            }
            // The indices without an element close up, in order.
            for index in 0..<count where present[index] {
                if index != initialized { (buffer.baseAddress! + initialized).moveInitialize(from: buffer.baseAddress! + index, count: 1) }
                initialized += 1
            }
        }
        return (elements, results)
    }

    /// Where the ranges of `compactMap` write, each at its own indices.
    private struct Destination<Element>: @unchecked Sendable {
        let elements: UnsafeMutableBufferPointer<Element>
        let present: UnsafeMutableBufferPointer<Bool>
    }

    /// One optional element per index, each taken out once by whoever needs it (the parts of a list, freed as
    /// they are read).
    final class Slots<Element>: @unchecked Sendable {  // Unchecked: each index is written or taken by one thread.
        private let buffer: UnsafeMutableBufferPointer<Element?>

        init(count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: nil)
        }

        deinit {
            buffer.deinitialize().deallocate()
        }

        subscript(index: Int) -> Element? {
            get { buffer[index] }
            set { buffer[index] = newValue }
        }

        /// The element at `index`, moved out (the slot is left empty).
        func take(at index: Int) -> Element? { buffer[index].take() }
    }

    /// Frees `value` on another thread: the temporaries of a large configuration (an overlay with an origin for every
    /// value, hundreds of thousands of small objects) take a while to free, which its caller need not
    /// wait for. A small value is freed here, which costs less than handing it over.
    static func release<Value>(_ value: consuming Value, unlessSmallerThan items: Int, count: Int) {
        guard count >= items, cores > 1 else { return }
        let box = Box(value)
        DispatchQueue.global(qos: .utility).async { box.value = nil }
    }

    private final class Box<Value>: @unchecked Sendable {
        // Set once here and cleared once on the releasing thread, which alone holds the box then.
        var value: Value?
        init(_ value: consuming Value) { self.value = value }
    }

    /// What the chunks share, under the rule of `map`'s comment.
    private struct Shared<Result>: @unchecked Sendable {
        let body: (Range<Int>) -> Result
        let results: UnsafeMutableBufferPointer<Result?>
    }
}
