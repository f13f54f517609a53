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

    public init(_ spec: RenditionSpec) {
        self.shared = Rendition.SharedSpec(spec)
        self.key = spec.key
    }

    /// `RenditionSpec.relativePath`: the one place a rendition's name is made.
    /// `media/NN/NAME-WxH.EXT` (`-original.EXT` for the original), NAME the
    /// first 20 hex digits of the hash of the content hash, the key, the size
    /// and `madeWith`. Written into one string, the size's digits made once:
    /// a rebuild names every rendition of every photo (four interpolations
    /// and their copies were two fifths of planning a photo).
    public func relativePath(contentHash: ContentHash, size: PixelSize, originalExtension: String = "jpg", madeWith: String = "") -> String {
        relativePath(size: size, originalExtension: originalExtension, madeWith: madeWith) { $0.update(contentHash) }
    }

    /// The name of what `content` feeds a hasher (a content hash's 32 hex digits and their separator).
    fileprivate func relativePath(size: PixelSize, originalExtension: String, madeWith: String, content: (inout StableHash) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { dimensions in
            // "WIDTHxHEIGHT" (what `size.description` is) and the separator `update(_: String)` hashes after it.
            var count = Self.writeDecimal(size.width, into: dimensions, at: 0)
            dimensions[count] = UInt8(ascii: "x")
            count = Self.writeDecimal(size.height, into: dimensions, at: count + 1)
            dimensions[count] = 0
            var hasher = StableHash()
            content(&hasher)
            hasher.update(key)
            hasher.update(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: dimensions[0...count])))
            if !madeWith.isEmpty { hasher.update(madeWith) }
            let digest = hasher.digest()
            let isOriginal = spec.role == .original
            var fileExtension = isOriginal ? originalExtension : spec.format.fileExtension
            return fileExtension.withUTF8 { ext in
                let suffix = isOriginal ? 9 : count + 1  // "-original" or "-WxH"
                let length = 6 + 2 + 1 + 20 + suffix + 1 + ext.count
                return String(unsafeUninitializedCapacity: length) { out in
                    var at = 0
                    func put(_ byte: UInt8) {
                        out[at] = byte
                        at += 1
                    }
                    for byte in "media/".utf8 { put(byte) }
                    for index in 0..<2 { put(digest.hexDigit(index)) }
                    put(UInt8(ascii: "/"))
                    for index in 0..<20 { put(digest.hexDigit(index)) }
                    if isOriginal {
                        for byte in "-original".utf8 { put(byte) }
                    } else {
                        put(UInt8(ascii: "-"))
                        for index in 0..<count { put(dimensions[index]) }
                    }
                    put(UInt8(ascii: "."))
                    for byte in ext { put(byte) }
                    return at
                }
            }
        }
    }

    /// Writes `value` in decimal (as `"\(value)"` does) at `start`; returns the index after it.
    private static func writeDecimal(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var at = start
        if value < 0 {
            buffer[at] = UInt8(ascii: "-")
            at += 1
        }
        var magnitude = value.magnitude
        let first = at
        repeat {
            buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            at += 1
        } while magnitude > 0
        // Written lowest digit first: reversed in place.
        var low = first, high = at - 1
        while low < high {
            buffer.swapAt(low, high)
            low += 1
            high -= 1
        }
        return at
    }
}

/// A rendition made (or found up to date) for one photo.
public struct Rendition: Hashable, Sendable, Codable {
    /// The spec it was made from.
    public var spec: RenditionSpec {
        _read { yield shared.spec }
        set { shared = SharedSpec(newValue) }
    }
    /// Its actual pixel size (upright).
    public var size: PixelSize
    /// Path relative to the site root.
    public var path: String
    /// `spec`, in a box shared by every rendition made from one setting: the
    /// renditions of 100,000 items live as long as the build, and the spec
    /// inline (56 bytes) was more than half of each.
    private var shared: SharedSpec

    /// A spec shared by renditions (never changed in place).
    public final class SharedSpec: Sendable {
        public let spec: RenditionSpec
        public init(_ spec: RenditionSpec) { self.spec = spec }
    }

    /// Creates a rendition record.
    public init(spec: RenditionSpec, size: PixelSize, path: String) {
        self.init(shared: SharedSpec(spec), size: size, path: path)
    }

    /// Creates a rendition record whose spec is `keyed`'s, shared.
    public init(_ keyed: KeyedRenditionSpec, size: PixelSize, path: String) {
        self.init(shared: keyed.shared, size: size, path: path)
    }

    private init(shared: SharedSpec, size: PixelSize, path: String) {
        self.shared = shared
        self.size = size
        self.path = path
    }

    public static func == (a: Rendition, b: Rendition) -> Bool {
        a.path == b.path && a.size == b.size && (a.shared === b.shared || a.spec == b.spec)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(spec)
        hasher.combine(size)
        hasher.combine(path)
    }

    enum CodingKeys: String, CodingKey { case spec, size, path }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(spec: try container.decode(RenditionSpec.self, forKey: .spec), size: try container.decode(PixelSize.self, forKey: .size),
                  path: try container.decode(String.self, forKey: .path))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(spec, forKey: .spec)
        try container.encode(size, forKey: .size)
        try container.encode(path, forKey: .path)
    }
}
