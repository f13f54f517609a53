import Configuration
import Foundation
import GalleryCore

/// Values given on the command line; each one set overrides the config file.
public struct CommandLineOverrides: Sendable {
    /// `--title`.
    public var title: String?
    /// `--format`.
    public var format: OutputFormat?
    /// `--quality`.
    public var quality: Int?
    /// `--thumbnail-size`.
    public var thumbnailBoxes: [PixelSize]?
    /// `--preview-size`.
    public var previewBoxes: [PixelSize]?
    /// `--jobs`.
    public var jobs: Int?
    /// `--theme`.
    public var theme: String?

    /// Nothing overridden.
    public init(title: String? = nil, format: OutputFormat? = nil, quality: Int? = nil, thumbnailBoxes: [PixelSize]? = nil,
                previewBoxes: [PixelSize]? = nil, jobs: Int? = nil, theme: String? = nil) {
        self.title = title
        self.format = format
        self.quality = quality
        self.thumbnailBoxes = thumbnailBoxes
        self.previewBoxes = previewBoxes
        self.jobs = jobs
        self.theme = theme
    }
}

/// Resolves the settings of a build: defaults, then `gallery.yml` (in SOURCE,
/// or the file given), then command-line flags.
public enum BuildConfiguration {
    /// The config file's name in SOURCE.
    public static let fileName = "gallery.yml"

    /// The settings, or a one-line error naming the file, line and key.
    public static func resolve(source: URL, output: URL, configFile: URL?, overrides: CommandLineOverrides)
        throws(ConfigError) -> (BuildSettings, SiteOptions) {
        var config = ConfigFile()
        let candidate = configFile ?? source.appendingPathComponent(fileName)
        if configFile != nil || FileManager.default.fileExists(atPath: candidate.path) {
            config = try ConfigFile.load(candidate)
        }
        var settings = BuildSettings(
            source: source,
            output: output,
            title: overrides.title ?? config.title,
            thumbnailBoxes: overrides.thumbnailBoxes ?? config.thumbnailSizes,
            previewBoxes: overrides.previewBoxes ?? config.previewSizes,
            format: overrides.format ?? config.format,
            quality: overrides.quality ?? config.quality,
            jobs: overrides.jobs ?? config.jobs,
            maximumPixels: config.maxMegapixels.map { Int($0 * 1_000_000) },
            maximumAnimationPixels: config.maxAnimationMegapixels.map { Int($0 * 1_000_000) }
        )
        settings.followSymlinks = config.followSymlinks ?? false
        settings.publishOriginals = config.publishOriginals ?? false
        settings.keepLocation = config.keepLocation ?? false
        var site = config.site
        if let theme = overrides.theme { site.theme = theme }
        return (settings, site)
    }
}
