import Foundation
import Synchronization

extension StateFileBase {
    /// Where an entry of a region starts, and its key.
    struct Sample: Sendable {
        let offset: Int
        let key: StateKey
    }

    /// Every `interval`-th entry of a region as it is decoded, and whether
    /// the keys ascend: a commit then finds a changed entry's place from the
    /// nearest sample before it, stepping over at most `interval` entries,
    /// instead of stepping over all of them (two million at a million photos,
    /// for the handful an add changes).
    struct Samples {
        /// Entries between two samples: 1,024 of a million are 16 KB of
        /// samples, and finding a place steps over 300 KB of photo entries
        /// at most. Set lower by the pipeline tests, whose states are small,
        /// so their commits seek too.
        static let interval = Atomic<Int>(1024)

        private let every: Int
        private var taken: [Sample] = []
        private var previous: StateKey?
        private var ascending = true

        init(every: Int = Samples.interval.load(ordering: .relaxed)) { self.every = max(1, every) }

        /// The entry at `index` starts at `offset` with `key`.
        mutating func note(_ key: StateKey, at offset: Int, index: Int) {
            if let previous, !(previous < key) { ascending = false }
            previous = key
            if index % every == 0 { taken.append(Sample(offset: offset, key: key)) }
        }

        /// The samples, if every key was greater than the one before.
        var inOrder: [Sample]? { ascending ? taken : nil }
    }
}

/// A region's merge with its changed entries (`BuildState.encodeFromBase`)
/// that finds each changed key's place from the region's samples and hands
/// the unchanged runs between them to `copy` whole, not entry by entry: an
/// add at a million photos copied 350 MB of entries through the process one
/// at a time, for a few dozen changed.
struct EntrySeeking {
    let region: StateFileBase.Region
    let samples: [StateFileBase.Sample]
    let changed: [StateKey]

    /// Nil when the region has no samples, or when so many entries changed
    /// that stepping over every entry once costs less than seeking each.
    init?(_ region: StateFileBase.Region, changed: [StateKey]) {
        guard let samples = region.samples, !samples.isEmpty else { return nil }
        let interval = max(1, region.count / samples.count)
        guard changed.count * interval <= region.count else { return nil }
        self.region = region
        self.samples = samples
        self.changed = changed
    }

    /// The offset of the last sample whose key is at most `key` (the region's start if none is).
    private func sampleOffset(atOrBefore key: StateKey) -> Int {
        var low = 0, high = samples.count  // the first sample above `key` is in low..<high, or none
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].key <= key { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? region.offset : samples[low - 1].offset
    }

    /// Writes the region's entries with the changed ones in their places
    /// (`write` returns false for one that is gone); exactly `expected`
    /// entries must come out. `copy` puts a range of the base file next.
    func merge(from descriptor: Int32, expected: Int, readSize: Int, writer: inout StateWriter, chunkSize: Int,
               _ send: (UnsafeRawBufferPointer) throws(StateDeltaError) -> Void,
               copy: (Range<Int>) throws(StateDeltaError) -> Void,
               entryLength: (inout BaseReader) throws(StateDeltaError) -> Int,
               write: (StateKey, inout StateWriter) -> Bool) throws(StateDeltaError) {
        let end = region.offset + region.length
        // The base's bytes before `position` are in the output, or replaced.
        var position = region.offset, count = region.count
        func copyUpTo(_ offset: Int) throws(StateDeltaError) {
            guard offset > position else { return }
            if !writer.bytes.isEmpty { try writer.flush(send) }
            try copy(position..<offset)
            position = offset
        }
        for key in changed {
            // From the nearest sample, or from where the output is when that is further on.
            var at = max(position, sampleOffset(atOrBefore: key))
            var reader = BaseReader(descriptor: descriptor,
                                    region: StateFileBase.Region(offset: at, length: end - at, count: 0), size: min(readSize, 1 << 16))
            var found: (key: StateKey, length: Int)?
            while !reader.isAtEnd {
                let length = try entryLength(&reader)
                let entryKey = reader.withUnread(length) { entry -> StateKey? in
                    let keyLength = Int(Int64(littleEndian: entry.loadUnaligned(as: Int64.self)))
                    return StateKey(hexBytes: UnsafeRawBufferPointer(rebasing: entry[8..<(8 + keyLength)]))
                }
                guard let entryKey else { throw .unusable("bad key in base") }
                if entryKey >= key {
                    found = (entryKey, length)
                    break
                }
                reader.consume(length)
                at += length
            }
            try copyUpTo(at)
            if let found, found.key == key {
                // The old entry is not copied.
                position += found.length
                count -= 1
            }
            if write(key, &writer) { count += 1 }
            if writer.bytes.count >= chunkSize { try writer.flush(send) }
        }
        try copyUpTo(end)
        guard count == expected else { throw .unusable("base and changes do not add up") }
    }
}
