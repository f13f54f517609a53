import GalleryCore

/// The state's photo entries by key: a `KeyedTable`, not a `Dictionary` (at
/// 100,000 photos the dictionary's slots were 40 MB of a no-op's peak;
/// docs/performance.md).
public typealias PhotoEntries = KeyedTable<PhotoKey, CachedPhoto>

/// The state's page records by page key (`PageKey(path:)` of the id), as the photo
/// entries are: a `KeyedTable`, not a `Dictionary` (of 1,000,000 records it
/// kept 2,097,152 slots of key and record, 84 bytes a page). Keyed by the
/// id's hash, not the id: the ids as strings were 81 heap bytes a page, a
/// tenth of a no-op's peak at 1,000,000 items.
public typealias PageEntries = KeyedTable<PageKey, PageRecord>

/// A photo entry's key: its source path's (`BuildState.key(for:)`).
public typealias PhotoKey = StateKey
/// A page record's key: its id's (its path in OUT).
public typealias PageKey = StateKey

extension StateKey {
    /// The key of a path: a source file's relative path (a photo entry's,
    /// `BuildState.key(for:)`) or a page's id (a page record's).
    public init(path: String) {
        var hasher = StableHash()
        hasher.update(path)
        self.init(hasher.digest())
    }
}

/// A key in the state: the first 96 bits of a path's hash (a photo's source
/// path, a page's id), written as 24 lowercase hex digits. Kept as the
/// number: as a string, each of a million entries held 64 heap bytes more.
public struct StateKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The digest whose first 96 bits the key is (the rest zero).
    let digest: StableHash.Digest

    /// The number of hex digits a key is written with.
    static let hexCount = 24

    /// The key of the digest's first 96 bits.
    init(_ digest: StableHash.Digest) {
        self.digest = StableHash.Digest(high: digest.high, low: digest.low & 0xFFFF_FFFF_0000_0000)
    }

    /// The key the bytes spell (24 lowercase hex digits); nil for anything else.
    init?(hexBytes bytes: UnsafeRawBufferPointer) {
        guard let digest = StableHash.Digest(hexPrefix: bytes, digits: Self.hexCount) else { return nil }
        self.digest = digest
    }

    /// The key `hex` spells (24 lowercase hex digits); nil for anything else.
    public init?(hex: String) {
        guard let digest = StableHash.Digest(hexPrefix: hex.utf8, digits: Self.hexCount) else { return nil }
        self.digest = digest
    }

    /// As the state writes it: 24 lowercase hex digits, whose order as text is the keys' order.
    public var description: String { digest.hex(digits: Self.hexCount) }

    /// Calls `body` with `description`'s bytes, written on the stack.
    func withHexDigits<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result { digest.withHexDigits(Self.hexCount, body) }

    public static func < (a: StateKey, b: StateKey) -> Bool { (a.digest.high, a.digest.low) < (b.digest.high, b.digest.low) }
}
