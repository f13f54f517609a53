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
    private func home(_ key: PathKey, in slotCount: Int) -> Int {
        Int(truncatingIfNeeded: key.digest.high.multipliedFullWidth(by: UInt64(slotCount)).high)
    }

    /// Where `key` is, or the free slot where it would go.
    private func place(of key: PathKey) -> (at: Int, found: Bool) {
        var at = home(key, in: slots.count)
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
            if distance(home(held, in: slotCount), next) >= distance(hole, next) {
                slots[hole] = held
                hole = next
            }
        }
        slots[hole] = Self.free
        count -= 1
        return true
    }

    private mutating func grow(to slotCount: Int) {
        let old = slots
        slots = Array(repeating: Self.free, count: slotCount)
        for key in old where key != Self.free { slots[place(of: key).at] = key }
    }
}
