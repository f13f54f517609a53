import Foundation
import GalleryCore
import Yams

/// The settings `gallery.yml` can hold. Every field is optional: what is not
/// set keeps its default, and command-line flags override what is set.
public struct ConfigFile: Sendable, Equatable {
    /// Site title.
    public var title: String?
    /// Rendition format.
    public var format: OutputFormat?
    /// Encoder quality.
    public var quality: Int?
    /// Thumbnail boxes.
    public var thumbnailSizes: [PixelSize]?
    /// Preview boxes.
    public var previewSizes: [PixelSize]?
    /// Photos processed at once.
    public var jobs: Int?
    /// Pixel limit per photo, in megapixels.
    public var maxMegapixels: Double?
    /// Frame budget of an animation (frames × canvas), in megapixels.
    public var maxAnimationMegapixels: Double?
    /// Follow symbolic links inside SOURCE.
    public var followSymlinks: Bool?
    /// Publish originals for download.
    public var publishOriginals: Bool?
    /// Keep location data in published originals.
    public var keepLocation: Bool?
    /// Page options.
    public var site = SiteOptions()

    /// Keys of `gallery.yml`.
    public static let knownKeys = ["title", "theme", "format", "quality", "thumbnail_sizes", "preview_sizes", "jobs",
                                   "max_megapixels", "max_animation_megapixels", "photos_per_page", "moments", "album_sort", "album_order",
                                   "spacing", "row_height", "allow_html", "follow_symlinks", "publish_originals", "keep_location"]
    static let momentKeys = ["group_by", "gap_hours", "order"]

    /// An empty config.
    public init() {}

    /// Reads `url`; `displayName` is how errors name the file.
    public static func load(_ url: URL) throws(ConfigError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigError(file: url.path, line: nil, key: nil, message: "cannot be read")
        }
        var config = try parse(String(decoding: data, as: UTF8.self), file: url.lastPathComponent)
        // A theme folder named relative to the config file, not to wherever gallerygen runs.
        let theme = config.site.theme
        if theme.contains("/") || theme.hasPrefix(".") {
            config.site.theme = URL(fileURLWithPath: theme, relativeTo: url.deletingLastPathComponent()).standardizedFileURL.path
        }
        return config
    }

    /// Parses YAML text.
    public static func parse(_ text: String, file: String = "gallery.yml") throws(ConfigError) -> ConfigFile {
        let reader = YAMLReader(file: file)
        var config = ConfigFile()
        var gapHours: Double?
        var grouping: String?
        for (key, value, line) in try reader.mapping(text) {
            switch key {
            case "title": config.title = try reader.string(key, value)
            case "theme": config.site.theme = try reader.string(key, value)
            case "format": config.format = try reader.choice(key, value, [("webp", .webp), ("jpeg", .jpeg), ("jpg", .jpeg)])
            case "quality": config.quality = try reader.int(key, value, 1...100)
            case "thumbnail_sizes": config.thumbnailSizes = try sizes(reader, key, value)
            case "preview_sizes": config.previewSizes = try sizes(reader, key, value)
            case "jobs": config.jobs = try reader.int(key, value, 1...256)
            case "max_megapixels": config.maxMegapixels = try reader.number(key, value, 1...10_000)
            case "max_animation_megapixels": config.maxAnimationMegapixels = try reader.number(key, value, 1...100_000)
            case "photos_per_page": config.site.photosPerPage = try reader.int(key, value, 1...10_000)
            case "album_sort": config.site.albumSort = try reader.choice(key, value, [("date", .date), ("name", .name)])
            case "album_order": config.site.albumOrder = try reader.choice(key, value, [("ascending", .ascending), ("descending", .descending)])
            case "spacing": config.site.spacing = try reader.int(key, value, 0...200)
            case "row_height": config.site.rowHeight = try reader.int(key, value, 40...1200)
            case "allow_html": config.site.allowHTML = try reader.bool(key, value)
            case "follow_symlinks": config.followSymlinks = try reader.bool(key, value)
            case "publish_originals": config.publishOriginals = try reader.bool(key, value)
            case "keep_location": config.keepLocation = try reader.bool(key, value)
            case "moments":
                for (sub, subValue, subLine) in try reader.entries(value, path: key) {
                    switch sub {
                    case "moments.group_by": grouping = try reader.choice(sub, subValue, [("day", "day"), ("month", "month"), ("gap", "gap")])
                    case "moments.gap_hours": gapHours = try reader.number(sub, subValue, 0.01...10_000)
                    case "moments.order":
                        config.site.momentOrder = try reader.choice(sub, subValue, [("newest", .descending), ("oldest", .ascending)])
                    default: throw reader.unknown(sub, subLine, known: momentKeys.map { "moments.\($0)" })
                    }
                }
            default:
                throw reader.unknown(key, line, known: knownKeys)
            }
        }
        switch grouping {
        case "month": config.site.momentGrouping = .month
        case "gap": config.site.momentGrouping = .gap(hours: gapHours ?? 6)
        default: config.site.momentGrouping = .day
        }
        return config
    }

    static func sizes(_ reader: YAMLReader, _ key: String, _ node: Node) throws(ConfigError) -> [PixelSize] {
        var texts: [String] = []
        if let sequence = node.sequence {
            for item in sequence { texts.append(try reader.string(key, item)) }
        } else {
            texts = try reader.string(key, node).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let sizes = texts.compactMap { PixelSize(parsing: Substring($0)) }
        guard !texts.isEmpty, sizes.count == texts.count else {
            throw reader.fail(key, node, "must be a list of WIDTHxHEIGHT boxes, e.g. [280x210, 560x420]")
        }
        return sizes
    }
}
