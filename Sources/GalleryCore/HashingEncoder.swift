import Foundation

extension StableHash {
    /// Feeds every field of an `Encodable` value: its keys and values in
    /// encoding order, each container marked where it begins and nil marked
    /// as such. A field added to the type later is fed too, with no list of
    /// fields to keep up to date: what page fingerprints need to stay exact.
    public mutating func add<Value: Encodable>(encoding value: Value) {
        let sink = HashSink(self)
        // Encoding into a hash cannot fail: no container here ever throws.
        try? value.encode(to: HashingEncoder(sink: sink))
        self = sink.hasher
    }
}

/// The hasher the containers of one encoding share.
private final class HashSink {
    var hasher: StableHash
    init(_ hasher: StableHash) { self.hasher = hasher }

    func mark(_ tag: UInt64) { hasher.add(0xA5A5_0000_0000_0000 | tag) }
}

private struct HashingEncoder: Encoder {
    let sink: HashSink
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        sink.mark(1)
        return KeyedEncodingContainer(KeyedHashContainer<Key>(sink: sink))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.mark(2)
        return UnkeyedHashContainer(sink: sink)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleHashContainer(sink: sink) }
}

/// Values of every container go through here.
private struct ValueFeeder {
    let sink: HashSink

    func nil_() { sink.mark(3) }
    func bool(_ v: Bool) { sink.hasher.add(v) }
    func string(_ v: String) { sink.hasher.add(v) }
    func double(_ v: Double) { sink.hasher.add(v.bitPattern) }
    func int(_ v: Int64) { sink.hasher.add(UInt64(bitPattern: v)) }
    func uint(_ v: UInt64) { sink.hasher.add(v) }
    func value<T: Encodable>(_ v: T) {
        try? v.encode(to: HashingEncoder(sink: sink))
    }
}

private struct KeyedHashContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: HashSink
    var codingPath: [any CodingKey] { [] }
    var feed: ValueFeeder { ValueFeeder(sink: sink) }

    func key(_ key: Key) { sink.hasher.add(key.stringValue) }

    mutating func encodeNil(forKey key: Key) { self.key(key); feed.nil_() }
    mutating func encode(_ value: Bool, forKey key: Key) { self.key(key); feed.bool(value) }
    mutating func encode(_ value: String, forKey key: Key) { self.key(key); feed.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) { self.key(key); feed.double(value) }
    mutating func encode(_ value: Float, forKey key: Key) { self.key(key); feed.double(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) { self.key(key); feed.int(Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) { self.key(key); feed.int(Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) { self.key(key); feed.int(Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) { self.key(key); feed.int(Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) { self.key(key); feed.int(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { self.key(key); feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) { self.key(key); feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) { self.key(key); feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) { self.key(key); feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) { self.key(key); feed.uint(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { self.key(key); feed.value(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        self.key(key)
        return HashingEncoder(sink: sink).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        self.key(key)
        return HashingEncoder(sink: sink).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { HashingEncoder(sink: sink) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { self.key(key); return HashingEncoder(sink: sink) }
}

private struct UnkeyedHashContainer: UnkeyedEncodingContainer {
    let sink: HashSink
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0
    var feed: ValueFeeder { ValueFeeder(sink: sink) }

    init(sink: HashSink) { self.sink = sink }

    mutating func encodeNil() { count += 1; feed.nil_() }
    mutating func encode(_ value: Bool) { count += 1; feed.bool(value) }
    mutating func encode(_ value: String) { count += 1; feed.string(value) }
    mutating func encode(_ value: Double) { count += 1; feed.double(value) }
    mutating func encode(_ value: Float) { count += 1; feed.double(Double(value)) }
    mutating func encode(_ value: Int) { count += 1; feed.int(Int64(value)) }
    mutating func encode(_ value: Int8) { count += 1; feed.int(Int64(value)) }
    mutating func encode(_ value: Int16) { count += 1; feed.int(Int64(value)) }
    mutating func encode(_ value: Int32) { count += 1; feed.int(Int64(value)) }
    mutating func encode(_ value: Int64) { count += 1; feed.int(value) }
    mutating func encode(_ value: UInt) { count += 1; feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt8) { count += 1; feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt16) { count += 1; feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt32) { count += 1; feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt64) { count += 1; feed.uint(value) }
    mutating func encode<T: Encodable>(_ value: T) { count += 1; feed.value(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return HashingEncoder(sink: sink).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return HashingEncoder(sink: sink).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { HashingEncoder(sink: sink) }
}

private struct SingleHashContainer: SingleValueEncodingContainer {
    let sink: HashSink
    var codingPath: [any CodingKey] { [] }
    var feed: ValueFeeder { ValueFeeder(sink: sink) }

    mutating func encodeNil() { feed.nil_() }
    mutating func encode(_ value: Bool) { feed.bool(value) }
    mutating func encode(_ value: String) { feed.string(value) }
    mutating func encode(_ value: Double) { feed.double(value) }
    mutating func encode(_ value: Float) { feed.double(Double(value)) }
    mutating func encode(_ value: Int) { feed.int(Int64(value)) }
    mutating func encode(_ value: Int8) { feed.int(Int64(value)) }
    mutating func encode(_ value: Int16) { feed.int(Int64(value)) }
    mutating func encode(_ value: Int32) { feed.int(Int64(value)) }
    mutating func encode(_ value: Int64) { feed.int(value) }
    mutating func encode(_ value: UInt) { feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt8) { feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt16) { feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt32) { feed.uint(UInt64(value)) }
    mutating func encode(_ value: UInt64) { feed.uint(value) }
    mutating func encode<T: Encodable>(_ value: T) { feed.value(value) }
}
