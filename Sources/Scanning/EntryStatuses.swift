import Foundation

/// The `lstat` of a folder's entries, a large folder's shared with helper
/// threads of one walk's own.
///
/// A rebuild's walk is one `lstat` per file, and at 1,000,000 files the
/// kernel's path lookups were three quarters of the walking thread's time
/// while the other core was two fifths busy: asked from one thread, the
/// walk was most of a no-op. The helpers are threads of their own, not
/// dispatch's: the media step's tasks run on dispatch's threads, and a walk
/// that woke more of them raised a no-op's peak by 35 MB in some runs.
final class EntryStatuses: @unchecked Sendable {
    /// A file's `lstat` (the C struct: `stat` alone names the function in an expression).
    typealias Status = stat

    /// Below this many entries a folder is asked from the walking thread alone:
    /// waking a helper costs about as much as a few dozen `lstat`s.
    static let smallestShared = 64
    /// Entries taken at a time by the walker or a helper.
    static let chunk = 16
    /// The most entries of one folder asked at once (`SourceScanner.walk`).
    static let window = 4096

    /// The folder being asked: its paths, where their statuses go, the next
    /// entry not taken, and how many chunks are being asked now.
    private struct Job {
        let paths: [[CChar]]
        let slots: UnsafeMutablePointer<Status?>
        var next = 0
        var busy = 0
    }

    /// Guards `job` and `stopping`; signalled when the last busy chunk is done.
    private let condition = NSCondition()
    private var job: Job?
    private var stopping = false
    /// A signal per helper per shared folder. A helper that wakes late finds
    /// the folder done and sleeps again: the walker waits only for chunks
    /// taken, never for a helper to be scheduled (the other core is busy
    /// with the media step, and waiting for each helper to wake made the
    /// walk slower than on one thread).
    private let started = DispatchSemaphore(value: 0)
    private let helpers: Int

    /// Helpers started so far: the first large folder starts them, so a walk
    /// of small folders (or of folders only) starts no thread.
    private var running = 0

    /// One helper per other core, or none (a walk of folders only, which
    /// asks few entries); `stop()` ends them.
    init(shared: Bool = true) {
        helpers = shared ? max(0, ProcessInfo.processInfo.activeProcessorCount - 1) : 0
    }

    private func startHelpers() {
        while running < helpers {
            let helper = Thread { [self] in
                while true {
                    started.wait()
                    if condition.withLock({ stopping }) { break }
                    work()
                }
            }
            helper.stackSize = 256 << 10
            helper.start()
            running += 1
        }
    }

    /// Ends the helpers (after the walk: no folder is being asked).
    func stop() {
        condition.withLock { stopping = true }
        for _ in 0..<running { started.signal() }
    }

    /// Each path's `lstat`, nil where it failed (gone since the folder was listed,
    /// no permission). The paths end in a NUL: the helpers allocate nothing.
    func of(_ paths: [[CChar]]) -> [Status?] {
        guard paths.count >= Self.smallestShared, helpers > 0 else { return paths.map(Self.status) }
        startHelpers()
        var statuses = [Status?](repeating: nil, count: paths.count)
        statuses.withUnsafeMutableBufferPointer { buffer in
            condition.withLock { job = Job(paths: paths, slots: buffer.baseAddress!) }
            for _ in 0..<helpers { started.signal() }
            work()
            // Every chunk taken is written before the buffer goes away.
            condition.withLock {
                while job!.busy > 0 { condition.wait() }
                job = nil
            }
        }
        return statuses
    }

    /// Takes chunks of the folder being asked until none is left.
    private func work() {
        while let (paths, slots, range) = take() {
            for index in range { slots[index] = Self.status(paths[index]) }
            condition.withLock {
                job!.busy -= 1
                if job!.busy == 0 { condition.broadcast() }
            }
        }
    }

    private func take() -> ([[CChar]], UnsafeMutablePointer<Status?>, Range<Int>)? {
        condition.withLock {
            guard var current = job, current.next < current.paths.count else { return nil }
            let start = current.next
            current.next = min(start + Self.chunk, current.paths.count)
            current.busy += 1
            job = current
            return (current.paths, current.slots, start..<current.next)
        }
    }

    /// `path`'s `lstat`, or nil (`path` ends in a NUL).
    static func status(_ path: [CChar]) -> Status? {
        var info = Status()
        return lstat(path, &info) == 0 ? info : nil
    }
}
