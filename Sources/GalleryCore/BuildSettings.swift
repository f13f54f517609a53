import Foundation

/// Everything that decides what a build produces.
public struct BuildSettings: Sendable {
    /// The photo tree (never written to).
    public var source: URL
    /// The site folder.
    public var output: URL
    /// Site title.
    public var title: String
    /// Thumbnail boxes, one `srcset` candidate each.
    public var thumbnailBoxes: [PixelSize]
    /// Preview boxes, one `srcset` candidate each.
    public var previewBoxes: [PixelSize]
    /// Rendition encoding.
    public var format: OutputFormat
    /// Encoder quality 1–100.
    public var quality: Int
    /// Photos processed at once.
    public var jobs: Int
    /// Photos larger than this many pixels are refused before decoding (decompression bombs).
    public var maximumPixels: Int
    /// Frames × canvas pixels an animation may have to be re-encoded; a larger
    /// one is published as a still poster of its first frame.
    public var maximumAnimationPixels: Int
    /// Follow symbolic links in SOURCE (never to outside it). Off by default.
    public var followSymlinks = false
    /// Publish the original files for download. Off by default.
    public var publishOriginals = false
    /// With `publishOriginals`: keep GPS, XMP and IPTC in the copies (off: they
    /// are removed losslessly).
    public var keepLocation = false

    /// Default thumbnail boxes: one for ordinary screens, one for 2× screens.
    public static let defaultThumbnailBoxes = [PixelSize(width: 280, height: 210), PixelSize(width: 560, height: 420)]
    /// Default preview boxes: a phone-sized, a laptop-sized and a large-screen candidate.
    public static let defaultPreviewBoxes = [
        PixelSize(width: 800, height: 600), PixelSize(width: 1600, height: 1200), PixelSize(width: 2560, height: 1920),
    ]

    /// Creates settings; every argument left out or nil takes its default
    /// (the one place the defaults are written down).
    public init(source: URL, output: URL, title: String? = nil, thumbnailBoxes: [PixelSize]? = nil, previewBoxes: [PixelSize]? = nil,
                format: OutputFormat? = nil, quality: Int? = nil, jobs: Int? = nil,
                maximumPixels: Int? = nil, maximumAnimationPixels: Int? = nil) {
        self.source = source
        self.output = output
        self.title = title ?? "Photos"
        self.thumbnailBoxes = thumbnailBoxes ?? Self.defaultThumbnailBoxes
        self.previewBoxes = previewBoxes ?? Self.defaultPreviewBoxes
        self.format = format ?? .webp
        self.quality = quality ?? 85
        self.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        self.maximumPixels = maximumPixels ?? 100_000_000
        self.maximumAnimationPixels = maximumAnimationPixels ?? 400_000_000
    }

    /// The renditions of an animation within the budget: the thumbnails and
    /// previews re-encoded as animated WebP, plus still posters of the first
    /// frame at the smallest thumbnail and preview boxes (for grids and for the
    /// photo page when motion is unwelcome).
    public var animationSpecs: [RenditionSpec] {
        var posters: [PixelSize] = []
        if let thumbnail = thumbnailBoxes.first { posters.append(thumbnail) }
        if let preview = previewBoxes.first { posters.append(preview) }
        return renditionSpecs.map(\.asAnimation) + posters.map { RenditionSpec(role: .poster, box: $0, format: format, quality: quality) }
    }

    /// Every rendition each photo gets.
    public var renditionSpecs: [RenditionSpec] {
        thumbnailBoxes.map { RenditionSpec(role: .thumbnail, box: $0, format: format, quality: quality) }
            + previewBoxes.map { RenditionSpec(role: .preview, box: $0, format: format, quality: quality) }
    }

    /// The published original's spec, when originals are published.
    public var originalSpec: RenditionSpec? {
        publishOriginals
            ? RenditionSpec(role: .original, box: PixelSize(width: 0, height: 0), format: format, quality: quality, keepsLocation: keepLocation)
            : nil
    }
}
