import Glibc

/// Wakes the thread that stops a server when a listener's last request in flight completes, so `HTTPServer.stop`
/// sleeps until then (or its grace period ends) instead of polling. A pthread mutex and condition variable on the
/// monotonic clock, owned here.
final class DrainSignal: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Wakes every waiter; call after the state a waiter checks has changed.
    func notify() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until `isDone()` or until `deadline` (CLOCK_MONOTONIC) has passed; returns `isDone()`.
    func wait(until deadline: timespec, _ isDone: () -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var deadline = deadline
        while !isDone() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return isDone() }
        }
        return true
    }

    /// The CLOCK_MONOTONIC time `duration` from now.
    static func deadline(after duration: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = duration.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        wholeSeconds += nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }
}
