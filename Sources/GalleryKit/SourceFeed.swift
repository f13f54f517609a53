import Foundation
import GalleryCore
import Scanning
import SiteOutput
import Synchronization

/// The files of SOURCE as a walker thread finds them, in small batches: one
/// stream hand-off per photo was a measurable share of a no-op rebuild of
/// 30,000 photos. A part of a sharded media build takes only its own files.
struct SourceFeed {
    let batches: AsyncStream<[SourceFile]>
    /// Files left to other parts of a sharded build.
    let otherParts: Counter
    /// How many files the walk found for this build, once it is done.
    let found = FinalCount()
    let ignored: IgnoredFiles
    /// Room for the walker to be ahead of the media step, while it has found
    /// no more files than the last build had: 4 runs of 16 batches, a wait
    /// per run yielded and a signal per run taken (a wait and a signal per
    /// batch: some 60,000 futex calls a no-op). A walk on every core
    /// (`EntryStatuses`) outran a rebuild's media step, and the files found
    /// and not yet looked at raised a no-op's peak by about 8 MB at
    /// 1,000,000 photos. Past the last build's count the walker runs free:
    /// the walk's count sizes the state at once (`MediaTally.reserve`), and
    /// a walk held to a first build's pace ended with it, the state grew by
    /// doubling, and the first build of 1,000,000 photos was killed in a
    /// 1 GB cgroup. Made empty and given its runs in `start`: libdispatch
    /// traps when a semaphore goes away below the value it was made with.
    let room = DispatchSemaphore(value: 0)
    static let batchSize = 32, batchesPerRun = 16, runsAhead = 4
    static var batchesAhead: Int { batchesPerRun * runsAhead }
    /// Batches the media step has taken (counted on its task alone).
    final class Taken: @unchecked Sendable { var count = 0 }
    let taken = Taken()

    /// Called by the media step for each batch it takes: every run taken makes room for another.
    func took() {
        taken.count += 1
        if taken.count % Self.batchesPerRun == 0 { room.signal() }
    }

    /// Set when the stream ends: a walker whose batches are no longer taken
    /// (the media step's task cancelled) goes on without waiting for room.
    let ended = Flag()

    /// Starts the walker; `heldUpTo` is how many files the last build had (see `room`).
    static func start(settings: BuildSettings, shard: Shard?, progress: ProgressReporter, skipping skipped: Set<String> = [],
                      memory: ScanMemory? = nil, heldUpTo: Int) -> SourceFeed {
        let scanner = SourceScanner(root: settings.source, excluding: [settings.output])
        let (stream, continuation) = AsyncStream<[SourceFile]>.makeStream()
        let feed = SourceFeed(batches: stream, otherParts: Counter(), ignored: IgnoredFiles())
        for _ in 0..<runsAhead { feed.room.signal() }
        // A wait begun before the flag was set is let go by this one signal.
        continuation.onTermination = { _ in
            feed.ended.set()
            feed.room.signal()
        }
        let options = ScanOptions(followSymlinks: settings.followSymlinks, pairRaw: settings.rawPairs == .preferJPEG, skippedFiles: skipped)
        let walker = Thread {
            var batch: [SourceFile] = [], found = 0, yielded = 0
            scanner.walk(options, memory: memory) { event in
                switch event {
                case .media(let file):
                    // The key is read here, on the walker's thread, beside the scan's own file system work.
                    if let shard, shard.phase == .media {
                        guard shard.owns(key: SourceFileReader.shardKey(of: file)) else {
                            feed.otherParts.add()
                            return
                        }
                    }
                    progress.photoFound()
                    found += 1
                    batch.append(file)
                    if batch.count == batchSize {
                        if yielded % batchesPerRun == 0, found <= heldUpTo, !feed.ended.isSet { feed.room.wait() }
                        continuation.yield(batch)
                        yielded += 1
                        batch.removeAll(keepingCapacity: true)
                    }
                case .unreadable(let path, let reason):
                    progress.message("skipped folder \(DisplayText.oneLine(path.isEmpty ? "." : path)): \(reason)")
                case .ignored(let path):
                    feed.ignored.add(path)
                case .pairedRaw(let path):
                    feed.ignored.addPairedRaw(path)
                case .takeoutFolder(let tally):
                    feed.ignored.addTakeout(tally)
                case .iCloudFolder(let media, let tables):
                    feed.ignored.addICloud(media: media, tables: tables)
                case .album, .takeoutAlbum, .takeoutYearFolder, .iCloudLibraryFolder, .iCloudAlbum:
                    break  // sidecars were read before any image work
                }
            }
            if !batch.isEmpty { continuation.yield(batch) }
            feed.found.set(found)
            progress.scanDone()
            continuation.finish()
        }
        walker.stackSize = 4 << 20
        walker.start()
        return feed
    }
}

/// A count set once, when it is final, by another thread; nil until then.
final class FinalCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int?

    func set(_ value: Int) { lock.withLock { count = value } }
    var value: Int? { lock.withLock { count } }
}

/// A count kept on the walker's thread and read after it ends.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Files of types gallerygen does not publish, as the walk finds them (on the
/// walker's thread), for the summary.
final class IgnoredFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [String] = []
    private var paired: [String] = []
    private var takeoutFolders: TakeoutTally?

    func add(_ path: String) { lock.withLock { found.append(path) } }
    func addPairedRaw(_ path: String) { lock.withLock { paired.append(path) } }
    func addTakeout(_ tally: TakeoutTally) { lock.withLock { takeoutFolders = (takeoutFolders ?? TakeoutTally()).adding(tally) } }
    private var iCloudFolders: (media: Int, tables: Int)?
    func addICloud(media: Int, tables: Int) {
        lock.withLock { iCloudFolders = ((iCloudFolders?.media ?? 0) + media, (iCloudFolders?.tables ?? 0) + tables) }
    }
    /// The iCloud download's folders' media and tables summed (nil: none in SOURCE).
    var iCloud: (media: Int, tables: Int)? { lock.withLock { iCloudFolders } }

    var paths: [String] { lock.withLock { found } }
    var pairedRaw: [String] { lock.withLock { paired } }
    /// The Takeout folders' counts summed (nil: SOURCE holds no Takeout export).
    var takeout: TakeoutTally? { lock.withLock { takeoutFolders } }
}
