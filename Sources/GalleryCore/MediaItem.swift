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
public struct MediaItem: Hashable, Sendable {
    /// Where it came from.
    public var source: SourceFile
    /// Hash of the file's bytes: equal hashes mean the same photo.
    public var contentHash: String
    /// What the file says about itself (out of line: items are copied often).
    @OutOfLine public var metadata: PhotoMetadata
    /// Published renditions, thumbnails first, each role ordered by width.
    public var renditions: [Rendition]
    /// A digest of `metadata` as kept (`PhotoMetadata.kept`), made when the
    /// file was read and kept with the build state; nil: pages make one.
    public var metadataDigest: StableHash.Digest?

    /// Creates a photo record.
    public init(source: SourceFile, contentHash: String, metadata: PhotoMetadata, renditions: [Rendition]) {
        self.source = source
        self.contentHash = contentHash
        self.metadata = metadata
        self.renditions = renditions
    }

    /// What kind of item it is.
    public var kind: MediaKind { metadata.kind }

    /// Renditions of one role, smallest first.
    public func renditions(_ role: RenditionRole) -> [Rendition] {
        renditions.filter { $0.spec.role == role }.sorted { $0.size.width < $1.size.width }
    }
}

