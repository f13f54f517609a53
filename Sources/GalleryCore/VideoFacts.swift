/// What a video file says about itself (from one ffprobe run).
public struct VideoFacts: Hashable, Sendable, Codable {
    /// Length in seconds.
    public var duration: Double
    /// Stored picture size (before the display rotation).
    public var storedSize: PixelSize
    /// Display rotation in degrees clockwise (0, 90, 180, 270), from the
    /// display matrix: a phone's portrait clip is stored landscape with 90.
    public var rotation: Int
    /// Video codec name as ffmpeg says it (`h264`, `hevc`, `vp9`, `av1`, …).
    public var videoCodec: String
    /// Pixel format (`yuv420p`, `yuv420p10le`, …).
    public var pixelFormat: String
    /// Bits per sample of the video (8, 10, 12).
    public var bitDepth: Int
    /// Colour transfer (`bt709`, `smpte2084` for PQ, `arib-std-b67` for HLG), if stated.
    public var colorTransfer: String?
    /// H.264 profile, when H.264 (`High`, `Main`, `High 10`, …).
    public var profile: String?
    /// Audio codec name, when there is an audio stream.
    public var audioCodec: String?
    /// When it was recorded, if the file says.
    public var captureDate: CaptureDate?

    /// Creates facts.
    public init(duration: Double, storedSize: PixelSize, rotation: Int, videoCodec: String, pixelFormat: String, bitDepth: Int,
                colorTransfer: String? = nil, profile: String? = nil, audioCodec: String? = nil, captureDate: CaptureDate? = nil) {
        self.duration = duration
        self.storedSize = storedSize
        self.rotation = rotation
        self.videoCodec = videoCodec
        self.pixelFormat = pixelFormat
        self.bitDepth = bitDepth
        self.colorTransfer = colorTransfer
        self.profile = profile
        self.audioCodec = audioCodec
        self.captureDate = captureDate
    }

    /// The size a viewer sees (width and height swapped for 90 and 270).
    public var displaySize: PixelSize {
        rotation % 180 == 0 ? storedSize : PixelSize(width: storedSize.height, height: storedSize.width)
    }

    /// HDR transfer (PQ or HLG): needs tone mapping to look right in SDR.
    public var isHDR: Bool { colorTransfer == "smpte2084" || colorTransfer == "arib-std-b67" }
}
