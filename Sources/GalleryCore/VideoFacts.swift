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
    /// Apple's `com.apple.quicktime.content.identifier`: the same UUID as in
    /// the Live Photo still's maker note.
    public var contentIdentifier: String?
    /// The recording device (QuickTime or Android make and model tags).
    public var camera: CameraFacts = CameraFacts()
    /// Where it was recorded (ISO 6709 `location` tags), if the file says:
    /// moved to the item's `gps` when it is read; never cached or published.
    public var location: GPSCoordinate?

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

extension PixelSize {
    /// The size a video is published at: fitted into `box` turned to the
    /// clip's orientation (so a portrait phone clip in a 1920x1080 box keeps
    /// 1080x1920), with even sides as 4:2:0 video needs.
    public func fittingVideo(in box: PixelSize) -> PixelSize {
        let turned = (width >= height) == (box.width >= box.height) ? box : PixelSize(width: box.height, height: box.width)
        let fitted = fitting(in: turned)
        return PixelSize(width: max(2, fitted.width / 2 * 2), height: max(2, fitted.height / 2 * 2))
    }
}

extension VideoFacts {
    /// Browser-safe as it is: H.264 High/Main/Baseline, 8-bit 4:2:0, SDR, and
    /// already within `box` — then the playback file is a remux (`-c copy`).
    public func videoStreamPlaysAsIs(in box: PixelSize) -> Bool {
        let profiles: Set<String> = ["High", "Main", "Baseline", "Constrained Baseline"]
        return videoCodec == "h264" && pixelFormat == "yuv420p" && bitDepth == 8 && !isHDR
            && profile.map(profiles.contains) ?? false
            && displaySize.fittingVideo(in: box) == displaySize
    }

    /// AAC audio is copied; other audio is converted, no audio stays silent.
    public var audioPlaysAsIs: Bool { audioCodec == nil || audioCodec == "aac" }

    /// "0:07", "1:02:03": a clip's length for badges and facts.
    public var durationLabel: String {
        let total = Int(duration.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
