import Foundation

/// What kind of thing a media item is; the pipeline plans renditions and the
/// pages present an item by its kind, so new formats slot in without special cases.
public enum MediaKind: String, Sendable, Codable, CaseIterable {
    /// A still picture (JPEG, PNG, a single-frame GIF or WebP).
    case still
    /// An animated GIF or WebP: re-encoded frame by frame.
    case animation
    /// A video clip: shown by a poster still, played by a browser-safe file.
    case video
    /// A still with a short motion clip of its own (Live Photo, Motion Photo).
    case motionStill
}

/// One item of the site (a photo today; a video or Live Photo tomorrow): its
/// source file, content, metadata and published renditions.
///
/// A value, kept in one box: an item is in the build's list, its album's,
/// its moment's, its tags' and the timeline, and sorted in several of them;
/// copying it is one reference (with its fields inline, a copy retained
/// eight objects, a third of replanning 100,000 items). Changing a copy's
/// field copies the box first.
public struct MediaItem: Hashable, Sendable {
    private final class Storage: @unchecked Sendable {
        var source: SourceFile
        var contentHash: ContentHash
        var metadata: OutOfLine<PhotoMetadata>
        var renditions: [Rendition]
        // The fields below are laid out (in this order, each small) so the
        // object is 184 bytes, which malloc serves from its 192-byte blocks:
        // with the digest an optional and the stack role an enum it was
        // 201, served from 224, 32 bytes more for each of a million items.
        private var digest = StableHash.Digest.zero
        var looks: PictureLooks?
        /// `metadata.kind`, kept beside it: asked for of every item by every
        /// count and sort, and worked out from the metadata it copied the
        /// whole metadata out of its box each time (strings retained and
        /// released), even with the getter inlined (`MediaItem.kind`'s code).
        var kind: MediaKind
        private var hasDigest = false
        private var stackCode: Int32 = 0

        var metadataDigest: StableHash.Digest? {
            get { hasDigest ? digest : nil }
            set {
                digest = newValue ?? .zero
                hasDigest = newValue != nil
            }
        }

        var stack: StackRole {
            get { StackRole(code: stackCode) }
            set { stackCode = newValue.code }
        }

        init(source: SourceFile, contentHash: ContentHash, metadata: OutOfLine<PhotoMetadata>, renditions: [Rendition],
             metadataDigest: StableHash.Digest?) {
            self.source = source
            self.contentHash = contentHash
            self.metadata = metadata
            self.renditions = renditions
            self.kind = metadata.wrappedValue.kind
            self.metadataDigest = metadataDigest
        }

        func copy() -> Storage {
            let copy = Storage(source: source, contentHash: contentHash, metadata: metadata, renditions: renditions, metadataDigest: metadataDigest)
            copy.stack = stack
            copy.looks = looks
            return copy
        }
    }

    // Only ever changed through `unique()`: a box is shared by copies until one changes.
    private var storage: Storage

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Where it came from.
    // Read in place (`_read`), not copied: `item.source.relativePath` and
    // `item.metadata.captureDate` are read for every item of every page plan.
    public var source: SourceFile {
        _read { yield storage.source }
        set { unique().source = newValue }
    }
    /// Hash of the file's bytes: equal hashes mean the same photo.
    public var contentHash: ContentHash {
        get { storage.contentHash }
        set { unique().contentHash = newValue }
    }
    /// What the file says about itself.
    public var metadata: PhotoMetadata {
        // Through the box's address: a field is read where it is.
        unsafeAddress { storage.metadata.address }
        set {
            let storage = unique()
            storage.metadata.wrappedValue = newValue
            storage.kind = newValue.kind
        }
    }
    /// Published renditions, thumbnails first, each role ordered by width.
    public var renditions: [Rendition] {
        get { storage.renditions }
        set { unique().renditions = newValue }
    }
    /// A digest of `metadata` as kept (`PhotoMetadata.kept`), made when the
    /// file was read and kept with the build state; nil: pages make one.
    public var metadataDigest: StableHash.Digest? {
        get { storage.metadataDigest }
        set { unique().metadataDigest = newValue }
    }

    /// Its part in a stack of its album (`.single` until the album is assembled).
    public var stack: StackRole {
        get { storage.stack }
        set { unique().stack = newValue }
    }

    /// What its pixels look like (a still's, from the build that made its
    /// renditions): what near-duplicates are found by.
    public var looks: PictureLooks? {
        get { storage.looks }
        set { unique().looks = newValue }
    }

    /// Creates a photo record.
    public init(source: SourceFile, contentHash: ContentHash, metadata: PhotoMetadata, renditions: [Rendition]) {
        storage = Storage(source: source, contentHash: contentHash, metadata: OutOfLine(wrappedValue: metadata), renditions: renditions,
                          metadataDigest: nil)
    }

    /// Creates a record whose metadata is `holder`'s box (a cache entry's:
    /// one box for both, not two copies) with its digest known.
    public init(source: SourceFile, contentHash: ContentHash, metadata holder: OutOfLine<PhotoMetadata>, renditions: [Rendition],
                metadataDigest: StableHash.Digest) {
        storage = Storage(source: source, contentHash: contentHash, metadata: holder, renditions: renditions, metadataDigest: metadataDigest)
    }

    public static func == (a: MediaItem, b: MediaItem) -> Bool {
        a.storage === b.storage
            || (a.source == b.source && a.contentHash == b.contentHash && a.storage.metadata == b.storage.metadata
                && a.renditions == b.renditions && a.metadataDigest == b.metadataDigest && a.stack == b.stack && a.looks == b.looks)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(contentHash)
        hasher.combine(storage.metadata)
        hasher.combine(renditions)
        hasher.combine(metadataDigest)
        hasher.combine(storage.stack)
    }

    /// What kind of item it is.
    public var kind: MediaKind { storage.kind }

    /// Renditions of one role in the format every `<img>` shows (WebP or
    /// JPEG), smallest first.
    public func renditions(_ role: RenditionRole) -> [Rendition] {
        renditions.filter { $0.spec.role == role && $0.spec.format != .avif }.sorted { $0.size.width < $1.size.width }
    }

    /// The AVIF renditions of one role, smallest first, offered before
    /// `renditions(role)` in a `<picture>`; empty without AVIF.
    public func avifRenditions(_ role: RenditionRole) -> [Rendition] {
        renditions.filter { $0.spec.role == role && $0.spec.format == .avif }.sorted { $0.size.width < $1.size.width }
    }
}
