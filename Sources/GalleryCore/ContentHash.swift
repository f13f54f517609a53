/// The hash of a file's content (`StableHash` of its bytes, or of a JPEG's
/// pixels): equal hashes mean the same photo.
///
/// Kept as its 128 bits and spelt as 32 lowercase hex digits wherever it is
/// named or hashed (rendition names, the state file, page fingerprints),
/// exactly as the string it replaced: as a string, each of a million items
/// held 80 bytes more on the heap, and every lookup hashed 32 characters.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash's bits.
    public let digest: StableHash.Digest

    /// The number of hex digits a content hash is spelt with.
    public static let hexCount = 32

    public init(_ digest: StableHash.Digest) {
        self.digest = digest
    }

    /// The hash `hex` spells (32 lowercase hex digits, as `description`
    /// writes them); nil for anything else.
    public init?(hex: String) {
        guard let digest = StableHash.Digest(hex: hex) else { return nil }
        self.digest = digest
    }

    /// The hash the bytes spell (32 lowercase hex digits); nil for anything else.
    public init?(hexBytes bytes: UnsafeRawBufferPointer) {
        guard let digest = StableHash.Digest(hexPrefix: bytes, digits: Self.hexCount) else { return nil }
        self.digest = digest
    }

    /// 32 lowercase hex digits.
    public var description: String { digest.description }

    /// Calls `body` with the 32 hex digits (and a NUL when `separated`),
    /// written on the stack: hashed for every rendition of every item.
    public func withHexDigits<Result>(separated: Bool = false, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        digest.withHexDigits(Self.hexCount, separated: separated, body)
    }
}

extension StableHash {
    /// Feeds a content hash as `update(hash.description)` would, without the string.
    public mutating func update(_ hash: ContentHash) {
        hash.withHexDigits(separated: true) { update($0) }
    }

    /// Feeds a content hash as `add(hash.description)` would, without the string.
    public mutating func add(_ hash: ContentHash) {
        hash.withHexDigits { update($0) }
        add(UInt64(0xFF))
    }

    /// The content hash of what was fed.
    public func contentHash() -> ContentHash { ContentHash(digest()) }
}
