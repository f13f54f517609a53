import SiteOutput
import GalleryCore

/// The items of a rebuild whose media step found nothing changed, made only
/// when a step needs them.
///
/// An unchanged file with every rendition in OUT is published as its state
/// entry with its plan's renditions. Whether the pages are the previous
/// build's is decided from each item's inputs digest alone
/// (`RenderPagesStep.siteInputs`), so a no-op build needs no item: made for a
/// million unchanged files, the items (an object, its renditions and their
/// paths: 400 heap bytes each) were a third of the no-op's peak, for
/// nothing. When they are needed (the media step found a file added,
/// changed or gone; or a later step plans the site: a setting, a sidecar,
/// people.yml changed, a page is missing from OUT), they are made from the
/// entries, their renditions planned anew: the plan the media step checked
/// OUT with. Deferring stops at the first file the media step reads and
/// publishes, so an add makes few of them this way.
struct DeferredItems: Sendable {
    /// A published file whose item is not made yet, and the digest of what
    /// the pages show of it.
    struct Record: Sendable {
        let file: SourceFile
        /// Its entry's place in `entries` (no entry is removed while items are deferred).
        let entry: Int32
        let inputs: StableHash.Digest
    }

    /// The records in the order the media step met them, in parts of their
    /// own: made into items part by part, each let go of once its items are
    /// made, so a removal's million records are not all held beside the
    /// million items made from them (its media step's peak).
    struct Records: Sendable {
        static let partSize = 1 << 16
        private(set) var parts: [[Record]] = []
        private(set) var count = 0
        /// How many records the build expects (each part sized for the rest, up to `partSize`).
        private var expected = 0

        var isEmpty: Bool { count == 0 }

        mutating func expect(_ count: Int) { expected = count }

        mutating func append(_ record: Record) {
            if count % Self.partSize == 0 {
                var part: [Record] = []
                part.reserveCapacity(Swift.min(Self.partSize, Swift.max(16, expected - count)))
                parts.append(part)
            }
            parts[parts.count - 1].append(record)
            count += 1
        }

        subscript(index: Int) -> Record { parts[index / Self.partSize][index % Self.partSize] }

        /// Part `index`, no longer held here.
        mutating func takePart(_ index: Int) -> [Record] {
            defer { parts[index] = [] }
            return parts[index]
        }
    }

    /// In the order the media step met them.
    private let records: Records
    /// `records`' indices in the order of their paths in SOURCE (the items'
    /// order): sorting the records themselves took a scratch copy of half
    /// of them, a twentieth of a no-op's peak.
    private let order: [Int32]
    /// The state's entries the items are made from (each record's at its place).
    let entries: PhotoEntries
    let planner: RenditionPlanner

    init(records: Records, entries: PhotoEntries, planner: RenditionPlanner) {
        order = (0..<Int32(records.count)).sorted { records[Int($0)].file.relativePath < records[Int($1)].file.relativePath }
        self.records = records
        self.entries = entries
        self.planner = planner
    }

    var count: Int { records.count }

    /// The inputs digest of the item at `place` in path order (`inputs(of:)` of it, made).
    func inputs(at place: Int) -> StableHash.Digest { records[Int(order[place])].inputs }

    /// Calls `body` with each record's source file (in the media step's order).
    func forEachFile(_ body: (SourceFile) -> Void) {
        for part in records.parts { for record in part { body(record.file) } }
    }

    /// The items, in path order, planned on every core.
    func items() throws(GalleryError) -> [MediaItem] {
        let records = records, order = order, entries = entries, planner = planner
        let made = parallelMap(evenRuns(of: order.count, 16), minimumCount: 2) { range in
            range.map { Self.item(records[Int(order[$0])], entries: entries, planner: planner) }
        }
        var items: [MediaItem] = []
        items.reserveCapacity(records.count)
        try Self.append(made, to: &items)
        return items
    }

    /// The items of `records`, in their order, planned on every core: each
    /// part of the records let go of once its items are made.
    static func items(consuming records: consuming Records, entries: PhotoEntries, planner: RenditionPlanner) throws(GalleryError) -> [MediaItem] {
        var items: [MediaItem] = []
        items.reserveCapacity(records.count)
        for index in records.parts.indices {
            let part = records.takePart(index)
            try append(parallelMap(evenRuns(of: part.count, 4), minimumCount: 2) { range in
                range.map { item(part[$0], entries: entries, planner: planner) }
            }, to: &items)
        }
        return items
    }

    /// The item of `record`: its entry's, with its renditions planned anew
    /// (the plan the media step found every file of in OUT); nil if the
    /// entry is not the one the media step matched the file with (its size and time).
    private static func item(_ record: Record, entries: PhotoEntries, planner: RenditionPlanner) -> MediaItem? {
        let file = record.file
        guard entries.values.indices.contains(Int(record.entry)) else { return nil }
        let cached = entries.values[Int(record.entry)]
        guard cached.size == file.byteCount, cached.modified == file.modifiedNanoseconds else { return nil }
        let plan = planner.plan(contentHash: cached.contentHash, metadata: cached.metadata, clipHash: cached.clip?.contentHash,
                                album: file.albumPath, inOutput: true)
        return cached.item(file, renditions: plan.renditions)
    }

    private static func append(_ made: [[MediaItem?]], to items: inout [MediaItem]) throws(GalleryError) {
        for run in made {
            for item in run {
                guard let item else { throw .invalidSetting("internal: an unchanged item's state entry is gone") }
                items.append(item)
            }
        }
    }

    /// What the pages show of an item: path, content, modification times,
    /// words, place, renditions. Equal digests of every item (and of the
    /// rest, `RenderPagesStep.siteInputs`) mean equal pages.
    static func inputs(of item: MediaItem) -> StableHash.Digest {
        inputs(item.source, contentHash: item.contentHash, metadata: item.metadata, renditions: item.renditions)
    }

    /// `inputs(of:)` of the item `file`, `metadata` and `renditions` make.
    static func inputs(_ file: SourceFile, contentHash: ContentHash, metadata: PhotoMetadata, renditions: [Rendition]) -> StableHash.Digest {
        var hasher = StableHash()
        hasher.add(file.relativePath)
        hasher.add(contentHash)
        hasher.add(UInt64(bitPattern: file.modifiedNanoseconds))
        hasher.add(UInt64(bitPattern: file.livePhotoClip?.modifiedNanoseconds ?? 0))
        let words = metadata.words
        hasher.add(words.title ?? "\u{1}")
        hasher.add(words.caption ?? "\u{1}")
        hasher.add(words.keywords.count)
        for keyword in words.keywords { hasher.add(keyword) }
        hasher.add(words.rating ?? -9)
        hasher.add(words.people.count)
        for person in words.people { hasher.add(person) }
        hasher.add(words.faces.count)
        for face in words.faces {
            hasher.add(face.name)
            for value in [face.area.x, face.area.y, face.area.width, face.area.height] { hasher.add(value.bitPattern) }
        }
        hasher.add(metadata.place?.key ?? "\u{1}")
        hasher.add(renditions.count)
        for rendition in renditions { hasher.add(pathOf: rendition) }
        return hasher.digest()
    }
}

extension BuildContext {
    /// How many items the build publishes, made or deferred.
    var itemCount: Int { deferredItems?.count ?? items.count }

    /// Calls `body` with the source file of each item the build publishes,
    /// made or deferred (in no particular order).
    func forEachPublishedSource(_ body: (SourceFile) -> Void) {
        if let deferredItems { deferredItems.forEachFile(body) } else { for item in items { body(item.source) } }
    }

    /// Makes the deferred items (`DeferredItems`), if any, and adds their
    /// renditions to the files produced: for a step that reads the items.
    mutating func makeDeferredItems() throws(GalleryError) {
        guard let deferred = deferredItems else { return }
        deferredItems = nil
        items = try deferred.items()
        producedFiles.appendRenditions(of: items)
    }
}
