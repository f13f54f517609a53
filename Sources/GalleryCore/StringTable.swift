/// A map from strings to values for the build's tables of one entry per
/// item (each item's place in the site, each item's fingerprint): keys and
/// values in two dense arrays, found through a table of 32-bit indices
/// probed in order. A `Dictionary` keeps key and value in every slot of a
/// table at most three quarters full, so 100,000 entries took 262,144 slots
/// of both: more than twice the memory, held through the page step.
/// Entries are added or replaced, never removed.
public struct StringTable<Value: Sendable>: Sendable {
    /// The keys, in the order they were first set.
    public private(set) var keys: [String] = []
    /// `values[i]` is `keys[i]`'s.
    public private(set) var values: [Value] = []
    /// Indices into `keys`, at each key's hash (or after it); -1: empty.
    private var slots: [Int32] = []

    /// An empty table with room for `capacity` entries.
    public init(minimumCapacity capacity: Int = 0) {
        reserveCapacity(capacity)
    }

    /// How many entries there are.
    public var count: Int { keys.count }

    /// The value of `key`, if it has one.
    public subscript(key: String) -> Value? {
        guard let index = index(of: key) else { return nil }
        return values[index]
    }

    /// Sets `key`'s value, replacing the one it had.
    public mutating func set(_ value: Value, for key: String) {
        if let index = index(of: key) {
            values[index] = value
        } else {
            append(value, for: key)
        }
    }

    /// Sets `key`'s value unless it has one already.
    public mutating func setIfAbsent(_ value: Value, for key: String) {
        if index(of: key) == nil { append(value, for: key) }
    }

    /// Room for `capacity` entries without growing.
    public mutating func reserveCapacity(_ capacity: Int) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        if Self.slotCount(for: capacity) > slots.count { rehash(Self.slotCount(for: capacity)) }
    }

    /// Slots for `count` entries: a power of two, at most three quarters full.
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots * 3 < count * 4 { slots *= 2 }
        return slots
    }

    private func index(of key: String) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = key.hashValue & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if keys[index] == key { return index }
            slot = (slot + 1) & mask
        }
    }

    private mutating func append(_ value: Value, for key: String) {
        if Self.slotCount(for: keys.count + 1) > slots.count { rehash(Self.slotCount(for: keys.count + 1)) }
        keys.append(key)
        values.append(value)
        place(keys.count - 1)
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
