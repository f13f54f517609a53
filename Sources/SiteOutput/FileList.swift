import Foundation
import GalleryCore

/// Strings as the state file holds them (each its length, then its UTF-8),
/// made `String`s once, when first asked for: the list of the 300,000 files
/// a build of 100,000 photos produced is read, pruned and written again as
/// bytes (a no-op and an add never make it strings: they were 40 MB).
public final class EncodedStrings: @unchecked Sendable {
    let count: Int
    private let lock = NSLock()
    private var bytes: [UInt8]
    private var decoded: [String]?

    init(_ strings: [String]) {
        count = strings.count
        bytes = []
        decoded = strings
    }

    /// `bytes`: `count` strings as `StateWriter.string` writes them, their lengths checked already.
    init(count: Int, bytes: [UInt8]) {
        self.count = count
        self.bytes = bytes
    }

    var strings: [String] {
        lock.withLock {
            if let decoded { return decoded }
            var list: [String] = []
            list.reserveCapacity(count)
            bytes.withUnsafeBytes { raw in
                var reader = StateReader(raw)
                // Bounds were checked when the state was read: nothing here can fail.
                for _ in 0..<count { list.append((try? reader.string()) ?? "") }
            }
            decoded = list
            bytes = []
            return list
        }
    }

    /// The strings as the state file holds them, unless they were made strings.
    var encoded: [UInt8]? { lock.withLock { decoded == nil ? bytes : nil } }

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
    public func fileLookup() -> @Sendable (String) -> Bool {
        var keys = Set<PathKey>(minimumCapacity: fileList.count)
        fileList.forEach { keys.insert(PathKey($0)) }
        return { [keys] path in keys.contains(PathKey(path)) }
    }
}

extension OutputFolder {
    /// What the next state lists of OUT, from the previous list (`owned`,
    /// sorted) and the files this build produced (`produced`, any order,
    /// a path possibly twice) and wrote (`written`): the owned files no
    /// longer produced, and the `leftovers` (files a killed build journaled,
    /// or this build wrote) not produced either (`stale`); and the produced
    /// ones in order, the owned ones kept in theirs and the ones this build
    /// wrote merged in (nil when some produced file is neither: a state
    /// lost, a killed build's files taken; the caller sorts). `sameFiles`:
    /// the list is `owned`'s.
    static func sift(owned: EncodedStrings, produced: [String], written: Set<String>, leftovers: Set<String> = [])
        -> (stale: [String], files: EncodedStrings?, sameFiles: Bool) {
        // Hashed on every core a chunk at a time (a million paths' hashes are not held twice), gathered into one set.
        var producedKeys = Set<PathKey>(minimumCapacity: produced.count)
        let chunk = 1 << 16, parts = 8
        for start in stride(from: 0, to: produced.count, by: chunk) {
            let end = min(produced.count, start + chunk)
            let ranges = (0..<parts).map { start + (end - start) * $0 / parts ..< start + (end - start) * ($0 + 1) / parts }
            for keys in parallelMap(ranges, minimumCount: 2, { $0.map { PathKey(produced[$0]) } }) {
                for key in keys { producedKeys.insert(key) }
            }
        }
        // The files this build wrote that it produces: new unless owned before.
        var fresh: [PathKey: String] = [:]
        var maybeFresh = FreshFilter()
        for path in written {
            let key = PathKey(path)
            if producedKeys.contains(key) {
                fresh[key] = path
                maybeFresh.insert(key)
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
        var stale: [String] = [], kept = 0
        for run in runs {
            kept += run.kept
            stale += run.stale
            for key in run.owned { fresh[key] = nil }
        }
        let ownedStale = stale.count
        for path in leftovers where !producedKeys.contains(PathKey(path)) { stale.append(path) }
        let new = fresh.values.sorted()
        // A list read from a state is in order; one merged with a sharded build's parts is not.
        guard owned.encoded != nil || zip(owned.strings, owned.strings.dropFirst()).allSatisfy({ $0 < $1 }),
              kept + new.count == producedKeys.count else { return (stale, nil, false) }
        guard !new.isEmpty else { return (stale, EncodedStrings(count: kept, bytes: keptBytes), ownedStale == 0) }
        return (stale, EncodedStrings(count: kept + new.count, bytes: merged(keptBytes, count: kept, with: new)), false)
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

    /// `list` (`count` encoded strings in order) with `new` (sorted) put in
    /// their places, the list copied a run of entries at a time.
    private static func merged(_ list: [UInt8], count: Int, with new: [String]) -> [UInt8] {
        var out = StateWriter()
        out.reserve(list.count + new.reduce(0) { $0 + 8 + $1.utf8.count })
        var next = 0
        list.withUnsafeBytes { raw in
            var offset = 0, copied = 0
            for _ in 0..<count where next < new.count {
                let length = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
                let utf8 = UnsafeRawBufferPointer(rebasing: raw[(offset + 8)..<(offset + 8 + length)])
                if precedes(new[next], utf8) {
                    out.raw(UnsafeRawBufferPointer(rebasing: raw[copied..<offset]))
                    copied = offset
                    while next < new.count, precedes(new[next], utf8) {
                        out.string(new[next])
                        next += 1
                    }
                }
                offset += 8 + length
            }
            out.raw(UnsafeRawBufferPointer(rebasing: raw[copied...]))
        }
        while next < new.count {
            out.string(new[next])
            next += 1
        }
        return out.bytes
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

    /// Whether `path` sorts before the string whose UTF-8 is `utf8`, as
    /// strings sort (their bytes' order when both are ASCII).
    private static func precedes(_ path: String, _ utf8: UnsafeRawBufferPointer) -> Bool {
        var path = path
        return path.withUTF8 { precedes(UnsafeRawBufferPointer($0), utf8) }
    }

    /// Whether the string whose UTF-8 is `a` sorts before `b`'s.
    private static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        if a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) { return a.lexicographicallyPrecedes(b) }
        return String(decoding: a, as: UTF8.self) < String(decoding: b, as: UTF8.self)
    }
}
