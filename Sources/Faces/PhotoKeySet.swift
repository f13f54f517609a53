import GalleryCore

/// A set of photos' content hashes held as numbers: the photos looked at in
/// which no face was found, most of a library. A content hash of 32
/// lowercase hex digits is 128 bits, 16 bytes in a set; held as strings in
/// the table's dictionary, 100,000 of them were most of what a rebuild that
/// adds a photo read, checked and wrote again. Any other spelling of a hash
/// is kept as it is.
public struct PhotoKeySet: Sendable, Equatable {
    typealias Key = StableHash.Digest

    private(set) var keys: Set<Key> = []
    private(set) var others: Set<String> = []

    public init() {}

    public var count: Int { keys.count + others.count }

    public func contains(_ hash: String) -> Bool {
        if let key = Self.key(hash) { return keys.contains(key) }
        return others.contains(hash)
    }

    public mutating func insert(_ hash: String) {
        if let key = Self.key(hash) { keys.insert(key) } else { others.insert(hash) }
    }

    public mutating func remove(_ hash: String) {
        if let key = Self.key(hash) { keys.remove(key) } else { others.remove(hash) }
    }

    public mutating func formUnion(_ other: PhotoKeySet) {
        keys.formUnion(other.keys)
        others.formUnion(other.others)
    }

    /// Those of `hashes` that are in the set (each hash once).
    public func keeping(_ hashes: some Sequence<String>) -> PhotoKeySet {
        var kept = PhotoKeySet()
        kept.keys.reserveCapacity(keys.count)
        for hash in hashes {
            if let key = Self.key(hash) {
                if keys.contains(key) { kept.keys.insert(key) }
            } else if others.contains(hash) {
                kept.others.insert(hash)
            }
        }
        return kept
    }

    /// A content hash (`StableHash.Digest`'s spelling) as its number.
    static func key(_ hash: String) -> Key? { Key(hex: hash) }

    // MARK: In the table's file

    /// Sorted, so equal sets make equal bytes: the keys (16 bytes each),
    /// then the other hashes as strings.
    func encode(int: (Int) -> Void, string: (String) -> Void, bytes: ([UInt8]) -> Void) {
        int(keys.count)
        var raw: [UInt8] = []
        raw.reserveCapacity(16 * keys.count)
        for key in keys.sorted(by: { ($0.high, $0.low) < ($1.high, $1.low) }) {
            withUnsafeBytes(of: key.high.littleEndian) { raw.append(contentsOf: $0) }
            withUnsafeBytes(of: key.low.littleEndian) { raw.append(contentsOf: $0) }
        }
        bytes(raw)
        int(others.count)
        for hash in others.sorted() { string(hash) }
    }

    /// The keys' part as `encode` wrote it (`take` hands over the next
    /// bytes, nil past the end); nil when it is not one.
    static func decode(int: () -> Int?, string: () -> String?, take: (Int) -> UnsafeRawBufferPointer?) -> PhotoKeySet? {
        guard let count = int(), count >= 0, count <= Int.max / 16, let raw = take(16 * count) else { return nil }
        var set = PhotoKeySet()
        set.keys.reserveCapacity(count)
        for index in 0..<count {
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16 * index, as: UInt64.self))
            let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16 * index + 8, as: UInt64.self))
            set.keys.insert(Key(high: high, low: low))
        }
        guard let others = int(), others >= 0 else { return nil }
        for _ in 0..<others {
            guard let hash = string() else { return nil }
            set.insert(hash)
        }
        return set
    }
}
