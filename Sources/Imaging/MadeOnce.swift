import Synchronization

/// Values made once per key and kept: a library's photos come in a handful
/// of sizes, and each filter is thousands of `sin` calls or rounded weights.
/// Cleared when it holds `limit` keys, so odd sizes never pile up.
final class MadeOnce<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Value]>([:])
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value for `key`, made by `make` the first time.
    func value(for key: Key, make: () -> Value) -> Value {
        if let cached = values.withLock({ $0[key] }) { return cached }
        let made = make()
        values.withLock { values in
            if values.count >= limit { values.removeAll() }
            values[key] = made
        }
        return made
    }
}
