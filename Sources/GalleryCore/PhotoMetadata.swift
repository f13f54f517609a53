import Foundation

/// The container format of a source file, decided by its first bytes, not its name.
public enum SourceFormat: String, Sendable, Codable {
    /// JPEG/JFIF/EXIF.
    case jpeg
    /// PNG.
    case png
    /// GIF87a/89a.
    case gif
    /// WebP (lossy, lossless or animated).
    case webp
    /// HEIF (HEIC, HIF) and AVIF: ISO base media files holding HEVC or AV1 stills.
    case heif
    /// TIFF (scans, editors' exports).
    case tiff
    /// JPEG XL (Apple ProRAW exports, newer cameras and editors).
    case jxl
    /// A camera RAW file (CR2, CR3, NEF, ARW, RAF, RW2, ORF, DNG, PEF, …).
    case raw
    /// A video in any container ffmpeg reads (MP4, MOV, WebM, MKV, AVI, MTS…):
    /// decided by ffprobe, not by the first bytes.
    case video

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .heif: return "heic"
        case .tiff: return "tif"
        case .jxl: return "jxl"
        case .video: return "mp4"
        default: return rawValue
        }
    }

    /// True when the file itself can be published as the original (a browser
    /// shows it, and its location can be removed without touching the
    /// pixels). Otherwise a full-size conversion is published instead.
    public var isPublishableAsIs: Bool {
        switch self {
        case .jpeg, .png, .gif, .webp: return true
        case .heif, .tiff, .jxl, .raw, .video: return false
        }
    }
}

/// Exposure and equipment facts from EXIF, all optional, all untrusted text already
/// cleaned (bounded, valid UTF-8, no control characters).
///
/// The numbers are kept without `Optional`'s flag byte, "none" as a value no
/// reading gives: a `Double?` is padded to 16 bytes, and in every item's
/// metadata the four were 64 of its 232 bytes where 32 hold them.
public struct CameraFacts: Hashable, Sendable, Codable {
    /// Camera maker, e.g. "NIKON CORPORATION".
    public var make: String? {
        get { identity?.make }
        set { identity = CameraIdentity.of(make: newValue, model: model, lens: lens) }
    }
    /// Camera model, e.g. "COOLPIX P6000".
    public var model: String? {
        get { identity?.model }
        set { identity = CameraIdentity.of(make: make, model: newValue, lens: lens) }
    }
    /// Lens model.
    public var lens: String? {
        get { identity?.lens }
        set { identity = CameraIdentity.of(make: make, model: model, lens: newValue) }
    }
    /// The three names, in the box every photo that names the same three shares.
    private(set) var identity: CameraIdentity?
    /// Focal length in millimetres.
    public var focalLength: Double? {
        get { Self.unpacked(focalLengthValue) }
        set { focalLengthValue = Self.packed(newValue) }
    }
    /// Aperture as an f-number.
    public var fNumber: Double? {
        get { Self.unpacked(fNumberValue) }
        set { fNumberValue = Self.packed(newValue) }
    }
    /// Exposure time in seconds.
    public var exposureTime: Double? {
        get { Self.unpacked(exposureTimeValue) }
        set { exposureTimeValue = Self.packed(newValue) }
    }
    /// ISO speed.
    public var iso: Int? {
        get { isoValue == Int.min ? nil : isoValue }
        set { isoValue = newValue ?? Int.min }
    }

    private var focalLengthValue = Self.none
    private var fNumberValue = Self.none
    private var exposureTimeValue = Self.none
    /// `Int.min`: none (no ISO speed is negative).
    private var isoValue = Int.min

    /// "None": a NaN with a payload of its own, told apart from any NaN a
    /// reading might give by its bits.
    private static let none = Double(bitPattern: 0x7FF8_6E6F_6E65_0000)
    private static func packed(_ value: Double?) -> Double { value ?? none }
    private static func unpacked(_ value: Double) -> Double? { value.bitPattern == none.bitPattern ? nil : value }

    enum CodingKeys: String, CodingKey {
        case make, model, lens, focalLength, fNumber, exposureTime, iso
    }

    /// Creates facts.
    public init(make: String? = nil, model: String? = nil, lens: String? = nil, focalLength: Double? = nil,
                fNumber: Double? = nil, exposureTime: Double? = nil, iso: Int? = nil) {
        self.identity = CameraIdentity.of(make: make, model: model, lens: lens)
        self.focalLength = focalLength
        self.fNumber = fNumber
        self.exposureTime = exposureTime
        self.iso = iso
    }

    // Equal, hashed and coded as the optionals they stand for (a NaN read is unequal to itself, as before).
    public static func == (a: CameraFacts, b: CameraFacts) -> Bool {
        a.make == b.make && a.model == b.model && a.lens == b.lens && a.focalLength == b.focalLength && a.fNumber == b.fNumber
            && a.exposureTime == b.exposureTime && a.iso == b.iso
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(make)
        hasher.combine(model)
        hasher.combine(lens)
        hasher.combine(focalLength)
        hasher.combine(fNumber)
        hasher.combine(exposureTime)
        hasher.combine(iso)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(make: try c.decodeIfPresent(String.self, forKey: .make), model: try c.decodeIfPresent(String.self, forKey: .model),
                  lens: try c.decodeIfPresent(String.self, forKey: .lens), focalLength: try c.decodeIfPresent(Double.self, forKey: .focalLength),
                  fNumber: try c.decodeIfPresent(Double.self, forKey: .fNumber),
                  exposureTime: try c.decodeIfPresent(Double.self, forKey: .exposureTime), iso: try c.decodeIfPresent(Int.self, forKey: .iso))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(make, forKey: .make)
        try c.encodeIfPresent(model, forKey: .model)
        try c.encodeIfPresent(lens, forKey: .lens)
        try c.encodeIfPresent(focalLength, forKey: .focalLength)
        try c.encodeIfPresent(fNumber, forKey: .fNumber)
        try c.encodeIfPresent(exposureTime, forKey: .exposureTime)
        try c.encodeIfPresent(iso, forKey: .iso)
    }

    /// "Make Model" without the maker repeated when the model already starts with it.
    public var cameraName: String? {
        switch (make, model) {
        case let (make?, model?):
            let brand = make.split(separator: " ").first.map(String.init) ?? make
            return model.lowercased().hasPrefix(brand.lowercased()) ? model : "\(make) \(model)"
        case let (make?, nil): return make
        case let (nil, model?): return model
        default: return nil
        }
    }
}

/// A latitude/longitude pair. Read so the build can know it; never published.
public struct GPSCoordinate: Hashable, Sendable, Codable {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What is known about a photo without decoding its pixels.
public struct PhotoMetadata: Hashable, Sendable, Codable {
    enum CodingKeys: String, CodingKey {
        case format, storedSize, orientation, captureDate, camera, frameCount, gps, motion, embeddedClip, words, livePhotoIdentifier
        case burstIdentifier, place
    }

    /// Container format.
    public var format: SourceFormat
    /// EXIF orientation (`.up` when absent). Declared beside `format`: two
    /// bytes share one word, where each padded to a word of its own.
    public var orientation: Orientation
    /// Stored pixel size (before orientation).
    public var storedSize: PixelSize
    /// Capture date, with the field it came from.
    public var captureDate: CaptureDate
    /// Camera and exposure facts.
    public var camera: CameraFacts
    /// Where it was taken, if recorded. Never written to the site.
    public var gps: GPSCoordinate? {
        get { rareBox?.value.gps }
        set { changeRareParts { $0.gps = newValue } }
    }
    /// Number of frames (1 for stills).
    public var frameCount: Int
    /// A video's own facts; for a Live or Motion Photo, its motion clip's.
    public var motion: VideoFacts? {
        get { rareBox?.value.motion }
        set { changeRareParts { $0.motion = newValue } }
    }
    /// Where a Motion Photo's MP4 sits inside the file (the still ends where it begins).
    public var embeddedClip: Range<Int>? {
        get { rareBox?.value.embeddedClip }
        set { changeRareParts { $0.embeddedClip = newValue } }
    }
    /// Title, caption, keywords, rating and people the file itself carries
    /// (XMP, IPTC, EXIF); sidecars are added when the item is processed.
    public var words: PhotoWords {
        get { wordsBox?.value ?? PhotoWords() }
        set { wordsBox = newValue.isEmpty ? nil : Boxed(newValue) }
    }
    /// True when any words were read for it (most items have none): asked
    /// first, it spares copying empty words out of their box.
    public var hasWords: Bool { wordsBox != nil }
    /// An iPhone still's Live Photo identifier, matched against its clip's
    /// (read while the file is processed; not kept in the build cache).
    public var livePhotoIdentifier: String? {
        get { rareBox?.value.livePhotoIdentifier }
        set { changeRareParts { $0.livePhotoIdentifier = newValue } }
    }
    /// The burst the camera says it is a frame of (an iPhone's `BurstUUID`):
    /// kept, since stacks are found at every build.
    public var burstIdentifier: String? {
        get { rareBox?.value.burstIdentifier }
        set { changeRareParts { $0.burstIdentifier = newValue } }
    }
    /// The words out of line (nil costs one pointer): most files carry none.
    private var wordsBox: Boxed<PhotoWords>?

    /// The parts few files have, in one box (nil costs one pointer for all
    /// five): the GPS fix and the Live Photo identifier are never kept, and
    /// Motion Photos (a clip's facts: 290 bytes) and camera bursts are few.
    /// Inline they were 96 of the 330 bytes of each item's metadata, in
    /// boxes of their own 40 of 192.
    struct RareParts: Hashable, Sendable {
        var gps: GPSCoordinate?
        var motion: VideoFacts?
        var embeddedClip: Range<Int>?
        var livePhotoIdentifier: String?
        var burstIdentifier: String?

        var isEmpty: Bool { gps == nil && motion == nil && embeddedClip == nil && livePhotoIdentifier == nil && burstIdentifier == nil }
    }
    private var rareBox: Boxed<RareParts>?

    /// Sets a rare part: in a new box (a copy of the metadata shares the old), none when all are nil.
    private mutating func changeRareParts(_ change: (inout RareParts) -> Void) {
        var parts = rareBox?.value ?? RareParts()
        change(&parts)
        rareBox = parts.isEmpty ? nil : Boxed(parts)
    }
    /// The town or city nearest `gps` (`moment_places`, from GeoNames'
    /// cities, offline): what moments headings, place pages and search show
    /// in its place. Nil when the setting is off or the item has no GPS.
    public var place: Place? {
        get { placeBox?.value }
        set { placeBox = newValue.map(Boxed.init) }
    }
    /// `place` out of line: most items of most libraries have none.
    private var placeBox: Boxed<Place>?

    /// An optional part kept out of line and never changed in place (a new
    /// value is a new box): nil costs one pointer, a copy of the metadata
    /// shares the box. Compared, hashed and encoded as its value.
    final class Boxed<Value: Hashable & Sendable>: Hashable, Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
        static func == (a: Boxed, b: Boxed) -> Bool { a === b || a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Coded by its parts' names, each left out when it has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(format: try c.decode(SourceFormat.self, forKey: .format), storedSize: try c.decode(PixelSize.self, forKey: .storedSize),
                  orientation: try c.decode(Orientation.self, forKey: .orientation), captureDate: try c.decode(CaptureDate.self, forKey: .captureDate),
                  camera: try c.decode(CameraFacts.self, forKey: .camera), gps: try c.decodeIfPresent(GPSCoordinate.self, forKey: .gps),
                  frameCount: try c.decode(Int.self, forKey: .frameCount))
        motion = try c.decodeIfPresent(VideoFacts.self, forKey: .motion)
        embeddedClip = try c.decodeIfPresent(Range<Int>.self, forKey: .embeddedClip)
        words = try c.decodeIfPresent(PhotoWords.self, forKey: .words) ?? PhotoWords()
        livePhotoIdentifier = try c.decodeIfPresent(String.self, forKey: .livePhotoIdentifier)
        burstIdentifier = try c.decodeIfPresent(String.self, forKey: .burstIdentifier)
        place = try c.decodeIfPresent(Place.self, forKey: .place)
    }

    /// In `CodingKeys`' order, as the synthesized coding wrote them: an
    /// item's digest hashes this encoding (`StableHash.add(encoding:)`)
    /// where the state's digest of its metadata is not known.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encode(storedSize, forKey: .storedSize)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(captureDate, forKey: .captureDate)
        try c.encode(camera, forKey: .camera)
        try c.encode(frameCount, forKey: .frameCount)
        try c.encodeIfPresent(gps, forKey: .gps)
        try c.encodeIfPresent(motion, forKey: .motion)
        try c.encodeIfPresent(embeddedClip, forKey: .embeddedClip)
        try c.encodeIfPresent(wordsBox?.value, forKey: .words)
        try c.encodeIfPresent(livePhotoIdentifier, forKey: .livePhotoIdentifier)
        try c.encodeIfPresent(burstIdentifier, forKey: .burstIdentifier)
        try c.encodeIfPresent(place, forKey: .place)
    }

    /// Creates metadata.
    public init(format: SourceFormat, storedSize: PixelSize, orientation: Orientation, captureDate: CaptureDate,
                camera: CameraFacts = CameraFacts(), gps: GPSCoordinate? = nil, frameCount: Int = 1) {
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.captureDate = captureDate
        self.camera = camera
        self.frameCount = frameCount
        self.gps = gps
    }

    /// The upright size a viewer sees.
    public var displaySize: PixelSize { orientation.displaySize(ofStored: storedSize) }

    /// True for animations with more than one frame.
    public var isAnimated: Bool { frameCount > 1 && (format == .gif || format == .webp) }

    /// The kind of item this metadata describes.
    public var kind: MediaKind {
        if format == .video { return .video }
        if motion != nil { return .motionStill }
        return isAnimated ? .animation : .still
    }

    /// What outlives reading the file: never the GPS fix (of the photo or its
    /// motion clip) or the Live Photo pairing identifier; people's names and
    /// the place name only when they are published (`publish_people`,
    /// `moment_places`). The build state keeps this, an item carries it to the
    /// pages, and page fingerprints are made from it.
    public func kept(people: Bool, place: Bool) -> PhotoMetadata {
        var kept = self
        kept.gps = nil
        kept.motion?.location = nil
        kept.livePhotoIdentifier = nil
        if kept.words.droppedRegions.total > 0 { kept.words.droppedRegions = DroppedRegions() }
        if !people && !(kept.words.people.isEmpty && kept.words.faces.isEmpty) {
            kept.words.people = []
            kept.words.faces = []
        }
        if !place { kept.place = nil }
        return kept
    }

    /// Frames × canvas pixels: what re-encoding the animation costs
    /// (saturating: a hostile frame count must not overflow).
    public var animationPixels: Int {
        let (product, overflow) = frameCount.multipliedReportingOverflow(by: storedSize.area)
        return overflow ? .max : product
    }
}
