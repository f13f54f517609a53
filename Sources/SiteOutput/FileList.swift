import Foundation
import GalleryCore

/// Strings as the state file holds them (each its length, then its UTF-8),
/// made `String`s once, when first asked for: the list of the 300,000 files
/// a build of 100,000 photos produced is read, pruned and written again as
/// bytes (a no-op and an add never make it strings: they were 40 MB).
public final class EncodedStrings: @unchecked Sendable {
    /// How many strings there are.
    var count: Int { lock.withLock { storedCount } }
    private var storedCount: Int
    private let lock = NSLock()
    private var bytes: [UInt8]
    private var decoded: [String]?
    /// Strings (sorted, encoded as `bytes` are) to be put in their places
    /// among those of `bytes`: merged as the state is written (`write`), or
    /// when asked for otherwise. Merged at the prune, the list of an add at
    /// 100,000 photos was a second copy of its 15 MB, held through the state's commit.
    private var insertions: (bytes: [UInt8], count: Int) = ([], 0)

    init(_ strings: [String]) {
        storedCount = strings.count
        bytes = []
        decoded = strings
    }

    /// `bytes`: `count` strings as `StateWriter.string` writes them, their lengths checked already.
    init(count: Int, bytes: [UInt8]) {
        self.storedCount = count
        self.bytes = bytes
    }

    /// `count` strings encoded (and checked) at `range` of `file`, read from
    /// it when first needed (`load`): a build needs the previous build's
    /// list of OUT's files only to prune, and held from the start its 15 MB
    /// (300,000 files) were part of an add's peak at 100,000 photos.
    init(count: Int, in file: StateFile, at range: Range<Int>) {
        self.storedCount = count
        self.bytes = []
        self.source = (file, range)
    }

    /// Where the bytes are still to be read from.
    private var source: (file: StateFile, range: Range<Int>)?
    /// `source`, read under the lock (`forEachReadingAChunkAtATime`).
    var unreadSource: (file: StateFile, range: Range<Int>)? { lock.withLock { source } }

    /// Reads the strings from their file if they are still there: what can
    /// fail is said here, before anything relies on them.
    func load() throws(OutputError) {
        let result: Result<Void, OutputError> = lock.withLock {
            guard let (file, range) = source else { return .success(()) }
            do throws(OutputError) {
                bytes = try file.read(range)
                source = nil
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Reads `source` into `bytes` (under the lock). A list that cannot be
    /// read is empty (its files are then never pruned): the builds that need
    /// it `load` it first, and fail instead.
    private func readSource() {
        guard let (file, range) = source else { return }
        source = nil
        do {
            bytes = try file.read(range)
        } catch {
            storedCount = 0
        }
    }

    /// The `kept` strings encoded in `bytes` (in order) with the `count`
    /// encoded in `insertions` (in order) to go in their places.
    init(kept: Int, bytes: [UInt8], inserting insertions: [UInt8], count: Int) {
        self.storedCount = kept + count
        self.bytes = bytes
        self.insertions = (insertions, count)
    }

    /// Likewise with `insertions` (sorted) as strings.
    convenience init(kept: Int, bytes: [UInt8], inserting insertions: [String]) {
        var encoded = StateWriter()
        for string in insertions { encoded.string(string) }
        self.init(kept: kept, bytes: bytes, inserting: encoded.bytes, count: insertions.count)
    }

    var strings: [String] {
        lock.withLock {
            if let decoded { return decoded }
            readSource()
            mergeInsertions()
            var list: [String] = []
            list.reserveCapacity(storedCount)
            bytes.withUnsafeBytes { raw in
                var reader = StateReader(raw)
                // Bounds were checked when the state was read: nothing here can fail.
                for _ in 0..<storedCount { list.append((try? reader.string()) ?? "") }
            }
            decoded = list
            bytes = []
            return list
        }
    }

    /// The strings as the state file holds them, unless they were made strings.
    var encoded: [UInt8]? {
        lock.withLock {
            guard decoded == nil else { return nil }
            readSource()
            mergeInsertions()
            return bytes
        }
    }

    /// Writes the count and the strings as the state file holds them to
    /// `writer` (the count once the strings are read: one that could not be
    /// read is written as none), the insertions merged in as they go,
    /// handing it to `emit` each time it holds `chunkSize` bytes.
    func write<E: Error>(to writer: inout StateWriter, chunkSize: Int, _ emit: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let (bytes, decoded, insertions, count) = lock.withLock {
            readSource()
            return (self.bytes, self.decoded, self.insertions, storedCount)
        }
        writer.int(count)
        if let decoded {
            // Kept sorted by init and decode: sorted again only if changed since.
            let ordered = zip(decoded, decoded.dropFirst()).allSatisfy { $0 <= $1 } ? decoded : parallelSorted(decoded)
            for string in ordered {
                writer.string(string)
                if writer.bytes.count >= chunkSize { try writer.flush(emit) }
            }
            return
        }
        let result: Result<Void, E> = bytes.withUnsafeBytes { raw in
            insertions.bytes.withUnsafeBytes { new in
                Result { () throws(E) in
                    try Self.merge(raw, count: count - insertions.count, with: new, count: insertions.count, into: &writer) { (writer) throws(E) in
                        if writer.bytes.count >= chunkSize { try writer.flush(emit) }
                    }
                }
            }
        }
        try result.get()
    }

    /// Puts the insertions in `bytes` (under the lock).
    private func mergeInsertions() {
        guard insertions.count > 0 else { return }
        var out = StateWriter()
        out.reserve(bytes.count + insertions.bytes.count)
        bytes.withUnsafeBytes { raw in
            insertions.bytes.withUnsafeBytes { new in
                Self.merge(raw, count: storedCount - insertions.count, with: new, count: insertions.count, into: &out) { _ in }
            }
        }
        bytes = out.bytes
        insertions = ([], 0)
    }

    /// `list` (`count` encoded strings in order) with the `newCount` of
    /// `new` (encoded, in order) put in their places, written to `out` a run
    /// of entries at a time, `step` called after each run (to flush it).
    private static func merge<E: Error>(_ list: UnsafeRawBufferPointer, count: Int, with new: UnsafeRawBufferPointer, count newCount: Int,
                                        into out: inout StateWriter, _ step: (inout StateWriter) throws(E) -> Void) throws(E) {
        var next = 0, offset = 0, copied = 0, newOffset = 0
        /// The next new entry's UTF-8, and the offset after it.
        func nextNew() -> (utf8: UnsafeRawBufferPointer, end: Int) {
            let length = Int(Int64(littleEndian: new.loadUnaligned(fromByteOffset: newOffset, as: Int64.self)))
            return (UnsafeRawBufferPointer(rebasing: new[(newOffset + 8)..<(newOffset + 8 + length)]), newOffset + 8 + length)
        }
        // Runs of entries copied whole between the insertions, at most a MB at a time.
        for _ in 0..<count {
            let length = Int(Int64(littleEndian: list.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
            let utf8 = UnsafeRawBufferPointer(rebasing: list[(offset + 8)..<(offset + 8 + length)])
            if next < newCount, precedes(nextNew().utf8, utf8) {
                out.raw(UnsafeRawBufferPointer(rebasing: list[copied..<offset]))
                copied = offset
                let from = newOffset
                while next < newCount {
                    let (entry, end) = nextNew()
                    guard precedes(entry, utf8) else { break }
                    newOffset = end
                    next += 1
                }
                out.raw(UnsafeRawBufferPointer(rebasing: new[from..<newOffset]))
                try step(&out)
            } else if offset - copied >= 1 << 20 {
                out.raw(UnsafeRawBufferPointer(rebasing: list[copied..<offset]))
                copied = offset
                try step(&out)
            }
            offset += 8 + length
        }
        out.raw(UnsafeRawBufferPointer(rebasing: list[copied..<offset]))
        out.raw(UnsafeRawBufferPointer(rebasing: new[newOffset...]))
        try step(&out)
    }

    /// Whether `path` sorts before the string whose UTF-8 is `utf8`, as
    /// strings sort (their bytes' order when both are ASCII).
    static func precedes(_ path: String, _ utf8: UnsafeRawBufferPointer) -> Bool {
        var path = path
        return path.withUTF8 { precedes(UnsafeRawBufferPointer($0), utf8) }
    }

    /// Whether the string whose UTF-8 is `a` sorts before `b`'s.
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        if a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) { return bytesPrecede(a, b) }
        return String(decoding: a, as: UTF8.self) < String(decoding: b, as: UTF8.self)
    }

    /// Whether `a`'s bytes come before `b`'s.
    static func bytesPrecede(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let shorter = min(a.count, b.count)
        let order = shorter == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, shorter)
        return order != 0 ? order < 0 : a.count < b.count
    }

    /// `body` of each string's UTF-8, in order.
    func forEach(_ body: (UnsafeRawBufferPointer) -> Void) {
        if let encoded {
            encoded.withUnsafeBytes { Self.forEach(in: $0, count: count, body) }
        } else {
            for var string in strings { string.withUTF8 { body(UnsafeRawBufferPointer($0)) } }
        }
    }

    /// `body` of the UTF-8 of each of the `count` strings encoded in `bytes`.
    static func forEach(in bytes: UnsafeRawBufferPointer, count: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        var offset = 0
        for _ in 0..<count {
            let length = Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
            body(UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)]))
            offset += 8 + length
        }
    }

    /// The encoded bytes cut into `runs` runs of about as many strings each
    /// (each run's byte range and count), to be read on every core; nil
    /// when the strings were made already.
    func runs(_ runs: Int) -> (bytes: [UInt8], runs: [(range: Range<Int>, count: Int)])? {
        guard let encoded else { return nil }
        var cuts: [(range: Range<Int>, count: Int)] = []
        encoded.withUnsafeBytes { raw in
            var offset = 0, start = 0, index = 0
            for run in 0..<runs {
                let end = count * (run + 1) / runs
                while index < end {
                    offset += 8 + Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
                    index += 1
                }
                cuts.append((start..<offset, end - count * run / runs))
                start = offset
            }
        }
        return (encoded, cuts)
    }
}

/// A path as a set of 300,000 looks it up: a 128-bit hash of its UTF-8, made
/// from a `String` or from the state's bytes alike (no string made for each
/// of the previous build's files).
struct PathKey: Hashable, Sendable {
    let digest: StableHash.Digest

    init(digest: StableHash.Digest) { self.digest = digest }

    init(_ utf8: UnsafeRawBufferPointer) {
        var hasher = StableHash()
        hasher.update(utf8)
        digest = hasher.digest()
    }

    init(_ path: String) {
        var path = path
        self = path.withUTF8 { PathKey(UnsafeRawBufferPointer($0)) }
    }
}

extension BuildState {
    /// Whether a path is among `files`, asked of a set made once from the
    /// list's bytes (no strings, not a search of 300,000 per question).
    public func fileLookup() throws(OutputError) -> @Sendable (String) -> Bool {
        try fileList.load()
        var keys = PathKeySet(minimumCapacity: fileList.count)
        fileList.forEach { keys.insert(PathKey($0)) }
        return { [keys] path in keys.contains(PathKey(path)) }
    }
}

extension OutputFolder {
    /// What the next state lists of OUT, from the previous list (`owned`,
    /// sorted) and the files this build produced (`produced`, any order,
    /// a path possibly twice) and wrote (`written`): the owned files no
    /// longer produced, and the `leftovers` (files a killed build journaled)
    /// and the written files not produced either (`stale`, a path possibly
    /// twice); and the produced ones in order, the owned ones kept in
    /// theirs and the ones this build wrote merged in (nil when some
    /// produced file is neither: a state lost, a killed build's files
    /// taken; the caller sorts). `sameFiles`: the list is `owned`'s.
    static func sift(owned: EncodedStrings, produced: some ProducedPaths, written: WrittenPaths, leftovers: Set<String> = [])
        -> (stale: [String], files: EncodedStrings?, sameFiles: Bool) {
        withExtendedLifetime(written) { siftKeeping(owned: owned, produced: produced, written: written, leftovers: leftovers) }
    }

    /// `sift`, while `written` is kept (its paths are read where they are).
    private static func siftKeeping(owned: EncodedStrings, produced: some ProducedPaths, written: WrittenPaths, leftovers: Set<String>)
        -> (stale: [String], files: EncodedStrings?, sameFiles: Bool) {
        // The produced files' keys (16 bytes each, in a table a fifth empty)
        // are let go before the new files' list is made: on a first build of
        // 1,000,000 photos that is 2,000,000 keys, and the list is every
        // written path again, both beside the written paths themselves.
        var fresh: [UnsafeRawBufferPointer] = []
        let (stale, kept, keptBytes, ownedStale, producedCount) = separated(owned: owned, produced: produced, written: written,
                                                                             leftovers: leftovers, fresh: &fresh)
        let new = encodedInOrder(&fresh)
        fresh = []
        // A list read from a state is in order; one merged with a sharded build's parts is not.
        guard owned.encoded != nil || zip(owned.strings, owned.strings.dropFirst()).allSatisfy({ $0 < $1 }),
              kept + new.count == producedCount else { return (stale, nil, false) }
        guard new.count > 0 else { return (stale, EncodedStrings(count: kept, bytes: keptBytes), ownedStale == 0) }
        // A first build's list is the new files alone: no merge to make.
        guard kept > 0 else { return (stale, EncodedStrings(count: new.count, bytes: new.bytes), false) }
        return (stale, EncodedStrings(kept: kept, bytes: keptBytes, inserting: new.bytes, count: new.count), false)
    }

    /// The written files separated by whether they are produced (`fresh`:
    /// where their paths are in `written`), the owned ones by whether they
    /// still are (`kept` of them, `keptBytes` their list); `stale` the rest
    /// and the leftovers not produced, the first `ownedStale` of them owned.
    private static func separated(owned: EncodedStrings, produced: some ProducedPaths, written: WrittenPaths, leftovers: Set<String>,
                                  fresh: inout [UnsafeRawBufferPointer])
        -> (stale: [String], kept: Int, keptBytes: [UInt8], ownedStale: Int, producedCount: Int) {
        let producedKeys = produced.keys()
        // The files this build wrote that it produces: new unless owned
        // before. A list of where their paths are, not a dictionary nor
        // strings: on a first build that is every file. The others are
        // stale, as leftovers are.
        var writtenStale: [String] = []
        // Sized once: on a first build every written file is fresh (2,000,000 at a million photos).
        fresh.reserveCapacity(written.count)
        var maybeFresh = FreshFilter()
        written.forEachUTF8 { utf8 in
            let key = PathKey(utf8)
            if producedKeys.contains(key) {
                fresh.append(utf8)
                maybeFresh.insert(key)
            } else {
                writtenStale.append(String(decoding: utf8, as: UTF8.self))
            }
        }
        // The owned files looked up in runs on every core; what is kept of
        // the list's bytes is the list less its stale entries (most often
        // none: the bytes themselves), not each entry copied.
        let filter = maybeFresh, wanted = producedKeys
        @Sendable func sort(_ run: inout OwnedRun, _ utf8: UnsafeRawBufferPointer) -> Bool {
            let key = PathKey(utf8)
            guard wanted.contains(key) else {
                run.stale.append(String(decoding: utf8, as: UTF8.self))
                return false
            }
            run.kept += 1
            if filter.contains(key) { run.owned.append(key) }
            return true
        }
        var runs: [OwnedRun] = []
        var keptBytes: [UInt8] = []
        if let (bytes, cuts) = owned.runs(8) {
            runs = parallelMap(cuts, minimumCount: 2) { cut in
                bytes.withUnsafeBytes { raw in
                    var run = OwnedRun()
                    EncodedStrings.forEach(in: UnsafeRawBufferPointer(rebasing: raw[cut.range]), count: cut.count) { utf8 in
                        if !sort(&run, utf8) {
                            let start = utf8.baseAddress! - raw.baseAddress! - 8
                            run.staleRanges.append(start..<(start + 8 + utf8.count))
                        }
                    }
                    return run
                }
            }
            keptBytes = Self.removing(runs.flatMap(\.staleRanges), from: bytes)
        } else {
            var run = OwnedRun(), list = StateWriter()
            owned.forEach { utf8 in
                if sort(&run, utf8) {
                    list.int(utf8.count)
                    list.raw(utf8)
                }
            }
            runs = [run]
            keptBytes = list.bytes
        }
        var stale: [String] = [], kept = 0, ownedWritten = PathKeySet()
        for run in runs {
            kept += run.kept
            stale += run.stale
            ownedWritten.formUnion(run.owned)
        }
        let ownedStale = stale.count
        for path in leftovers where !producedKeys.contains(PathKey(path)) { stale.append(path) }
        stale += writtenStale
        if !ownedWritten.isEmpty { fresh.removeAll { ownedWritten.contains(PathKey($0)) } }
        return (stale, kept, keptBytes, ownedStale, producedKeys.count)
    }

    /// `bytes` without the byte ranges `gone` (in order): the same array when there are none.
    private static func removing(_ gone: [Range<Int>], from bytes: [UInt8]) -> [UInt8] {
        guard !gone.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var start = 0
        for range in gone {
            out += bytes[start..<range.lowerBound]
            start = range.upperBound
        }
        out += bytes[start...]
        return out
    }

    /// What one run of the owned files came to.
    private struct OwnedRun: Sendable {
        var kept = 0
        var stale: [String] = []
        /// Where the stale entries are in the list's bytes.
        var staleRanges: [Range<Int>] = []
        /// Files this build wrote that were owned before (not new).
        var owned: [PathKey] = []
    }

    /// A bitmap of the few files this build wrote, looked at for each of the
    /// 300,000 owned files before the dictionary of them is.
    private struct FreshFilter: Sendable {
        private var bits = [UInt64](repeating: 0, count: 64)

        mutating func insert(_ key: PathKey) { bits[Int(key.digest.low >> 6 & 63)] |= 1 << (key.digest.low & 63) }

        func contains(_ key: PathKey) -> Bool { bits[Int(key.digest.low >> 6 & 63)] & (1 << (key.digest.low & 63)) != 0 }
    }
}
