import SiteOutput
import Foundation
import GalleryCore
import Metadata
import Planning
import Scanning
import Synchronization

/// Scans SOURCE and processes media while the scan is still running, with at
/// most `jobs` items in flight so decoded bitmaps never pile up.
struct ProcessMediaStep: BuildStep {
    let name = "process media"
    let letsGoOfMuch = true

    func run(_ context: inout BuildContext) async throws {
        let settings = context.settings
        let progress = context.progress
        let output = try context.openOutput()
        let video = VideoWork(settings: settings, output: output, progress: progress)
        // The place table (3 MB) is read only when places are wanted.
        let places = settings.momentPlaces ? try PlaceFinder.load() : nil
        let faces = FacesStep.startFaceWork(&context, output: output)
        let yearCopies = TakeoutYearCopies(yearFolders: context.takeoutYearFolders)
        let processor = MediaProcessor(settings: settings, output: output, video: video, places: places,
                                       vaults: context.albumKeys.mapValues(\.vault), faces: faces, yearCopies: yearCopies)
        let shard = context.shard
        let feed = SourceFeed.start(settings: settings, shard: shard, progress: progress, skipping: context.passphraseFiles,
                                    memory: context.scanMemory, heldUpTo: context.previousState.photos.count)
        // The previous build's cache becomes this one's, entry by entry: one
        // dictionary, not a second of 100,000 entries beside it.
        var tally = MediaTally(report: context.report, progress: progress, cache: context.previousState.photos,
                               keepsChangedKeys: context.previousState.hasBaseFile)
        // Unchanged items are deferred (`DeferredItems`) unless a step of this
        // build reads every item anyway: the faces, the downloads, a sharded
        // build's parts, Takeout's copies folded into its albums.
        tally.defers = shard == nil && !context.mergedParts && faces == nil && !settings.values.albumDownloads
            && yearCopies.yearFolders.isEmpty && context.takeoutAlbumFolders.isEmpty
        if tally.defers { tally.deferred.expect(tally.cache.count) }
        context.previousState.photos = [:]
        let madeSomething = Flag()
        var sized = false
        // Each outcome travels with its file's cache key, made once per file.
        await withTaskGroup(of: (PhotoKey, MediaOutcome).self) { group in
            var inFlight = 0
            // Takeout year folders' files, held until every other item is known (which of them fold).
            var held: [SourceFile] = []
            func schedule(_ file: SourceFile) async {
                guard tally.fault == nil else { return }
                if !sized, let found = feed.found.value {
                    tally.reserve(found)
                    sized = true
                }
                if yearCopies.mustWait(file) {
                    held.append(file)
                    return
                }
                // An unchanged photo with every rendition in place costs a
                // plan and a few existence checks: cheaper than a task.
                let key = BuildState.key(for: file.relativePath)
                let known: (CachedPhoto, RenditionPlan)?
                // A file that was read made something this build: the items are made from here on.
                if tally.defers, madeSomething.isSet { tally.defers = false }
                let entry = tally.cache.index(forKey: key)
                switch processor.triage(file, cached: entry.map { tally.cache.values[$0] }) {
                case .unchanged(let outcome):
                    tally.record(outcome, key: key)
                    return
                case .complete(let cached, let plan, let detached):
                    if tally.defers, let entry {
                        tally.recordDeferred(file, cached, plan, detachedClip: detached, key: key, entry: entry)
                    } else {
                        tally.record(MediaProcessor.published(file, cached, plan, detachedClip: detached), key: key)
                    }
                    return
                case .incomplete(let cached, let plan): known = (cached, plan)
                case .unknown: known = nil
                }
                // A page part makes no media: an item the media parts have
                // not finished is left to the last whole build, which plans
                // the site again and renders every page that comes out otherwise.
                if shard?.phase == .pages {
                    progress.photoDone()
                    feed.otherParts.add()
                    return
                }
                if inFlight >= settings.jobs, let (doneKey, outcome) = await group.next() {
                    tally.record(outcome, key: doneKey)
                    inFlight -= 1
                }
                group.addTask {
                    let outcome = processor.process(file, known: known)
                    if outcome.recordsAnEntry { madeSomething.set() }
                    return (key, outcome)
                }
                inFlight += 1
            }
            for await batch in feed.batches {
                feed.took()
                for file in batch { await schedule(file) }
            }
            func finish() async {
                while true {
                    while !tally.detachedClips.isEmpty { await schedule(tally.detachedClips.removeFirst()) }
                    guard let (key, outcome) = await group.next() else { break }
                    tally.record(outcome, key: key)
                }
                inFlight = 0
            }
            await finish()
            if !yearCopies.yearFolders.isEmpty {
                yearCopies.hold(tally.items)
                for file in held { await schedule(file) }
                await finish()
            }
        }
        progress.finish()
        // The face models are let go here, before the heap is handed back after this step.
        faces?.finishFinding()
        if let fault = tally.fault { throw fault }
        // Deferred items stay so only when nothing changed: otherwise the
        // pages are planned, and the items made now, with the entries at hand
        // (before an unseen one is removed: each record knows its entry's place).
        var deferred: DeferredItems?
        if !tally.deferred.isEmpty {
            if tally.cacheChanged || !tally.items.isEmpty || !tally.allSeen {
                // In the walk's order (all are sorted by path below), a part
                // of the records let go of as its items are made.
                tally.items += try DeferredItems.items(consuming: tally.takeDeferred(), entries: tally.cache, planner: processor.planner)
            } else {
                deferred = DeferredItems(records: tally.takeDeferred(), entries: tally.cache, planner: processor.planner)
            }
        }
        tally.removeUnseen()
        context.photoCacheUnchanged = !tally.cacheChanged
        context.changedPhotos = tally.changedKeys
        // A whole build commits its state from the previous state's file:
        // the entries that did not change stay there, not in memory. Without
        // such a file (a first build), its entries are set aside in one.
        let whole = shard == nil && !context.mergedParts
        if whole, !context.previousState.hasBaseFile, deferred == nil,
           output.settingEntriesAside(tally.cache, previous: &context.previousState) {
            context.photoCache = [:]
            context.photoCountWithBase = tally.cache.count
            context.changedPhotos = []
            ReleasedLater.drop(tally.takeCache())
        } else if whole, let changed = try context.previousState.leavingUnchangedPhotosInBase(tally.cache, changed: tally.changedKeys) {
            context.photoCache = changed
            context.photoCountWithBase = tally.cache.count
            let entries = tally.takeCache()
            if deferred == nil { ReleasedLater.drop(entries) }
        } else {
            context.photoCache = tally.takeCache()
        }
        // Scan order depends on job timing; the site must not.
        context.items = Self.sortedByPath(tally.items)
        context.deferredItems = deferred
        // A photo in several public Takeout albums: one item, listed by each (a private album keeps its own copy).
        let vaults = context.albumKeys.mapValues(\.vault)
        let publicAlbums = context.takeoutAlbumFolders.filter { vaults.nearest(to: $0) == nil }
        let (kept, listed, folded) = TakeoutAlbumCopies.folded(context.items, albums: publicAlbums)
        if folded > 0 {
            let videos = { (items: [MediaItem]) in items.count { $0.kind == MediaKind.video } }
            tally.report.videos -= videos(context.items) - videos(kept)
            context.items = kept
            context.albumReferences.merge(listed) { $0 + $1 }
            tally.report.takeoutAlbumCopiesFolded = folded
            tally.report.published -= folded
        }
        tally.report.inOtherParts = feed.otherParts.value
        tally.report.ignored = feed.ignored.paths
        tally.report.pairedRaw = feed.ignored.pairedRaw
        tally.report.takeout = feed.ignored.takeout
        tally.report.iCloud = feed.ignored.iCloud
        tally.report.warnings += processor.rules.exportTables.problems
        tally.report.exportSidecarProblems = processor.rules.exportTables.sidecarSummary
        context.report = tally.report
        // A page part claims its pages only: the media are the media parts'.
        if shard?.phase != .pages {
            context.producedFiles.appendRenditions(of: context.items)
        }
    }
}

extension ProcessMediaStep {
    /// `items` in the order of their paths in SOURCE, each path made once
    /// (not twice per comparison, 3.4 million times for 100,000 items).
    static func sortedByPath(_ items: [MediaItem]) -> [MediaItem] {
        let paths = items.map(\.source.relativePath)
        return paths.indices.sorted { paths[$0] < paths[$1] }.map { items[$0] }
    }
}

/// What the media step has gathered so far: published items, the next
/// build's cache, the report's counts, and the first fault of OUT.
struct MediaTally {
    var items: [MediaItem] = []
    /// Unchanged published files whose items are not made (`DeferredItems`),
    /// while `defers`: until the first change, after which every item is made.
    var deferred = DeferredItems.Records()
    var defers = false
    /// The previous build's entries, replaced one by one as files are
    /// recorded; those of files not seen this build are removed at the end.
    private(set) var cache: PhotoEntries
    /// True once an entry differs from the previous build's (or one is new or gone).
    private(set) var cacheChanged = false
    /// The keys of the entries that differ from the previous build's (new,
    /// changed or gone), when kept: a state committed from the previous
    /// one's file wants them; a first build's would be every key.
    private(set) var changedKeys: Set<PhotoKey> = []
    private let keepsChangedKeys: Bool
    /// Files recorded with an entry: each file the walk finds (or a still
    /// detaches) is scheduled once and has one outcome, so this counts keys.
    private var entriesRecorded = 0
    /// Which of `cache`'s entries this build recorded, by their place in it
    /// (no entry is removed before `removeUnseen`): a bit an entry, set as it
    /// is stored, so finding the unseen hashes no path again and holds no
    /// set of every key beside the items.
    private var recorded: [Bool] = []
    var report: BuildReport
    let progress: ProgressReporter
    /// Takeout year folders' copies of album items (cached, not published).
    var foldedCopies: [String] = []
    /// Clips named like a still that were not its Live Photo motion.
    var detachedClips: [SourceFile] = []
    /// The first fault of OUT (full, read-only, …): nothing more is
    /// started, and the build stops with it once the photos in flight end.
    var fault: OutputError?

    /// `cache`: the previous build's; its count sizes the items once (grown
    /// by doubling, the array was copied a dozen times at 100,000 photos).
    init(report: BuildReport, progress: ProgressReporter, cache: PhotoEntries, keepsChangedKeys: Bool) {
        self.keepsChangedKeys = keepsChangedKeys
        self.report = report
        self.progress = progress
        self.cache = cache
        items.reserveCapacity(cache.count)
    }

    /// Records an unchanged published file (`MediaProcessor.Triage.complete`)
    /// without making its item, as `record` would count it.
    /// `index`: the entry's place in `cache`.
    mutating func recordDeferred(_ file: SourceFile, _ entry: CachedPhoto, _ plan: RenditionPlan, detachedClip: SourceFile?, key: PhotoKey,
                                 entry index: Int) {
        progress.photoDone()
        if let note = plan.note { progress.message("note: \(file.displayPath): \(note)") }
        if let detachedClip {
            progress.photoFound()
            detachedClips.append(detachedClip)
        }
        if entry.metadata.kind == .video { report.videos += 1 }
        deferred.append(DeferredItems.Record(file: file, entry: Int32(index),
                                             inputs: DeferredItems.inputs(file, contentHash: entry.contentHash, metadata: entry.metadata,
                                                                          renditions: plan.renditions)))
        store(entry, for: key)
        report.published += 1
        report.renditionsReused += plan.reused
    }

    /// Makes room for the entries of `files` files at once, once the walk
    /// has found them all (long before they are read). A first build's
    /// entries otherwise grew by doubling, and the last doubling held the
    /// entries and their copy of twice the size at once.
    mutating func reserve(_ files: Int) {
        cache.reserveCapacity(files)
    }

    /// Every entry of `cache` was recorded by this build (none to remove).
    var allSeen: Bool { cache.count == entriesRecorded }

    /// Drops the entries of files this build did not record (removed,
    /// skipped, or another part's): the cache then holds this build's alone.
    mutating func removeUnseen() {
        guard cache.count != entriesRecorded else { return }
        // Gathered first: removing moves the last entry into the gap.
        let unseen = Self.unrecorded(cache.keys, recorded: recorded)
        for key in unseen { cache.removeValue(forKey: key) }
        if !unseen.isEmpty { cacheChanged = true }
        if keepsChangedKeys { changedKeys.formUnion(unseen) }
    }

    /// The keys not marked in `recorded` (a list of them, not a reference
    /// to `keys` held while the entries are removed: the array copied whole).
    private static func unrecorded(_ keys: [PhotoKey], recorded: [Bool]) -> [PhotoKey] {
        keys.indices.filter { $0 >= recorded.count || !recorded[$0] }.map { keys[$0] }
    }

    /// The deferred files, handed on (the tally keeps none: one list, not two).
    mutating func takeDeferred() -> DeferredItems.Records {
        defer { deferred = DeferredItems.Records() }
        return deferred
    }

    /// The cache, handed on (the tally keeps none: one dictionary, not two).
    mutating func takeCache() -> PhotoEntries {
        defer { cache = [:] }
        return cache
    }

    private mutating func store(_ entry: CachedPhoto, for key: PhotoKey) {
        let (replaced, index) = cache.updateValueAndIndex(entry, forKey: key)
        if replaced != entry {
            cacheChanged = true
            defers = false
            if keepsChangedKeys { changedKeys.insert(key) }
        }
        if recorded.count <= index {
            recorded.append(contentsOf: repeatElement(false, count: Swift.max(index + 1, cache.count) - recorded.count))
        }
        recorded[index] = true
        entriesRecorded += 1
    }

    /// Records the outcome of the file whose cache key is `key`.
    mutating func record(_ outcome: MediaOutcome, key: PhotoKey) {
        progress.photoDone()
        switch outcome {
        case .published(let photo, let made, let reused, let entry, let note, let detached, let dropped):
            if let note { progress.message("note: \(photo.source.displayPath): \(note)") }
            report.droppedRegions.add(dropped)
            if let detached {
                progress.photoFound()
                detachedClips.append(detached)
            }
            if photo.kind == .video { report.videos += 1 }
            items.append(photo)
            defers = false
            store(entry, for: key)
            report.published += 1
            report.renditionsMade += made
            report.renditionsReused += reused
        case .leftOut(let file, let reason, let entry):
            store(entry, for: key)
            report.leftOut.append(SkippedPhoto(path: file.relativePath, reason: reason))
        case .folded(let file, let entry):
            store(entry, for: key)
            foldedCopies.append(file.relativePath)
            report.takeoutCopiesFolded += 1
        case .skipped(let file, let reason):
            report.skipped.append(SkippedPhoto(path: file.relativePath, reason: reason))
            progress.message("skipped \(file.displayPath): \(reason)")
        case .stopped(let error):
            if fault == nil { fault = error }
        case .vanished:
            break
        }
    }
}

/// Set once by any thread, read by the media step as it schedules files.
final class Flag: Sendable {
    private let value = Atomic(false)

    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}
