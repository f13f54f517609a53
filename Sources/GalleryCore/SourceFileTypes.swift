/// Which file names are photos or videos, and of which format: the one list
/// the scanner, the format sniffer (a TIFF-shaped RAW is told from a TIFF by
/// its name) and the README follow.
public enum SourceFileTypes {
    /// Extensions (lower case, no dot) of each still format.
    public static let extensionsByFormat: [(format: SourceFormat, extensions: [String])] = [
        (.jpeg, ["jpg", "jpeg", "jpe"]),
        (.png, ["png"]),
        (.gif, ["gif"]),
        (.webp, ["webp"]),
        (.heif, ["heic", "heif", "hif", "avif"]),
        (.tiff, ["tif", "tiff"]),
        (.jxl, ["jxl"]),
        // The RAW formats libraw reads that cameras of the last twenty years write.
        (.raw, ["3fr", "arw", "cr2", "cr3", "crw", "dcr", "dng", "erf", "fff", "iiq", "kdc", "mef", "mos", "mrw", "nef",
                "nrw", "orf", "pef", "raf", "rw2", "rwl", "sr2", "srf", "srw", "x3f"]),
    ]

    /// Video containers ffmpeg reads that phones and cameras write (AVCHD's
    /// `.mts`/`.m2ts` included); their contents are probed, never trusted by name.
    public static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "webm", "mkv", "avi", "3gp", "mts", "m2ts"]

    /// The still formats that pair with a video of the same name as a Live
    /// Photo, and with a RAW file of the same name as RAW+JPEG shooting.
    public static let pairingStillFormats: Set<SourceFormat> = [.jpeg, .heif]

    /// Extensions of sidecar files that carry words about the media file of
    /// the same name: XMP, and a caption in Markdown or plain text.
    public static let sidecarExtensions: Set<String> = ["xmp", "md", "txt"]

    /// Every photo extension.
    public static let photoExtensions: Set<String> = Set(extensionsByFormat.flatMap(\.extensions))

    /// The extensions of the still formats that pair (`pairingStillFormats`).
    public static let pairingStillExtensions: Set<String> =
        Set(extensionsByFormat.filter { pairingStillFormats.contains($0.format) }.flatMap(\.extensions))

    /// The RAW extensions.
    public static let rawExtensions: Set<String> = Set(extensionsByFormat.first { $0.format == .raw }?.extensions ?? [])

    /// The lower-cased extension of `fileName`, or nil (hidden files like `.jpg` have none).
    public static func fileExtension(of fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        return fileName[fileName.index(after: dot)...].lowercased()
    }

    /// True when `fileName` ends in a photo extension, in any letter case.
    public static func isPhoto(_ fileName: String) -> Bool {
        fileExtension(of: fileName).map(photoExtensions.contains) ?? false
    }

    /// True when `fileName` ends in a video extension, in any letter case.
    public static func isVideo(_ fileName: String) -> Bool {
        fileExtension(of: fileName).map(videoExtensions.contains) ?? false
    }

    /// True for a JPEG or HEIC name (the still of a Live Photo or of RAW+JPEG).
    public static func isPairingStill(_ fileName: String) -> Bool {
        fileExtension(of: fileName).map(pairingStillExtensions.contains) ?? false
    }

    /// `IMG_0001` of `IMG_0001.HEIC`, lower-cased: how pairs are matched.
    public static func pairingName(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName.lowercased() }
        return fileName[..<dot].lowercased()
    }

    /// True when `fileName` ends in a RAW extension.
    public static func isRaw(_ fileName: String) -> Bool {
        fileExtension(of: fileName).map(rawExtensions.contains) ?? false
    }
}
