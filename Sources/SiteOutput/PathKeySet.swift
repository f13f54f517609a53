import GalleryCore

/// A set of path keys in one flat table, each key at the place its own
/// bits name or the first free one after it. A key is a hash already, so it
/// is not hashed again (`Set` runs SipHash over its 16 bytes), and the table
/// is sized to a quarter more than it holds, not to a power of two: a `Set`
/// of OUT's two million files took 4,194,304 slots (67 MB), this 2.5 million.
struct PathKeySet: Sendable {
    /// The keys; `free` where there is none.
    private var slots: [PathKey]
    /// `free` itself is a key too (one path in 2^128 has it): kept aside.
    private var holdsFree = false
    /// How many keys there are.
    private(set) var count = 0

    private static let free = PathKey(digest: .zero)

    /// An empty set with room for `capacity` keys.
    init(minimumCapacity capacity: Int = 0) {
        slots = Array(repeating: Self.free, count: Self.slotCount(for: capacity))
    }

    /// Room for `count` keys at most four fifths full.
    private static func slotCount(for count: Int) -> Int { max(16, count + count / 4 + 1) }

    var isEmpty: Bool { count == 0 }

    /// Where `key` would be if nothing were in its way: its high 64 bits scaled to the table.
    fileprivate static func home(_ key: PathKey, in slotCount: Int) -> Int {
        Int(truncatingIfNeeded: key.digest.high.multipliedFullWidth(by: UInt64(slotCount)).high)
    }

    /// Where `key` is, or the free slot where it would go.
    private func place(of key: PathKey) -> (at: Int, found: Bool) {
        var at = Self.home(key, in: slots.count)
        while true {
            let held = slots[at]
            if held == key { return (at, true) }
            if held == Self.free { return (at, false) }
            at += 1
            if at == slots.count { at = 0 }
        }
    }

    func contains(_ key: PathKey) -> Bool {
        key == Self.free ? holdsFree : place(of: key).found
    }

    /// Adds `key`; false when it was there.
    @discardableResult
    mutating func insert(_ key: PathKey) -> Bool {
        if key == Self.free {
            defer { holdsFree = true }
            if !holdsFree { count += 1 }
            return !holdsFree
        }
        if (count + 1) * 5 > slots.count * 4 { grow(to: Self.slotCount(for: count + count / 2 + 1)) }
        let (at, found) = place(of: key)
        guard !found else { return false }
        slots[at] = key
        count += 1
        return true
    }

    mutating func formUnion<Keys: Sequence>(_ keys: Keys) where Keys.Element == PathKey {
        for key in keys { insert(key) }
    }

    mutating func formUnion(_ other: PathKeySet) {
        if other.holdsFree { insert(Self.free) }
        for key in other.slots where key != Self.free { insert(key) }
    }

    /// Takes `key` out; false when it was not there. The keys after it that
    /// could be nearer their homes move back, so no search stops early.
    @discardableResult
    mutating func remove(_ key: PathKey) -> Bool {
        if key == Self.free {
            defer { holdsFree = false }
            if holdsFree { count -= 1 }
            return holdsFree
        }
        let (at, found) = place(of: key)
        guard found else { return false }
        let slotCount = slots.count
        func distance(_ from: Int, _ to: Int) -> Int { to >= from ? to - from : to + slotCount - from }
        var hole = at, next = at
        while true {
            next += 1
            if next == slotCount { next = 0 }
            let held = slots[next]
            if held == Self.free { break }
            // It may fill the hole when the hole is no nearer its home than it is.
            if distance(Self.home(held, in: slotCount), next) >= distance(hole, next) {
                slots[hole] = held
                hole = next
            }
        }
        slots[hole] = Self.free
        count -= 1
        return true
    }

    /// The table cut into `count` runs of slots, for a fill on every core:
    /// a key belongs to the run its home is in. Homes follow the keys' high
    /// bits, so keys hashed apart can be sorted into runs before they go in.
    struct Regions: Equatable, Sendable {
        let count: Int
        /// The table's slots the runs cut.
        let slotCount: Int

        /// The run `key`'s home is in.
        func of(_ key: PathKey) -> Int {
            PathKeySet.home(key, in: slotCount) * count / slotCount
        }

        /// The slots of run `region`: those whose home is in it.
        fileprivate func slots(of region: Int) -> Range<Int> {
            (region * slotCount + count - 1) / count ..< ((region + 1) * slotCount + count - 1) / count
        }
    }

    /// The table as `count` runs, as it is now (a growth makes other runs).
    func regions(_ count: Int) -> Regions { Regions(count: count, slotCount: slots.count) }

    /// Adds every key of `parts`, each part's keys sorted by `regions`
    /// (`part[r]`: the keys whose home is in run r), each run filled on a
    /// core of its own: a sift's two million keys went in on one core while
    /// the other idled. A key whose probe would cross its run's end is put
    /// in afterwards, as `insert` would: a probe passes only full slots, in
    /// whatever order the keys came, so the table is the one `insert` makes.
    mutating func insert(_ parts: [[[PathKey]]], sortedBy regions: Regions) {
        let adding = parts.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        guard regions == self.regions(regions.count), (count + adding) * 5 <= slots.count * 4 else {
            for part in parts { for run in part { formUnion(run) } }
            return
        }
        let filled = slots.withUnsafeMutableBufferPointer { buffer in
            let table = SharedSlots(base: buffer.baseAddress!)
            return parallelMap(Array(0..<regions.count), minimumCount: 2) { region -> (added: Int, later: [PathKey]) in
                let run = regions.slots(of: region)
                var added = 0, later: [PathKey] = []
                for part in parts where region < part.count {
                    for key in part[region] {
                        guard key != Self.free else { later.append(key); continue }
                        var at = Self.home(key, in: regions.slotCount)
                        while true {
                            if at == run.upperBound { later.append(key); break }
                            let held = table.base[at]
                            if held == key { break }
                            if held == Self.free {
                                table.base[at] = key
                                added += 1
                                break
                            }
                            at += 1
                        }
                    }
                }
                return (added, later)
            }
        }
        count += filled.reduce(0) { $0 + $1.added }
        for run in filled { formUnion(run.later) }
    }

    private mutating func grow(to slotCount: Int) {
        let old = slots
        slots = Array(repeating: Self.free, count: slotCount)
        for key in old where key != Self.free { slots[place(of: key).at] = key }
    }
}

/// The table's slots, written by one core per run of them (`insert(_:sortedBy:)`).
private struct SharedSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<PathKey>
}
