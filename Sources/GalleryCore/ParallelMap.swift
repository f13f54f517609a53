import Foundation

/// `transform` of every element, in order, computed on every core: the
/// input is cut into runs (eight per core) that the calling thread and one
/// helper thread per other core take in turn, each writing its own slots.
///
/// Helpers are threads of their own, not `DispatchQueue.concurrentPerform`:
/// called from inside a `concurrentPerform` worker (a page job, such as the
/// search index, while the other pages render), dispatch runs a nested one
/// on the calling thread alone.
///
/// `transform` escapes into the helpers (a thread keeps its closure until it
/// is gone, after it has signalled the end of its work). Fewer elements than
/// `minimumCount` are mapped on the calling thread: for cheap transforms,
/// starting threads costs more than it saves.
public func parallelMap<Element: Sendable, Result: Sendable>(_ input: [Element], minimumCount: Int = 65,
                                                             _ transform: @escaping @Sendable (Element) -> Result) -> [Result] {
    guard input.count >= max(2, minimumCount) else { return input.map(transform) }
    let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    guard workers > 1 else { return input.map(transform) }
    var results = [Result?](repeating: nil, count: input.count)
    let runs = min(input.count, workers * 8)
    let queue = RunQueue(count: runs)
    results.withUnsafeMutableBufferPointer { slots in
        let base = Slots(pointer: slots.baseAddress!)
        let work = { @Sendable in
            while let run = queue.take() {
                let start = input.count * run / runs, end = input.count * (run + 1) / runs
                for index in start..<end { base.pointer[index] = transform(input[index]) }
            }
        }
        let finished = DispatchSemaphore(value: 0)
        for _ in 1..<workers {
            let helper = Thread {
                work()
                finished.signal()
            }
            helper.stackSize = 1 << 20
            helper.start()
        }
        work()
        // Every helper's work is done before the slots go away.
        for _ in 1..<workers { finished.wait() }
    }
    return results.map { $0! }
}

/// The runs not taken yet.
private final class RunQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}

/// The results' storage: each run writes only its own slots.
private struct Slots<Result>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Result?>
}

/// `strings` in ascending order, each half sorted on a core of its own and
/// the two merged: a changed build state sorts 300,000 paths and twice
/// 100,000 keys, a second on one core at 100,000 photos.
public func parallelSorted(_ strings: [String]) -> [String] {
    guard strings.count >= 4096, ProcessInfo.processInfo.activeProcessorCount > 1 else { return strings.sorted() }
    let middle = strings.count / 2
    let halves = parallelMap([0, 1], minimumCount: 2) { half in
        half == 0 ? strings[..<middle].sorted() : strings[middle...].sorted()
    }
    return mergeSorted(halves[0], halves[1])
}

/// Two ascending lists as one ascending list (the first's element first where equal).
public func mergeSorted(_ first: [String], _ second: [String]) -> [String] {
    var merged: [String] = []
    merged.reserveCapacity(first.count + second.count)
    var i = 0, j = 0
    while i < first.count, j < second.count {
        if second[j] < first[i] {
            merged.append(second[j])
            j += 1
        } else {
            merged.append(first[i])
            i += 1
        }
    }
    merged += first[i...]
    merged += second[j...]
    return merged
}

/// A value being made on a thread of its own, started at once; `value`
/// waits for it. For two independent pieces of one step: the site map lays
/// out every page's path while the timeline is sorted into moments.
public final class Eventually<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Value?
    /// Read and written by the threads that wait, one after another (the
    /// plan's, then the page job's: the render starts after the plan).
    private var waited = false

    public init(_ make: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            result = make()
            done.signal()
        }
        thread.stackSize = 8 << 20  // the album tree is walked recursively
        thread.start()
    }

    /// Waits until the value is made (the first call waits, and the
    /// semaphore orders the maker's write before any read).
    public func wait() {
        if !waited {
            done.wait()
            waited = true
        }
    }

    /// The value, once made; asked for before it is taken.
    public var value: Value {
        wait()
        return result!
    }

    /// The value, handed over: held here no more (nil when taken already).
    /// For a value as large as the step's other tables that one reader
    /// uses and can let go of before the step ends.
    public func take() -> Value? {
        wait()
        defer { result = nil }
        return result
    }
}

/// `0..<count` cut into `runs` ranges of nearly equal length, in order
/// (some empty when `count` is smaller): the runs work is spread over cores in.
public func evenRuns(of count: Int, _ runs: Int) -> [Range<Int>] {
    (0..<runs).map { count * $0 / runs ..< count * ($0 + 1) / runs }
}
