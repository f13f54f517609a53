import GalleryCore

/// The state's photo entries by cache key, held as `StringTable` holds the
/// plan's tables: keys and entries in two dense arrays, found through a
/// table of 32-bit indices probed in order. A `Dictionary` of 100,000
/// entries kept key and 136-byte entry in each of its 262,144 slots: 40 MB
/// at a no-op's peak (docs/performance.md), 400 MB at a million photos.
/// The API is `Dictionary`'s where the build uses one; the order entries are
/// visited in is not meaningful (the state file sorts them).
public struct PhotoEntries: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: CachedPhoto)

    /// The keys, in no meaningful order.
    public private(set) var keys: [String] = []
    /// `values[i]` is `keys[i]`'s entry.
    public private(set) var values: [CachedPhoto] = []
    /// Indices into `keys`, at each key's hash (or after it); -1: empty.
    private var slots: [Int32] = []

    public init() {}

    public init(minimumCapacity capacity: Int) {
        reserveCapacity(capacity)
    }

    public init(dictionaryLiteral elements: (String, CachedPhoto)...) {
        reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// `key`'s entry; setting nil removes it.
    public subscript(key: String) -> CachedPhoto? {
        get { slot(of: key).map { values[Int(slots[$0])] } }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Sets `key`'s entry; returns the one it replaced.
    @discardableResult
    public mutating func updateValue(_ value: CachedPhoto, forKey key: String) -> CachedPhoto? {
        if let slot = slot(of: key) {
            let index = Int(slots[slot])
            let old = values[index]
            values[index] = value
            return old
        }
        if Self.slotCount(for: keys.count + 1) > slots.count { rehash(Self.slotCount(for: keys.count + 1)) }
        keys.append(key)
        values.append(value)
        place(keys.count - 1)
        return nil
    }

    /// Removes `key`'s entry; returns it. The last entry takes its place in
    /// the arrays, and the probe run it left is closed up (no tombstones).
    @discardableResult
    public mutating func removeValue(forKey key: String) -> CachedPhoto? {
        guard var hole = slot(of: key) else { return nil }
        let index = Int(slots[hole]), removed = values[index]
        let mask = slots.count - 1
        var next = hole
        while true {
            next = (next + 1) & mask
            guard slots[next] >= 0 else { break }
            let home = keys[Int(slots[next])].hashValue & mask
            // The entry at `next` may move back into the hole unless its home lies cyclically in (hole, next].
            let staysPut = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !staysPut {
                slots[hole] = slots[next]
                hole = next
            }
        }
        slots[hole] = -1
        let last = keys.count - 1
        if index != last {
            // The last entry moves into the freed index: its slot follows.
            var slot = keys[last].hashValue & mask
            while Int(slots[slot]) != last { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
            keys.swapAt(index, last)
            values.swapAt(index, last)
        }
        keys.removeLast()
        values.removeLast()
        return removed
    }

    /// Keeps the entries `isIncluded` accepts (one pass, one rehash).
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> PhotoEntries {
        var kept = PhotoEntries()
        for element in self where try isIncluded(element) {
            kept.keys.append(element.key)
            kept.values.append(element.value)
        }
        kept.rehash(Self.slotCount(for: kept.keys.count))
        return kept
    }

    /// Adds `other`'s entries; a key in both gets `combine(mine, theirs)`.
    public mutating func merge(_ other: PhotoEntries, uniquingKeysWith combine: (CachedPhoto, CachedPhoto) throws -> CachedPhoto) rethrows {
        reserveCapacity(count + other.count)
        for (key, value) in other {
            if let mine = self[key] { updateValue(try combine(mine, value), forKey: key) } else { updateValue(value, forKey: key) }
        }
    }

    /// Room for `capacity` entries without growing.
    public mutating func reserveCapacity(_ capacity: Int) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        if Self.slotCount(for: capacity) > slots.count { rehash(Self.slotCount(for: capacity)) }
    }

    public func makeIterator() -> some IteratorProtocol<Element> {
        zip(keys, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    public static func == (a: PhotoEntries, b: PhotoEntries) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }

    /// Slots for `count` entries: a power of two, at most three quarters full.
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots * 3 < count * 4 { slots *= 2 }
        return slots
    }

    /// The slot that holds `key`'s index.
    private func slot(of key: String) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = key.hashValue & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if keys[index] == key { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// Puts `keys[index]` in the first empty slot from its hash on.
    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = keys[index].hashValue & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }

    private mutating func rehash(_ count: Int) {
        slots = [Int32](repeating: -1, count: count)
        for index in keys.indices { place(index) }
    }
}
