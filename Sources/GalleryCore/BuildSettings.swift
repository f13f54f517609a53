import Foundation

/// Everything that decides what a build produces: where from, where to, and
/// the settings (`settings.quality` reads through to `Settings`).
@dynamicMemberLookup
public struct BuildSettings: Sendable {
    /// The photo tree (never written to).
    public var source: URL
    /// The site folder.
    public var output: URL
    /// The values of gallery.yml's settings.
    public var values: Settings

    /// Creates settings for a build of `source` into `output`.
    public init(source: URL, output: URL, values: Settings = Settings()) {
        self.source = source
        self.output = output
        self.values = values
    }

    /// Where the build state lives: the `state` setting, else a hidden folder
    /// beside OUT (`site` → `.site.gallerygen`), never inside OUT, which is
    /// published whole.
    public var stateFolder: URL {
        values.state.isEmpty ? Self.defaultStateFolder(for: output) : URL(fileURLWithPath: values.state).standardizedFileURL
    }

    /// The state folder of a build into `output` when none is set.
    public static func defaultStateFolder(for output: URL) -> URL {
        let out = output.standardizedFileURL
        return out.deletingLastPathComponent().appendingPathComponent("." + out.lastPathComponent + ".gallerygen")
    }

    /// The stills' encoder (`Settings.stillEncoding`).
    public var stillEncoding: Encoding { values.stillEncoding }

    /// The encoder of the AVIF renditions offered before them, when `formats` asks for AVIF.
    public var avifEncoding: Encoding? {
        values.formats.first == .avif ? .avif(quality: values.avifQuality, speed: values.avifSpeed) : nil
    }

    /// A setting's value, through the schema (`settings.quality`).
    public subscript<Value>(dynamicMember path: KeyPath<SettingsSchema, Setting<Value>>) -> Value {
        get { values[dynamicMember: path] }
        set { values[dynamicMember: path] = newValue }
    }

    /// A derived value of the settings (`settings.maximumPixels`).
    public subscript<Value>(dynamicMember path: KeyPath<Settings, Value>) -> Value {
        values[keyPath: path]
    }

    /// The renditions of an animation within the budget: the thumbnails and
    /// previews re-encoded as animated WebP, plus still posters of the first
    /// frame at the smallest thumbnail and preview boxes (for grids and for the
    /// photo page when motion is unwelcome).
    public var animationSpecs: [RenditionSpec] {
        var posters: [PixelSize] = []
        if let thumbnail = values.thumbnailBoxes.first { posters.append(thumbnail) }
        if let preview = values.previewBoxes.first { posters.append(preview) }
        return renditionSpecs.map(\.asAnimation) + posters.map { RenditionSpec(role: .poster, box: $0, encoding: stillEncoding) }
    }

    /// The AVIF posters offered before `animationSpecs`' still ones.
    public var avifAnimationSpecs: [RenditionSpec] {
        guard let avif = avifEncoding else { return [] }
        return animationSpecs.filter { !$0.animated }.map { RenditionSpec(role: $0.role, box: $0.box, encoding: avif) }
    }

    /// Every rendition each photo gets (WebP or JPEG).
    public var renditionSpecs: [RenditionSpec] {
        values.thumbnailBoxes.map { RenditionSpec(role: .thumbnail, box: $0, encoding: stillEncoding) }
            + values.previewBoxes.map { RenditionSpec(role: .preview, box: $0, encoding: stillEncoding) }
    }

    /// The AVIF copies of `renditionSpecs`, when `formats` asks for AVIF (not
    /// for private albums: their pages show what their script decrypts).
    public var avifSpecs: [RenditionSpec] {
        guard let avif = avifEncoding else { return [] }
        return renditionSpecs.map { RenditionSpec(role: $0.role, box: $0.box, encoding: avif) }
    }

    /// The playback file of a video (and of a Live/Motion Photo's motion).
    public var videoSpec: RenditionSpec {
        RenditionSpec(role: .video, box: values.videoMaxSize, encoding: .h264(crf: values.videoQuality, preset: values.videoPreset))
    }

    /// The box a video's poster frame is taken at: the largest preview box,
    /// the biggest still any page shows of it.
    public var posterBox: PixelSize {
        let boxes = values.previewBoxes + values.thumbnailBoxes
        return PixelSize(width: boxes.map(\.width).max() ?? 2560, height: boxes.map(\.height).max() ?? 1920)
    }

    /// The published original's spec, when originals are published.
    public var originalSpec: RenditionSpec? {
        values.publishOriginals
            ? RenditionSpec(role: .original, box: PixelSize(width: 0, height: 0), encoding: stillEncoding,
                            keepsLocation: values.keepLocation)
            : nil
    }
}
