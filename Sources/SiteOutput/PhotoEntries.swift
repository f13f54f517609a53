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
    /// The digest whose first 96 bits the key is (the rest zero).
    let digest: StableHash.Digest

    /// The number of hex digits a key is written with.
    static let hexCount = 24

    /// The key of the digest's first 96 bits.
    init(_ digest: StableHash.Digest) {
        self.digest = StableHash.Digest(high: digest.high, low: digest.low & 0xFFFF_FFFF_0000_0000)
    }

    /// The key the bytes spell (24 lowercase hex digits); nil for anything else.
    init?(hexBytes bytes: some Collection<UInt8>) {
        guard let digest = StableHash.Digest(hexPrefix: bytes, digits: Self.hexCount) else { return nil }
        self.digest = digest
    }

    /// The key `hex` spells (24 lowercase hex digits); nil for anything else.
    public init?(hex: String) { self.init(hexBytes: hex.utf8) }

    /// As the state writes it: 24 lowercase hex digits, whose order as text is the keys' order.
    public var description: String { digest.hex(digits: Self.hexCount) }

    /// Calls `body` with `description`'s bytes, written on the stack.
    func withHexDigits<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result { digest.withHexDigits(Self.hexCount, body) }

    public static func < (a: PhotoKey, b: PhotoKey) -> Bool { (a.digest.high, a.digest.low) < (b.digest.high, b.digest.low) }
}
