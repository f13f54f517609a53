import Synchronization

/// The encoded format of a published rendition.
public enum OutputFormat: String, Sendable, Codable, CaseIterable {
    /// WebP (lossy): about half the bytes of JPEG at the same look.
    case webp
    /// Baseline JPEG with optimised Huffman tables.
    case jpeg
    /// AVIF (AV1 intra, 4:2:0): about a third fewer bytes than WebP at the
    /// same look, offered in `<picture>` before a WebP or JPEG fallback.
    case avif
    /// MP4 with H.264 (8-bit 4:2:0) and AAC: what every browser plays.
    case mp4

    /// File extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .webp: return "webp"
        case .jpeg: return "jpg"
        case .avif: return "avif"
        case .mp4: return "mp4"
        }
    }

    /// The MIME type a `<source type>` and a preload's `type` name.
    public var mimeType: String {
        switch self {
        case .webp: return "image/webp"
        case .jpeg: return "image/jpeg"
        case .avif: return "image/avif"
        case .mp4: return "video/mp4"
        }
    }
}

/// How a rendition is encoded, each encoder with its own settings: a still's
/// quality is not an x264 CRF.
public enum Encoding: Hashable, Sendable, Codable {
    /// Lossy WebP at quality 1–100.
    case webp(quality: Int)
    /// Baseline JPEG at quality 1–100.
    case jpeg(quality: Int)
    /// AVIF at quality 1–100 (libavif's scale: the AV1 quantizer is
    /// (100 − quality) × 63 / 100) and encoder speed 0 (slowest) to 10.
    case avif(quality: Int, speed: Int)
    /// H.264 in MP4 (ffmpeg's libx264): constant rate factor 0–51 and speed preset.
    case h264(crf: Int, preset: String)

    /// A WebP or JPEG still encoder at `quality` (the format of every
    /// `<img>`: an AVIF is always offered beside one of them).
    public static func still(_ format: OutputFormat, quality: Int) -> Encoding {
        format == .jpeg ? .jpeg(quality: quality) : .webp(quality: quality)
    }

    /// The file format it makes.
    public var format: OutputFormat {
        switch self {
        case .webp: return .webp
        case .jpeg: return .jpeg
        case .avif: return .avif
        case .h264: return .mp4
        }
    }
}

/// What a rendition is for.
public enum RenditionRole: String, Sendable, Codable {
    /// Grid thumbnails.
    case thumbnail
    /// Screen-sized previews for the photo page and viewer.
    case preview
    /// A still first frame of an animation, for places that should not move.
    case poster
    /// The original file for download (location removed unless asked to keep it).
    case original
    /// The browser-safe playback file of a video, or of a Live/Motion Photo's motion.
    case video
}

/// One requested rendition: a role, a bounding box and an encoding. Together with
/// the source's content hash it determines the published file's name, so any
/// change of setting yields a new name (and browsers never see stale bytes).
public struct RenditionSpec: Hashable, Sendable, Codable {
    /// What the rendition is used for.
    public var role: RenditionRole
    /// The box the upright image is fitted into.
    public var box: PixelSize
    /// The encoder and its settings.
    public var encoding: Encoding
    /// Every frame re-encoded as an animated WebP (for animated sources).
    public var animated: Bool
    /// For `.original`: publish the file unchanged, location included.
    public var keepsLocation: Bool

    /// Creates a spec.
    public init(role: RenditionRole, box: PixelSize, encoding: Encoding, animated: Bool = false, keepsLocation: Bool = false) {
        self.role = role
        self.box = box
        self.encoding = encoding
        self.animated = animated
        self.keepsLocation = keepsLocation
    }

    /// The file format.
    public var format: OutputFormat { encoding.format }

    /// The animated variant of this spec: always WebP (JPEG cannot move), at the still's quality.
    public var asAnimation: RenditionSpec {
        let quality: Int
        switch encoding {
        case .webp(let q), .jpeg(let q), .avif(let q, _): quality = q
        case .h264: quality = 0  // never asked: videos are not animations
        }
        return RenditionSpec(role: role, box: box, encoding: .webp(quality: quality), animated: true)
    }

    /// Everything that changes the output bytes, as a stable string. The resampler
    /// version is included so an improved resampler republishes every image.
    public var key: String {
        switch role {
        case .original: return "original-\(keepsLocation ? "with" : "without")-location"
        default:
            switch encoding {
            case .h264(let crf, let preset): return "v\(Self.videoPipelineVersion)-\(box)-h264-crf\(crf)-\(preset)"
            case .webp(let quality), .jpeg(let quality):
                return "r\(Self.pipelineVersion)-\(box)-\(format.rawValue)-q\(quality)" + (animated ? "-anim" : "")
            case .avif(let quality, let speed):
                return "r\(Self.pipelineVersion)-\(box)-avif\(Self.avifPipelineVersion)-q\(quality)-s\(speed)"
            }
        }
    }

    /// Bumped whenever decoding, resampling or encoding changes the bytes produced.
    public static let pipelineVersion = 1
    /// Bumped whenever the AVIF encoder's other settings (its AV1 encoder,
    /// tuning, colour signalling) change the bytes produced.
    public static let avifPipelineVersion = 1
    /// Bumped whenever the ffmpeg commands change the playback files produced.
    public static let videoPipelineVersion = 1

    /// The published path (relative to the site root) of this rendition, `size`
    /// pixels, of a source whose content hash is `contentHash`, made with the
    /// other renditions `madeWith` names (their bytes depend on each other).
    /// Sharded by two hex digits so no folder holds tens of thousands of files.
    public func relativePath(contentHash: ContentHash, size: PixelSize, originalExtension: String = "jpg", madeWith: String = "") -> String {
        KeyedRenditionSpec(self).relativePath(contentHash: contentHash, size: size, originalExtension: originalExtension, madeWith: madeWith)
    }

    /// `relativePath` of a name other than a content hash (an avatar's: the
    /// photo's hash and where the face is).
    public func relativePath(named name: String, size: PixelSize) -> String {
        KeyedRenditionSpec(self).relativePath(size: size, originalExtension: "jpg", madeWith: "") { $0.update(name) }
    }
}

/// A spec with its `key` worked out once: a rebuild names every rendition of
/// every photo again (to find them in OUT), and the key is the same for all.
public struct KeyedRenditionSpec: Sendable {
    public var spec: RenditionSpec { _read { yield shared.spec } }
    public let key: String
    /// The spec in the box every rendition made from it shares.
    public let shared: Rendition.SharedSpec
    /// An original's boxes, one for each source extension (its path ends in it).
    private let originals: OriginalBoxes?

    public init(_ spec: RenditionSpec) {
        self.shared = Rendition.SharedSpec(spec)
        self.key = spec.key
        self.originals = spec.role == .original ? OriginalBoxes(spec) : nil
    }

    /// `RenditionSpec.relativePath`: the one place a rendition's name is made
    /// (`RenditionName` spells it). `media/NN/NAME-WxH.EXT` (`-original.EXT`
    /// for the original), NAME the first 20 hex digits of the hash of the
    /// content hash, the key, the size and `madeWith`.
    public func relativePath(contentHash: ContentHash, size: PixelSize, originalExtension: String = "jpg", madeWith: String = "") -> String {
        relativePath(size: size, originalExtension: originalExtension, madeWith: madeWith) { $0.update(contentHash) }
    }

    /// The rendition of `size` pixels of the source whose content hash is
    /// `contentHash`, at `relativePath`'s path, holding its name as the
    /// name's hash (an original's path ends in its spec's format's
    /// extension, as a converted original's does).
    public func rendition(contentHash: ContentHash, size: PixelSize, madeWith: String = "") -> Rendition {
        Rendition(shared: shared, size: size, name: RenditionName(nameHash(size: size, madeWith: madeWith) { $0.update(contentHash) }))
    }

    /// The original published as it is of the source whose content hash is
    /// `contentHash`: named as `relativePath` names it from its stored size
    /// and its source's extension, `size` pixels upright.
    public func original(contentHash: ContentHash, storedSize: PixelSize, size: PixelSize, originalExtension: String) -> Rendition {
        Rendition(shared: originals?.box(for: originalExtension) ?? shared, size: size,
                  name: RenditionName(nameHash(size: storedSize, madeWith: "") { $0.update(contentHash) }))
    }

    /// The name of what `content` feeds a hasher (a content hash's 32 hex digits and their separator).
    fileprivate func relativePath(size: PixelSize, originalExtension: String, madeWith: String, content: (inout StableHash) -> Void) -> String {
        let name = RenditionName(nameHash(size: size, madeWith: madeWith, content: content))
        let isOriginal = spec.role == .original
        return name.path(size: size, isOriginal: isOriginal, fileExtension: isOriginal ? originalExtension : spec.format.fileExtension)
    }

    /// The hash a name is made of: what `content` feeds, the key, "WIDTHxHEIGHT"
    /// (what `size.description` is, with the separator `update(_: String)`
    /// hashes after it) and `madeWith`. The size's digits are written once, on
    /// the stack: a rebuild names every rendition of every photo (four
    /// interpolations and their copies were two fifths of planning a photo).
    private func nameHash(size: PixelSize, madeWith: String, content: (inout StableHash) -> Void) -> StableHash.Digest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { dimensions in
            let count = RenditionName.writeDimensions(size, into: dimensions)
            dimensions[count] = 0
            var hasher = StableHash()
            content(&hasher)
            hasher.update(key)
            hasher.update(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: dimensions[0...count])))
            if !madeWith.isEmpty { hasher.update(madeWith) }
            return hasher.digest()
        }
    }
}

/// An original spec's boxes by source extension, made as they are first asked for (a handful).
private final class OriginalBoxes: Sendable {
    private let spec: RenditionSpec
    private let boxes = Mutex<[String: Rendition.SharedSpec]>([:])

    init(_ spec: RenditionSpec) { self.spec = spec }

    func box(for fileExtension: String) -> Rendition.SharedSpec {
        boxes.withLock { boxes in
            if let made = boxes[fileExtension] { return made }
            let made = Rendition.SharedSpec(spec, originalExtension: fileExtension, spelled: nil)
            boxes[fileExtension] = made
            return made
        }
    }
}
