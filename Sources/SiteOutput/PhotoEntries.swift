import GalleryCore

/// The state's photo entries by key: a `KeyedTable`, not a `Dictionary` (at
/// 100,000 photos the dictionary's slots were 40 MB of a no-op's peak;
/// docs/performance.md).
public typealias PhotoEntries = KeyedTable<PhotoKey, CachedPhoto>

/// The state's page records by page id: a `StringTable` as the photo
/// entries are (a `Dictionary` of 1,000,000 records kept 2,097,152 slots
/// of key and record, 84 bytes a page).
public typealias PageEntries = StringTable<PageRecord>

/// A photo's key in the state (`BuildState.key(for:)`): the first 96 bits of
/// its path's hash, written as 24 lowercase hex digits. Kept as the number:
/// as a string, each of a million entries held 64 heap bytes more.
public struct PhotoKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    let high: UInt64
    let low: UInt32

    /// The number of hex digits a key is written with.
    static let hexCount = 24

    /// The key of the digest's first 96 bits.
    init(_ digest: StableHash.Digest) {
        high = digest.high
        low = UInt32(truncatingIfNeeded: digest.low >> 32)
    }

    /// The key the bytes spell (24 lowercase hex digits); nil for anything else.
    init?(hexBytes bytes: some Collection<UInt8>) {
        guard bytes.count == Self.hexCount else { return nil }
        var high: UInt64 = 0, low: UInt32 = 0
        for (index, byte) in bytes.enumerated() {
            guard let value = StableHash.Digest.value(ofHexDigit: byte) else { return nil }
            if index < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt32(value) }
        }
        self.high = high
        self.low = low
    }

    /// The key `hex` spells (24 lowercase hex digits); nil for anything else.
    public init?(hex: String) { self.init(hexBytes: Array(hex.utf8)) }

    /// As the state writes it: 24 lowercase hex digits, whose order as text is the keys' order.
    public var description: String { String(decoding: hexDigits, as: UTF8.self) }

    /// `description`'s bytes.
    var hexDigits: [UInt8] {
        let digest = StableHash.Digest(high: high, low: UInt64(low) << 32)
        return (0..<Self.hexCount).map { digest.hexDigit($0) }
    }

    public static func < (a: PhotoKey, b: PhotoKey) -> Bool { (a.high, a.low) < (b.high, b.low) }
}
