import Foundation
import GalleryCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a state file read whole keeps its photo and page entries, and which
/// file it was. After an add at 100,000 photos all but a handful of the
/// entries are as they were, and encoding them all again (and sorting their
/// keys and ids) was most of the state's commit: a commit copies the bytes of
/// the unchanged ones from this file instead (`encodeFromBase`).
public struct StateFileBase: Sendable {
    /// A run of entries in the file: where the first starts, how many bytes, how many entries.
    struct Region: Sendable {
        let offset: Int
        let length: Int
        let count: Int
        /// Where some of its entries start, in key order (`Samples`): nil
        /// when the file's keys were not seen to ascend as they were read.
        var samples: [Sample]? = nil
    }

    let photos: Region
    let pages: Region
    /// The file, and what identified it when it was read (set by `OutputFolder.loadState`).
    var file: URL?
    var identity: FileIdentity?
}

/// The state file a build read, kept open: what is read of it later (the
/// list of OUT's files, when pruning) is what was read at the start, even
/// once a new state has replaced it under its name.
public final class StateFile: Sendable {
    let descriptor: Int32
    let path: String

    /// Opens `url` for reading; nil when it cannot be.
    init?(_ url: URL) {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        path = url.path
    }

    deinit { close(descriptor) }

    /// The bytes at `range`.
    func read(_ range: Range<Int>) throws(OutputError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw .writeFailed(path, reason: "the state read at the build's start can no longer be read") }
            done += got
        }
        return bytes
    }
}

/// A file as `stat` tells it apart: replaced or rewritten since, it differs.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}

/// Why a state was not made from its base: `unusable` (the file changed, or
/// is not as this expects) means encoding it whole instead; `output` is a
/// fault writing the new file.
enum StateDeltaError: Error {
    case unusable(String)
    case output(OutputError)
}

extension BuildState {
    /// Set by the tests: every state made from its base is compared with the
    /// same state encoded whole, and a difference fails the build.
    public static let checksEncodingFromBase = Atomic<Bool>(false)

    /// What the pipeline tests turn on: `checksEncodingFromBase`, and base
    /// files sampled every few entries, so that their small states' commits
    /// seek each changed entry as a million photos' do (`EntrySeeking`).
    public static func checkCommitsFromBase() {
        checksEncodingFromBase.store(true, ordering: .relaxed)
        StateFileBase.Samples.interval.store(3, ordering: .relaxed)
    }

    /// A base file and the changes since are known.
    var canEncodeFromBase: Bool { base?.file != nil && changedPhotos != nil && (changedPages != nil || !hasPageRecordsInBase) }

    /// Read from a file that a new state can be committed from: only then
    /// are the changed keys since wanted (a first build's would be all of them).
    public var hasBaseFile: Bool { base?.file != nil }

    /// Read from a file that holds page records a commit can leave there
    /// (a first build's aside file holds none: every record is this build's,
    /// and which changed is not worth a set of them all).
    public var hasPageRecordsInBase: Bool { hasBaseFile && (base?.pages.count ?? 0) > 0 }

    /// This build's photo entries (`cache`) with only the `changed` ones
    /// kept, to be committed from the file this state was read from, which
    /// holds the others as they are (`photoCountWithBase`): at 100,000 photos
    /// the unchanged entries were 36 MB of an add's peak, held through the
    /// page step for nothing. Nil when there is no such file.
    public func leavingUnchangedPhotosInBase(_ cache: PhotoEntries, changed: Set<PhotoKey>) throws(OutputError) -> PhotoEntries? {
        try Self.leavingUnchangedInBase(cache, changed: changed, file: base?.file) { $0.photos }
    }

    /// This build's page records with only the `changed` ones kept, the
    /// others left in the file as for photos (`pageCountWithBase`): 100,000
    /// records were 17 MB of an add's peak as it pruned and committed.
    /// Nil too when the file holds no page records (nothing to leave there).
    public func leavingUnchangedPagesInBase(_ records: PageEntries, changed: Set<PageKey>) throws(OutputError) -> PageEntries? {
        guard hasPageRecordsInBase else { return nil }
        return try Self.leavingUnchangedInBase(records, changed: changed, file: base?.file) { $0.pages }
    }

    /// `entries` with only the `changed` ones kept, when there is a base
    /// `file`. With `checksEncodingFromBase` set (the tests), every entry
    /// let go of is compared with the file's (`read` of it), and the file's
    /// entries not in `entries` must be listed: a change not listed fails the build.
    private static func leavingUnchangedInBase<Key, Entry: Equatable>(_ entries: KeyedTable<Key, Entry>, changed: Set<Key>, file: URL?,
                                                                      read: (BuildState) -> KeyedTable<Key, Entry>) throws(OutputError)
        -> KeyedTable<Key, Entry>? {
        guard let file else { return nil }
        if checksEncodingFromBase.load(ordering: .relaxed) {
            guard let state = try? BuildState.decode(Data(contentsOf: file)) else {
                throw .writeFailed(file.path, reason: "internal: the state read at the build's start cannot be read again")
            }
            let old = read(state)
            let unlisted = entries.keys.contains { !changed.contains($0) && old[$0] != entries[$0] }
                || old.keys.contains { entries[$0] == nil && !changed.contains($0) }
            if unlisted { throw .writeFailed(file.path, reason: "internal: an entry changed but is not listed as changed") }
        }
        // Every entry changed (a build rendering every page again): all are
        // kept, as they are; a copy held them twice.
        if changed.count >= entries.count, entries.keys.allSatisfy(changed.contains) { return entries }
        var kept = KeyedTable<Key, Entry>(minimumCapacity: changed.count)
        for key in changed { if let entry = entries[key] { kept[key] = entry } }
        return kept
    }

    /// The state with the photo and page entries left in `base`'s file read
    /// back, to be encoded whole. A base file that can no longer be read
    /// gives none back: the next build reads those photos' files again and
    /// renders those pages again (slower, never a wrong site).
    func withEntriesFromBase() -> BuildState {
        guard photoCountWithBase != nil || pageCountWithBase != nil else { return self }
        var whole = self
        whole.photoCountWithBase = nil
        whole.pageCountWithBase = nil
        guard let url = base?.file, let data = try? Data(contentsOf: url), let read = try? BuildState.decode(data) else { return whole }
        if photoCountWithBase != nil {
            let changed = changedPhotos ?? []
            for (key, entry) in read.photos where !changed.contains(key) { whole.photos[key] = entry }
        }
        if pageCountWithBase != nil {
            let changed = changedPages ?? []
            for (key, record) in read.pages where !changed.contains(key) { whole.pages[key] = record }
        }
        return whole
    }

    /// The bytes `encode` makes, with every photo and page entry not in
    /// `changedPhotos` or `changedPages` copied from the base file rather
    /// than encoded, and the changed ones encoded and put in their place.
    /// The file keeps photo and page keys (24 hex digits each) in ascending
    /// order, which for such keys is their bytes' order: a key of any other
    /// form, a base file changed since it was read or not in order throws
    /// `.unusable` (the caller then encodes the state whole).
    /// `copy` puts a range of the base file's bytes (its open descriptor)
    /// next in the output, after what `emit` was given (a commit copies it
    /// in the kernel: `AtomicFile.UnlessUnchanged.copy`).
    func encodeFromBase(chunkSize: Int = 1 << 20, readSize: Int = 1 << 20,
                        copy: (Int32, Range<Int>) throws(OutputError) -> Void,
                        _ emit: (UnsafeRawBufferPointer) throws(OutputError) -> Void) throws(StateDeltaError) {
        guard let base, let url = base.file, let identity = base.identity, let changedPhotos, changedPages != nil || !hasPageRecordsInBase else {
            throw .unusable("no base")
        }
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unusable("base unreadable") }
        defer { close(descriptor) }
        guard FileIdentity(descriptor: descriptor) == identity else { throw .unusable("base changed") }
        func send(_ chunk: UnsafeRawBufferPointer) throws(StateDeltaError) {
            do { try emit(chunk) } catch { throw .output(error) }
        }
        // Sorted as numbers: the order of their hex digits as text, the file's.
        // A base without page records (a first build's aside file): every record is written from memory.
        let photoKeys = changedPhotos.sorted(), pageKeys = hasPageRecordsInBase ? (changedPages ?? []).sorted() : pages.keys.sorted()
        func copyRange(_ range: Range<Int>) throws(StateDeltaError) {
            do { try copy(descriptor, range) } catch { throw .output(error) }
        }
        var writer = StateWriter()
        writer.reserve(chunkSize + 4096)
        // A region with its changed entries: each sought from the samples
        // when few changed, else every entry stepped over.
        func mergeRegion(_ region: StateFileBase.Region, changed: [StateKey], expected: Int,
                         entryLength: (inout BaseReader) throws(StateDeltaError) -> Int,
                         write: (StateKey, inout StateWriter) -> Bool) throws(StateDeltaError) {
            if let seeking = EntrySeeking(region, changed: changed) {
                try seeking.merge(from: descriptor, expected: expected, readSize: readSize, writer: &writer, chunkSize: chunkSize, send,
                                  copy: copyRange, entryLength: entryLength, write: write)
            } else {
                try Self.merge(region, from: descriptor, changed: changed, expected: expected, readSize: readSize,
                               writer: &writer, chunkSize: chunkSize, send, entryLength: entryLength, write: write)
            }
        }
        try encodeHead(&writer, chunkSize: chunkSize, send)
        writer.int(photoCount)
        let photos = self.photos
        var body = StateWriter()
        func writePhoto(_ key: StateKey, _ writer: inout StateWriter) -> Bool {
            guard let entry = photos[key] else { return false }
            Self.writePhoto(key, entry, to: &writer, body: &body)
            return true
        }
        try mergeRegion(base.photos, changed: photoKeys, expected: photoCount, entryLength: Self.photoEntryLength, write: writePhoto)
        writer.int(pageCount)
        let pages = self.pages
        func writePage(_ key: StateKey, _ writer: inout StateWriter) -> Bool {
            guard let record = pages[key] else { return false }
            Self.writePage(key, record, to: &writer)
            return true
        }
        try mergeRegion(base.pages, changed: pageKeys, expected: pageCount, entryLength: Self.pageEntryLength, write: writePage)
        if !writer.bytes.isEmpty { try writer.flush(send) }
    }

    /// Copies `region`'s entries from the base file to `writer`, leaving out
    /// the `changed` ones (sorted) and writing each changed one
    /// that still exists (`write` returns false for one that is gone) where
    /// it belongs. Exactly `expected` entries must come out.
    private static func merge(_ region: StateFileBase.Region, from descriptor: Int32, changed: [StateKey], expected: Int, readSize: Int,
                              writer: inout StateWriter, chunkSize: Int, _ send: (UnsafeRawBufferPointer) throws(StateDeltaError) -> Void,
                              entryLength: (inout BaseReader) throws(StateDeltaError) -> Int,
                              write: (StateKey, inout StateWriter) -> Bool) throws(StateDeltaError) {
        var reader = BaseReader(descriptor: descriptor, region: region, size: readSize)
        var next = 0, count = 0
        var previous = StateKey(.zero)
        for index in 0..<region.count {
            let length = try entryLength(&reader)
            let inOrder = reader.withUnread(length) { entry -> Bool in
                let keyLength = Int(Int64(littleEndian: entry.loadUnaligned(as: Int64.self)))
                let key = UnsafeRawBufferPointer(rebasing: entry[8..<(8 + keyLength)])
                // A key as the state writes one (24 lowercase hex digits), in ascending order.
                guard let entryKey = StateKey(hexBytes: key), index == 0 || previous < entryKey else { return false }
                previous = entryKey
                // The changed entries before this one, in their places.
                while next < changed.count, changed[next] < entryKey {
                    if write(changed[next], &writer) { count += 1 }
                    next += 1
                }
                if next < changed.count, changed[next] == entryKey {
                    if write(changed[next], &writer) { count += 1 }
                    next += 1
                } else {
                    writer.raw(entry)
                    count += 1
                }
                return true
            }
            guard inOrder else { throw .unusable("base entries out of order") }
            reader.consume(length)
            if writer.bytes.count >= chunkSize { try writer.flush(send) }
        }
        guard reader.isAtEnd else { throw .unusable("base region longer than its entries") }
        while next < changed.count {
            if write(changed[next], &writer) { count += 1 }
            next += 1
        }
        guard count == expected else { throw .unusable("base and changes do not add up") }
    }

    /// The length of the photo entry at the reader: key, shard key, body length, body.
    static func photoEntryLength(_ reader: inout BaseReader) throws(StateDeltaError) -> Int {
        let keyLength = try reader.length(at: 0, below: 1 << 10)
        let bodyLength = try reader.length(at: 8 + keyLength + 8, below: 1 << 26)
        let length = 8 + keyLength + 16 + bodyLength
        try reader.ensure(length)
        return length
    }

    /// The length of the page entry at the reader: key, fingerprint, files.
    static func pageEntryLength(_ reader: inout BaseReader) throws(StateDeltaError) -> Int {
        let keyLength = try reader.length(at: 0, below: 1 << 10)
        var length = 8 + keyLength + 16
        let files = try reader.length(at: length, below: 1 << 24)
        length += 8
        for _ in 0..<files {
            length += 8 + (try reader.length(at: length, below: 1 << 16))
        }
        try reader.ensure(length)
        return length
    }
}

/// Reads a region of the base file a buffer at a time, an entry at a time.
struct BaseReader {
    private let descriptor: Int32
    /// The file offset of the next byte not yet read, and of the region's end.
    private var next: Int
    private let end: Int
    private var buffer: [UInt8]
    /// `buffer[start..<filled]` is read and not yet consumed.
    private var start = 0
    private var filled = 0

    /// `size`: how much is read at a time (more when an entry is larger).
    init(descriptor: Int32, region: StateFileBase.Region, size: Int) {
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: max(64, size))
        next = region.offset
        end = region.offset + region.length
    }

    var isAtEnd: Bool { start == filled && next == end }

    /// Makes the next `count` bytes available, reading more of the region.
    mutating func ensure(_ count: Int) throws(StateDeltaError) {
        guard filled - start < count else { return }
        if start > 0 {
            let kept = filled - start
            buffer.withUnsafeMutableBytes { raw in
                if kept > 0 { memmove(raw.baseAddress!, raw.baseAddress! + start, kept) }
            }
            filled = kept
            start = 0
        }
        if buffer.count < count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
        while filled < count {
            let wanted = min(buffer.count - filled, end - next)
            guard wanted > 0 else { throw .unusable("base region truncated") }
            let descriptor = self.descriptor, offset = next, at = filled
            let got = buffer.withUnsafeMutableBytes { raw in pread(descriptor, raw.baseAddress! + at, wanted, off_t(offset)) }
            guard got > 0 else { throw .unusable("base unreadable") }
            filled += got
            next += got
        }
    }

    /// The length stored `offset` bytes on (read as the state's lengths are), checked to be below `limit`.
    mutating func length(at offset: Int, below limit: Int) throws(StateDeltaError) -> Int {
        try ensure(offset + 8)
        let value = buffer.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: start + offset, as: Int64.self)) }
        guard value >= 0, value < Int64(limit) else { throw .unusable("bad length in base") }
        return Int(value)
    }

    /// `body` of the next `count` bytes (made available by `ensure`).
    func withUnread<Result>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
    }

    mutating func consume(_ count: Int) { start += count }
}
