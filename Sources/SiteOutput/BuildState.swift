import Foundation
import GalleryCore

/// What the previous build knew about one source file, so an unchanged file
/// (same size and modification time) is never read again.
public struct CachedPhoto: Sendable, Equatable {
    /// File size in bytes.
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
    /// Content hash of the bytes.
    public var contentHash: ContentHash
    /// Metadata as `PhotoMetadata.kept` leaves it: no GPS, people and place only when published.
    @OutOfLine public private(set) var metadata: PhotoMetadata
    /// A digest of `metadata` (from its bytes in the state): what page
    /// fingerprints hash for it, made once when the file is read.
    public private(set) var metadataDigest: StableHash.Digest
    /// A Live Photo still's clip, as it was when last read.
    public var clip: CachedClip? {
        get { clipBox?.clip }
        set { clipBox = newValue.map(ClipBox.init) }
    }
    /// `clip` out of line: 40 bytes most entries (not Live Photos) do not
    /// have, in each of 100,000 entries of the build's largest dictionary.
    private var clipBox: ClipBox?

    private final class ClipBox: Sendable, Equatable {
        let clip: CachedClip
        init(_ clip: CachedClip) { self.clip = clip }
        static func == (a: ClipBox, b: ClipBox) -> Bool { a === b || a.clip == b.clip }
    }
    /// The sidecars' names, sizes and times, hashed ("" without sidecars):
    /// a caption edited in a sidecar is read again, the image is not re-encoded.
    public var sidecarStamp: String

    /// People's names were kept (`publish_people` was on when it was read).
    public var peopleKept: Bool
    /// The faces of this content were found and are in the faces table
    /// (`faces: auto`; `FaceLibrary`), so an unchanged file is not opened for them.
    public var facesFound = false
    /// What its pixels look like (stills: `PictureLooks`), and the key of
    /// the renditions they were made with (`RenditionPlanner.looksKey`): the
    /// same content planned otherwise is looked at again.
    public var looks: PictureLooks?
    public var looksKey: UInt64 = 0
    /// The place was looked up and kept (`moment_places` was on when it was
    /// read): without it, turning the setting on reads the file's GPS again.
    public var placeKept: Bool
    /// The file's key for sharded builds (`SourceFileReader.shardKey`): a
    /// part reads only its own entries of a large state.
    public var shardKey: UInt64

    /// Creates an entry of what outlives the read (`PhotoMetadata.kept`):
    /// people's names with `keepPeople` (publish_people), the place with
    /// `keepPlace` (moment_places), never GPS.
    public init(size: Int64, modified: Int64, contentHash: ContentHash, metadata: PhotoMetadata, clip: CachedClip? = nil,
                sidecarStamp: String = "", keepPeople: Bool = false, keepPlace: Bool = false, shardKey: UInt64 = 0) {
        let kept = metadata.kept(people: keepPeople, place: keepPlace)
        self.init(size: size, modified: modified, contentHash: contentHash, metadata: kept, clip: clip, sidecarStamp: sidecarStamp,
                  keepPeople: keepPeople, keepPlace: keepPlace, metadataDigest: Self.digest(of: kept))
        self.shardKey = shardKey
    }

    /// An entry whose metadata is kept already and its digest known (read from the state).
    init(size: Int64, modified: Int64, contentHash: ContentHash, metadata: PhotoMetadata, clip: CachedClip?, sidecarStamp: String,
         keepPeople: Bool, keepPlace: Bool, metadataDigest: StableHash.Digest) {
        self.shardKey = 0
        self.size = size
        self.modified = modified
        self.contentHash = contentHash
        self.peopleKept = keepPeople
        self.placeKept = keepPlace
        self.metadata = metadata
        self.metadataDigest = metadataDigest
        self.clipBox = clip.map(ClipBox.init)
        self.sidecarStamp = sidecarStamp
    }

    /// Forgets people's names and the place when they are no longer published
    /// (`publish_people`, `moment_places` turned off since the entry was made).
    public mutating func withhold(people: Bool, place: Bool) {
        guard (people && peopleKept) || (place && placeKept) else { return }
        if people && peopleKept {
            var words = metadata.words
            words.people = []
            words.faces = []
            metadata.words = words
            peopleKept = false
        }
        if place && placeKept {
            metadata.place = nil
            placeKept = false
        }
        metadataDigest = Self.digest(of: metadata)
    }
}

/// What the previous build knew about one page: the fingerprint of what it
/// showed, and, for a group of files (the search index, the sitemap), the
/// files it made (nil: the page is one file, at its id).
public struct PageRecord: Sendable, Equatable {
    public var fingerprint: StableHash.Digest
    public var files: [String]?

    public init(fingerprint: StableHash.Digest, files: [String]? = nil) {
        self.fingerprint = fingerprint
        self.files = files
    }
}

/// What the previous build knew about a Live Photo's clip (the `.MOV` beside the still).
public struct CachedClip: Sendable, Equatable {
    /// File size in bytes.
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
    /// Content hash of the clip's bytes (its playback file's name follows
    /// from it); nil when the clip could not be read.
    public var contentHash: ContentHash?
    /// False when the clip turned out not to be this still's motion (too
    /// long, or another Live Photo's identifier): it is published on its own.
    public var belongsToStill: Bool

    /// Creates an entry.
    public init(size: Int64, modified: Int64, contentHash: ContentHash?, belongsToStill: Bool) {
        self.size = size
        self.modified = modified
        self.contentHash = contentHash
        self.belongsToStill = belongsToStill
    }
}

/// Everything a build remembers between runs, in one versioned file:
/// `STATE/state.bin` (a folder beside OUT by default, never inside it) (a flat little-endian layout, see
/// `StateCoding.swift`: it is read on every build, and for 30,000 photos JSON
/// decoding alone took a second).
///
/// - `files`: every file the build produced in OUT. Only these (and files a
///   crashed build journaled) are ever deleted, so a user's own files stay.
/// - `photos`: the per-file cache, keyed by a hash of the source path so the
///   published state does not list the library's file names.
/// - `pages`: each page's fingerprint (a hash of exactly what it shows) and
///   the files it made; a page whose fingerprint matches and whose files are
///   all present is not rendered again.
///
/// An unreadable file or another version means a full rebuild, never a wrong site.
public struct BuildState: Sendable, Equatable {
    public static func == (a: BuildState, b: BuildState) -> Bool {
        a.version == b.version && a.siteInputs == b.siteInputs && a.files == b.files && a.photos == b.photos && a.pages == b.pages
    }

    /// Format version; bump when the layout or meaning changes.
    public static let currentVersion = 14
    /// The version before page records were keyed by their ids' hashes: read
    /// (each id hashed as it is read), so that upgrading does not read every
    /// photo again; never committed from (`base` is not set).
    static let idKeyedVersion = 13
    /// The folder in OUT that held the build state before it moved out of
    /// OUT (OUT is published whole): migrated once, then removed.
    public static let legacyFolderName = ".gallerygen"

    /// Version read from disk (an older one is committed anew, even unchanged).
    public var version: Int
    /// Paths (relative to OUT) of every produced file, sorted. A state read
    /// from disk makes them strings only when asked for: a no-op rebuild
    /// never asks, and 300,000 paths as strings were 40 MB of its peak.
    public var files: [String] {
        get { fileList.strings }
        set { fileList = EncodedStrings(newValue) }
    }
    /// Reads `files` from the state file now if they are read only when
    /// needed (`decode(file:)`), so that a file that can no longer be read fails here.
    public func loadFiles() throws(OutputError) { try fileList.load() }
    /// `files`, read from the state file now if they were not (what can fail, fails here).
    public func loadedFiles() throws(OutputError) -> [String] {
        try loadFiles()
        return files
    }
    /// How many `files` there are, known without reading them.
    public var fileCount: Int { fileList.count }
    private(set) var fileList: EncodedStrings
    /// Source cache by hashed source path.
    public var photos: PhotoEntries
    /// Each page's fingerprint and files, by its key (`PageKey(path:)` of its id).
    public var pages: PageEntries
    /// A digest of everything the pages were made from: when a build's
    /// matches, no page can have changed and the site is not even planned.
    public var siteInputs: StableHash.Digest = .zero
    /// The file this state was read from, and where its photo and page
    /// entries sit in it (`StateDelta.swift`); nil when it was not read whole.
    public var base: StateFileBase?
    /// The photo keys whose entries may differ from `base`'s (new, changed
    /// or gone), and likewise the page ids: with both known, a commit copies
    /// every other entry's bytes from `base` instead of encoding it again.
    public var changedPhotos: Set<PhotoKey>?
    public var changedPages: Set<PageKey>?
    /// Set when `photos` holds only the changed entries that still exist and
    /// every other entry is `base`'s, as it was read (`leavingUnchangedPhotosInBase`):
    /// how many entries the state has in all.
    public var photoCountWithBase: Int?
    /// How many photo entries the state has.
    public var photoCount: Int { photoCountWithBase ?? photos.count }
    /// Likewise for `pages` (`leavingUnchangedPagesInBase`).
    public var pageCountWithBase: Int?
    /// How many page records the state has.
    public var pageCount: Int { pageCountWithBase ?? pages.count }

    /// An empty state.
    public init(files: [String] = [], photos: PhotoEntries = [:], pages: PageEntries = [:]) {
        self.version = Self.currentVersion
        // Sorted already when it is the previous state's list (a no-op): checked in one pass.
        self.fileList = EncodedStrings(zip(files, files.dropFirst()).allSatisfy { $0 < $1 } ? files : parallelSorted(files))
        self.photos = photos
        self.pages = pages
    }

    /// A state whose files are `fileList` (sorted already: `OutputFolder.prune`'s).
    public init(fileList: EncodedStrings, photos: PhotoEntries, pages: PageEntries) {
        self.version = Self.currentVersion
        self.fileList = fileList
        self.photos = photos
        self.pages = pages
    }

    /// The cache key of a source path.
    public static func key(for relativePath: String) -> PhotoKey { PhotoKey(path: relativePath) }

    /// The state file's name inside the state folder.
    public static let fileName = "state.bin"
    /// The first bytes of every state file.
    static let magic = Array("gallerygen-state\n".utf8)

    /// Where the state file lives in the state folder `state`.
    public static func location(in state: URL) -> URL {
        state.appendingPathComponent(fileName)
    }

    /// Decodes a state file's bytes. `keeping` reads only the photo entries
    /// whose shard key it accepts and `withFiles: false` skips the produced
    /// files: a part of a sharded build of a million photos holds its own
    /// entries, not everyone's (every entry is prefixed by its key and
    /// length, so the others are stepped over, not decoded).
    /// `file`: the open file `data` is (mapped): the list of files is then
    /// read from it when needed, not copied now.
    /// `passed`: told, now and then, the offset in `data` the reading has
    /// passed (nothing before it is read again).
    static func decode(_ data: Data, keeping: ((UInt64) -> Bool)? = nil, withFiles: Bool = true, file: StateFile? = nil,
                       passed: ((Int) -> Void)? = nil, sampleEvery: Int = StateFileBase.Samples.interval.load(ordering: .relaxed)) throws -> BuildState {
        // Read in place (no copy: the state of a million photos is hundreds of MB).
        return try data.withUnsafeBytes { raw throws -> BuildState in
            guard raw.count >= magic.count, Array(raw.prefix(magic.count)) == magic else {
                throw StateFormatError(reason: "not a state file")
            }
            var reader = StateReader(UnsafeRawBufferPointer(rebasing: raw[magic.count...]))
            let version = try reader.int()
            guard version == Int64(currentVersion) || version == Int64(idKeyedVersion) else { throw StateFormatError(reason: "other version") }
            let idKeyed = version == Int64(idKeyedVersion)
            let siteInputs = StableHash.Digest(high: UInt64(bitPattern: try reader.int()), low: UInt64(bitPattern: try reader.int()))
            let fileCount = try reader.count()
            // Stepped over (every length checked), kept as bytes: made strings when asked for.
            let filesStart = reader.position
            for _ in 0..<fileCount { try reader.skip(try reader.count()) }
            let fileRange = (magic.count + filesStart)..<(magic.count + reader.position)
            let fileBytes = withFiles && file == nil ? Array(UnsafeRawBufferPointer(rebasing: raw[fileRange])) : []
            let photoCount = try reader.count()
            let photosStart = magic.count + reader.position
            var photos: PhotoEntries = [:]
            // With room for the photos a rebuild most often brings (a sixty-fourth more), without growing.
            if keeping == nil { photos.reserveCapacity(photoCount + photoCount / 64 + 16) }
            var photoSamples = StateFileBase.Samples(every: sampleEvery)
            for index in 0..<photoCount {
                let start = magic.count + reader.position
                let key = try reader.key()
                photoSamples.note(key, at: start, index: index)
                let shardKey = UInt64(bitPattern: try reader.int())
                let length = try reader.count()
                if let keeping, !keeping(shardKey) {
                    try reader.skip(length)
                    continue
                }
                let end = reader.position + length
                var entry = try CachedPhoto(reading: &reader)
                guard reader.position == end else { throw StateFormatError(reason: "bad entry length") }
                entry.shardKey = shardKey
                photos[key] = entry
                if let passed, photos.count & 1023 == 0 { passed(magic.count + reader.position) }
            }
            let photosEnd = magic.count + reader.position
            var pages: PageEntries = [:]
            let pageCount = try reader.count()
            let pagesStart = magic.count + reader.position
            if withFiles { pages.reserveCapacity(pageCount + pageCount / 64 + 16) }
            var pageSamples = StateFileBase.Samples(every: sampleEvery)
            for index in 0..<pageCount {
                let start = magic.count + reader.position
                let key = idKeyed ? PageKey(path: try reader.string()) : try reader.key()
                pageSamples.note(key, at: start, index: index)
                let fingerprint = StableHash.Digest(high: UInt64(bitPattern: try reader.int()), low: UInt64(bitPattern: try reader.int()))
                var files: [String]? = nil
                let fileCount = try reader.count()
                if fileCount > 0 {
                    files = []
                    for _ in 0..<fileCount { files!.append(try reader.string()) }
                }
                if withFiles { pages[key] = PageRecord(fingerprint: fingerprint, files: files) }
                if let passed, pages.count & 1023 == 0 { passed(magic.count + reader.position) }
            }
            guard reader.isAtEnd else { throw StateFormatError(reason: "trailing bytes") }
            var state = BuildState(files: [], photos: photos, pages: pages)
            state.version = Int(version)
            state.siteInputs = siteInputs
            if keeping == nil, withFiles, !idKeyed {
                state.base = StateFileBase(photos: .init(offset: photosStart, length: photosEnd - photosStart, count: photoCount,
                                                         samples: photoSamples.inOrder),
                                           pages: .init(offset: pagesStart, length: raw.count - pagesStart, count: pageCount,
                                                        samples: pageSamples.inOrder))
            }
            // Written sorted.
            if !withFiles {
                state.fileList = EncodedStrings([])
            } else if let file {
                state.fileList = EncodedStrings(count: fileCount, in: file, at: fileRange)
            } else {
                state.fileList = EncodedStrings(count: fileCount, bytes: fileBytes)
            }
            return state
        }
    }

    /// The encoded bytes (files and photos sorted: the same state always gives
    /// the same bytes).
    public func encoded() -> Data { Data(encodedBytes()) }

    /// The encoded bytes, in one buffer.
    public func encodedBytes() -> [UInt8] {
        var all: [UInt8] = []
        encode { chunk in all.append(contentsOf: chunk) }
        return all
    }

    /// Encodes the state in chunks of about `chunkSize` bytes handed to
    /// `emit` as they are made: the state of 100,000 photos is tens of MB,
    /// and held whole at the end of a build it was the build's peak of memory.
    /// `regions`: told where the photo and page entries lie in the bytes.
    func encode<E: Error>(chunkSize: Int = 1 << 20, regions: (_ photos: Range<Int>, _ pages: Range<Int>) -> Void = { _, _ in },
                          _ emit: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        // Its unchanged entries left in the base file: those are read back first.
        if photoCountWithBase != nil || pageCountWithBase != nil {
            return try withEntriesFromBase().encode(chunkSize: chunkSize, regions: regions, emit)
        }
        var written = 0
        func send(_ chunk: UnsafeRawBufferPointer) throws(E) {
            written += chunk.count
            try emit(chunk)
        }
        var writer = StateWriter()
        writer.reserve(chunkSize + 4096)
        try encodeHead(&writer, chunkSize: chunkSize, send)
        writer.int(photos.count)
        try writer.flush(send)
        let photosStart = written
        let photos = self.photos
        // Written in the keys' order (their hex digits' order as text), sorted as numbers.
        let keys = photos.keys.sorted()
        try Self.encodeInBatches(keys.count, send) { range, writer in
            var body = StateWriter()
            for key in keys[range] { Self.writePhoto(key, photos[key]!, to: &writer, body: &body) }
        }
        let photosEnd = written
        writer.int(pages.count)
        try writer.flush(send)
        let pagesStart = written
        // Likewise the page keys.
        let pages = self.pages, pageKeys = pages.keys.sorted()
        try Self.encodeInBatches(pageKeys.count, send) { range, writer in
            for key in pageKeys[range] { Self.writePage(key, pages[key]!, to: &writer) }
        }
        if !writer.bytes.isEmpty { try writer.flush(send) }
        regions(photosStart..<photosEnd, pagesStart..<written)
    }

    /// What every state file begins with: the magic, the version, the site
    /// inputs' digest, and the produced files (sorted).
    func encodeHead<E: Error>(_ writer: inout StateWriter, chunkSize: Int, _ emit: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        writer.raw(Self.magic)
        writer.int(Int64(Self.currentVersion))
        writer.int(Int64(bitPattern: siteInputs.high))
        writer.int(Int64(bitPattern: siteInputs.low))
        try fileList.write(to: &writer, chunkSize: chunkSize, emit)
    }

    /// One photo entry: its key, its shard key, then its length and body
    /// (`body` is scratch space, reused entry after entry).
    static func writePhoto(_ key: PhotoKey, _ entry: CachedPhoto, to writer: inout StateWriter, body: inout StateWriter) {
        writer.key(key)
        writer.int(Int64(bitPattern: entry.shardKey))
        body.removeAll()
        entry.write(to: &body)
        writer.int(body.bytes.count)
        writer.raw(body.bytes)
    }

    /// One page entry: its key, its fingerprint, its files.
    static func writePage(_ key: PageKey, _ record: PageRecord, to writer: inout StateWriter) {
        writer.key(key)
        writer.int(Int64(bitPattern: record.fingerprint.high))
        writer.int(Int64(bitPattern: record.fingerprint.low))
        writer.int(record.files?.count ?? 0)
        for file in record.files ?? [] { writer.string(file) }
    }

    /// Encodes `count` entries with `encode` on every core, a batch at a time,
    /// handing each batch's bytes to `emit` in order: the entries of 100,000
    /// photos and pages were most of an add's state commit on one core, and a
    /// batch at a time holds a few MB, not the state.
    private static func encodeInBatches<E: Error>(_ count: Int, _ emit: (UnsafeRawBufferPointer) throws(E) -> Void,
                                                 _ encode: @escaping @Sendable (Range<Int>, inout StateWriter) -> Void) throws(E) {
        let batch = 8192, parts = 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        for start in stride(from: 0, to: count, by: batch) {
            let end = min(count, start + batch)
            let ranges = (0..<parts).map { start + (end - start) * $0 / parts ..< start + (end - start) * ($0 + 1) / parts }
            let chunks = parallelMap(ranges, minimumCount: 2) { range in
                var writer = StateWriter()
                encode(range, &writer)
                return writer.bytes
            }
            for chunk in chunks where !chunk.isEmpty {
                let result: Result<Void, E> = chunk.withUnsafeBytes { raw in Result { () throws(E) in try emit(raw) } }
                try result.get()
            }
        }
    }
}
