import Foundation
import GalleryCore
import Scanning
import SiteOutput
import Synchronization

/// The files of SOURCE as a walker thread finds them, in small batches: one
/// stream hand-off per photo was a measurable share of a no-op rebuild of
/// 30,000 photos. A part of a sharded media build takes only its own files.
///
/// The stream is not bounded: a first build's walk ends long before the
/// photos are read, and its count sizes the next state at once
/// (`MediaTally.reserve`). A walker held to the media step's pace ended
/// with it, the state grew by doubling, and a first build of 1,000,000
/// photos was killed in a 1 GB cgroup.
struct SourceFeed {
    let batches: AsyncStream<[SourceFile]>
    /// Files left to other parts of a sharded build.
    let otherParts: Counter
    /// How many files the walk found for this build, once it is done.
    let found = FinalCount()
    let ignored: IgnoredFiles

    static func start(settings: BuildSettings, shard: Shard?, progress: ProgressReporter, skipping skipped: Set<String> = [],
                      memory: ScanMemory? = nil) -> SourceFeed {
        let scanner = SourceScanner(root: settings.source, excluding: [settings.output])
        let (stream, continuation) = AsyncStream<[SourceFile]>.makeStream()
        let feed = SourceFeed(batches: stream, otherParts: Counter(), ignored: IgnoredFiles())
        let options = ScanOptions(followSymlinks: settings.followSymlinks, pairRaw: settings.rawPairs == .preferJPEG, skippedFiles: skipped)
        let walker = Thread {
            var batch: [SourceFile] = [], found = 0
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
                    if batch.count == 32 {
                        continuation.yield(batch)
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
