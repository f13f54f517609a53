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
        // Hashed on every core, gathered into one set.
        let parts = 8
        let hashed = parallelMap((0..<parts).map { produced.count * $0 / parts ..< produced.count * ($0 + 1) / parts }, minimumCount: 2) {
            $0.map { PathKey(produced[$0]) }
        }
        var producedKeys = Set<PathKey>(minimumCapacity: produced.count)
        for keys in hashed { for key in keys { producedKeys.insert(key) } }
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
        // The owned files looked up in runs on every core (the list's bytes), each run's kept bytes joined in order.
        let filter = maybeFresh, wanted = producedKeys
        @Sendable func sort(_ each: ((UnsafeRawBufferPointer) -> Void) -> Void) -> OwnedRun {
            var run = OwnedRun()
            each { utf8 in
                let key = PathKey(utf8)
                if wanted.contains(key) {
                    run.kept += 1
                    if filter.contains(key) { run.owned.append(key) }
                    run.list.int(utf8.count)
                    run.list.raw(utf8)
                } else {
                    run.stale.append(String(decoding: utf8, as: UTF8.self))
                }
            }
            return run
        }
        let runs: [OwnedRun]
        if let (bytes, cuts) = owned.runs(8) {
            runs = parallelMap(cuts, minimumCount: 2) { cut in
                bytes.withUnsafeBytes { raw in sort { EncodedStrings.forEach(in: UnsafeRawBufferPointer(rebasing: raw[cut.range]), count: cut.count, $0) } }
            }
        } else {
            runs = [sort { owned.forEach($0) }]
        }
        var stale: [String] = [], kept = 0
        var keptList = StateWriter()
        keptList.reserve(runs.reduce(0) { $0 + $1.list.bytes.count })
        for run in runs {
            kept += run.kept
            keptList.raw(run.list.bytes)
            stale += run.stale
            for key in run.owned { fresh[key] = nil }
        }
        let ownedStale = stale.count
        for path in leftovers where !producedKeys.contains(PathKey(path)) { stale.append(path) }
        let new = fresh.values.sorted()
        // A list read from a state is in order; one merged with a sharded build's parts is not.
        guard owned.encoded != nil || zip(owned.strings, owned.strings.dropFirst()).allSatisfy({ $0 < $1 }),
              kept + new.count == producedKeys.count else { return (stale, nil, false) }
        guard !new.isEmpty else { return (stale, EncodedStrings(count: kept, bytes: keptList.bytes), ownedStale == 0) }
        return (stale, EncodedStrings(count: kept + new.count, bytes: merged(keptList.bytes, count: kept, with: new)), false)
    }

    /// `list` (`count` encoded strings in order) with `new` (sorted) put in their places.
    private static func merged(_ list: [UInt8], count: Int, with new: [String]) -> [UInt8] {
        var out = StateWriter()
        out.reserve(list.count + new.reduce(0) { $0 + 8 + $1.utf8.count })
        var next = 0
        list.withUnsafeBytes { raw in
            var offset = 0
            for _ in 0..<count {
                let length = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
                let entry = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + 8 + length)])
                let utf8 = UnsafeRawBufferPointer(rebasing: entry[8...])
                while next < new.count, precedes(new[next], utf8) {
                    out.string(new[next])
                    next += 1
                }
                out.raw(entry)
                offset += 8 + length
            }
        }
        while next < new.count {
            out.string(new[next])
            next += 1
        }
        return out.bytes
    }

    /// What one run of the owned files came to.
    private struct OwnedRun: Sendable {
        var list = StateWriter()
        var kept = 0
        var stale: [String] = []
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
