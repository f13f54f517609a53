/// A map from keys to values for the build's tables of one entry per item
/// (each item's place in the site, each item's fingerprint, the state's
/// photo entries and page records): keys and values in two dense arrays,
/// found through a table of 32-bit indices probed in order. A `Dictionary`
/// keeps key and value in every slot of a table at most three quarters
/// full, so 100,000 entries took 262,144 slots of both: more than twice the
/// memory (the state's photo entries alone were 40 MB of a no-op's peak).
/// Where the build used a `Dictionary`, the same calls work here; the order
/// entries are visited in is the keys' order, not a meaningful one.
///
/// Inlinable, so each module's tables are specialized for their keys and
/// values: a lookup hashes and compares its key type's own way.
public struct KeyedTable<Key: Hashable & Sendable, Value: Sendable>: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: Key, value: Value)

    /// The keys, in the order they were first set (a removal moves the last into the gap).
    @inlinable public var keys: [Key] { storedKeys }
    /// `values[i]` is `keys[i]`'s.
    @inlinable public var values: [Value] { storedValues }
    @usableFromInline var storedKeys: [Key] = []
    @usableFromInline var storedValues: [Value] = []
    /// Indices into `keys`, at each key's hash (or after it); -1: empty.
    @usableFromInline var slots: [Int32] = []

    /// An empty table with room for `capacity` entries.
    @inlinable public init(minimumCapacity capacity: Int = 0) {
        reserveCapacity(capacity)
    }

    @inlinable public init(dictionaryLiteral elements: (Key, Value)...) {
        reserveCapacity(elements.count)
        for (key, value) in elements { set(value, for: key) }
    }

    /// How many entries there are.
    @inlinable public var count: Int { storedKeys.count }
    @inlinable public var isEmpty: Bool { storedKeys.isEmpty }

    /// The value of `key`, if it has one; setting nil removes it.
    @inlinable public subscript(key: Key) -> Value? {
        get { slot(of: key).map { storedValues[Int(slots[$0])] } }
        set {
            if let newValue { set(newValue, for: key) } else { removeValue(forKey: key) }
        }
    }

    /// Where `key`'s entry is in `keys` and `values`: the same until an
    /// entry is removed (setting a value keeps every entry where it is).
    @inlinable public func index(forKey key: Key) -> Int? {
        slot(of: key).map { Int(slots[$0]) }
    }

    /// Sets `key`'s value, replacing the one it had.
    @inlinable public mutating func set(_ value: Value, for key: Key) {
        updateValue(value, forKey: key)
    }

    /// Sets `key`'s value; returns the one it replaced.
    @discardableResult
    @inlinable public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        updateValueAndIndex(value, forKey: key).replaced
    }

    /// Sets `key`'s value; returns the one it replaced, and where the entry
    /// is in `keys` and `values` (a new key's is at the end).
    @inlinable public mutating func updateValueAndIndex(_ value: Value, forKey key: Key) -> (replaced: Value?, index: Int) {
        if let slot = slot(of: key) {
            let index = Int(slots[slot])
            let old = storedValues[index]
            storedValues[index] = value
            return (old, index)
        }
        append(value, for: key)
        return (nil, storedKeys.count - 1)
    }

    /// Sets `key`'s value unless it has one already.
    @inlinable public mutating func setIfAbsent(_ value: Value, for key: Key) {
        if slot(of: key) == nil { append(value, for: key) }
    }

    /// Removes `key`'s value; returns it. The last entry takes its place in
    /// the arrays, and the probe run it leaves is closed up (no tombstones).
    @discardableResult
    @inlinable public mutating func removeValue(forKey key: Key) -> Value? {
        guard var hole = slot(of: key) else { return nil }
        let index = Int(slots[hole]), removed = storedValues[index]
        let mask = slots.count - 1
        var next = hole
        while true {
            next = (next + 1) & mask
            guard slots[next] >= 0 else { break }
            let home = storedKeys[Int(slots[next])].hashValue & mask
            // The entry at `next` moves back into the hole unless its home lies cyclically in (hole, next].
            let staysPut = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !staysPut {
                slots[hole] = slots[next]
                hole = next
            }
        }
        slots[hole] = -1
        let last = storedKeys.count - 1
        if index != last {
            // The last entry moves into the freed index: its slot follows.
            var slot = storedKeys[last].hashValue & mask
            while Int(slots[slot]) != last { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
            storedKeys.swapAt(index, last)
            storedValues.swapAt(index, last)
        }
        storedKeys.removeLast()
        storedValues.removeLast()
        return removed
    }

    /// The entries `isIncluded` accepts (one pass, one rehash).
    @inlinable public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> KeyedTable {
        var kept = KeyedTable()
        for element in self where try isIncluded(element) {
            kept.storedKeys.append(element.key)
            kept.storedValues.append(element.value)
        }
        kept.rehash(Self.slotCount(for: kept.storedKeys.count))
        return kept
    }

    /// Adds `other`'s entries; a key in both gets `combine(mine, theirs)`.
    @inlinable public mutating func merge(_ other: KeyedTable, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        reserveCapacity(count + other.count)
        for (key, value) in other {
            updateValue(try self[key].map { try combine($0, value) } ?? value, forKey: key)
        }
    }

    /// Room for `capacity` entries without growing.
    @inlinable public mutating func reserveCapacity(_ capacity: Int) {
        storedKeys.reserveCapacity(capacity)
        storedValues.reserveCapacity(capacity)
        if Self.slotCount(for: capacity) > slots.count { rehash(Self.slotCount(for: capacity)) }
    }

    @inlinable public func makeIterator() -> some IteratorProtocol<Element> {
        zip(keys, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    /// Slots for `count` entries: a power of two, at most three quarters full.
    @inlinable static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots * 3 < count * 4 { slots *= 2 }
        return slots
    }

    /// The slot that holds `key`'s index.
    @inlinable func slot(of key: Key) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = key.hashValue & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if storedKeys[index] == key { return slot }
            slot = (slot + 1) & mask
        }
    }

    @inlinable mutating func append(_ value: Value, for key: Key) {
        if Self.slotCount(for: storedKeys.count + 1) > slots.count { rehash(Self.slotCount(for: storedKeys.count + 1)) }
        // Grown by a quarter, not doubled as an array grows: a table of a
        // million photo entries (152 bytes each) doubled for the one photo
        // an add brings was 150 MB held empty, and moving it held both.
        if storedKeys.count == Swift.min(storedKeys.capacity, storedValues.capacity) {
            let grown = storedKeys.count + storedKeys.count / 4 + 16
            storedKeys.reserveCapacity(grown)
            storedValues.reserveCapacity(grown)
        }
        storedKeys.append(key)
        storedValues.append(value)
        place(storedKeys.count - 1)
    }

    /// Puts `keys[index]` in the first empty slot from its hash on.
    @inlinable mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = storedKeys[index].hashValue & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }

    @inlinable mutating func rehash(_ count: Int) {
        slots = [Int32](repeating: -1, count: count)
        for index in storedKeys.indices { place(index) }
    }
}

/// The tables keyed by text (page paths, item paths).
public typealias StringTable<Value: Sendable> = KeyedTable<String, Value>

/// Equal when they hold the same entries, whatever their order.
extension KeyedTable: Equatable where Value: Equatable {
    @inlinable public static func == (a: KeyedTable, b: KeyedTable) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }
}
