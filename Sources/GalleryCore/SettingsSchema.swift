import Foundation

/// Every setting of `gallery.yml`, each declared once: key, kind, default,
/// flag and help. Declaration order is the order of `gallerygen init`'s file
/// and of the README's table. Code reads a value as `settings.quality`
/// (`Settings` looks the declaration up by key path), so adding a setting
/// means one declaration here plus the code that uses it; a test checks that
/// the README table, the `init` file and the flags of `build --help` agree
/// with this list.
public struct SettingsSchema: Sendable {
    /// The one schema.
    public static let shared = SettingsSchema()

    public let title = Setting<String>("title", .text, default: "Photos", flag: "title",
                                       help: "The site's name, shown in every page header.")
    public let baseURL = Setting<String>("base_url", .siteURL, default: "", defaultNote: "none", example: "https://example.org/photos/",
                                         help: "The site's absolute address once published (https://example.org/photos/): pages get a canonical link and link previews (OpenGraph, Twitter cards), the feed absolute addresses, and the site a sitemap.xml and robots.txt; without it no absolute address is made up.")
    public let language = Setting<String>("language", .languageTag, default: "en", flag: "language",
                                          help: "The language of the site's words (en, fr, de, es, ja, zh; a theme can add more) and of its dates, written the way that language writes them.")
    public let albumDownloads = Setting<Bool>("album_downloads", .boolean, default: false,
                                              help: "A download button on each album: a ZIP of its previews (of its originals with publish_originals), stored as they are, remade only when the album changes.")
    public let footer = Setting<String>("footer", .text, default: "Made with gallerygen",
                                        help: "The line at the foot of every page (a copyright, a contact).")
    public let theme = Setting<String>("theme", .text, default: "default", flag: "theme",
                                       help: "Theme: a built-in one (default, slate) or a folder with templates/ and static/ (relative to gallery.yml).")
    public let formats = Setting<[OutputFormat]>("formats", .renditionFormats, default: [.webp], flag: "formats",
                                                 help: "Rendition formats, the preferred first: webp (about a third fewer bytes than jpeg) or jpeg, each alone or after avif. [avif, webp]: browsers that show AVIF get it (15% fewer bytes than WebP at the same SSIMULACRA2, docs/avif.md), the others WebP; about half WebP's encoding time more, and both kept in OUT.")
    public let avifQuality = Setting<Int>("avif_quality", .integer(1...100), default: 78,
                                          help: "Encoder quality of AVIF renditions (libavif's scale): 78 scores as WebP at quality 85 does by SSIMULACRA2 (docs/avif.md).")
    public let avifSpeed = Setting<Int>("avif_speed", .integer(0...10), default: 9,
                                        help: "AVIF encoder speed, 0 (slowest) to 10: 9 takes a twelfth of 6's time for the same bytes and a point less of SSIMULACRA2.")
    public let quality = Setting<Int>("quality", .integer(1...100), default: 85, flag: "quality",
                                      help: "Encoder quality of the renditions.")
    public let thumbnailBoxes = Setting<[PixelSize]>("thumbnail_sizes", .boxes, default: [PixelSize(width: 280, height: 210), PixelSize(width: 400, height: 300),
                                                                                                      PixelSize(width: 560, height: 420)],
                                                     flag: "thumbnail-size",
                                                     help: "Thumbnail bounding boxes; each is one srcset candidate (ordinary screens, phones at 2x, 2x and 3x screens).")
    public let previewBoxes = Setting<[PixelSize]>("preview_sizes", .boxes,
                                                   default: [PixelSize(width: 800, height: 600), PixelSize(width: 1600, height: 1200), PixelSize(width: 2560, height: 1920)],
                                                   flag: "preview-size", help: "Preview bounding boxes; each is one srcset candidate (phone, laptop, large screen).")
    public let jobs = Setting<Int>("jobs", .integer(1...256), default: ProcessInfo.processInfo.activeProcessorCount, flag: "jobs",
                                   defaultNote: "all cores", example: 2, affectsOutput: false, help: "Photos processed at once.")
    public let state = Setting<String>("state", .text, default: "", flag: "state", defaultNote: "beside OUT: .NAME.gallerygen",
                                       example: "../photos-state",
                                       affectsOutput: false,
                                       help: "Where the build state is kept (what the build made, what each file held): a folder outside OUT, which is published, and outside SOURCE; on the shared volume for sharded builds (relative to gallery.yml).")
    public let maxMegapixels = Setting<Double>("max_megapixels", .number(1...10_000), default: 100,
                                               help: "Photos larger than this (in megapixels) are refused before decoding (decompression bombs).")
    public let maxAnimationMegapixels = Setting<Double>("max_animation_megapixels", .number(1...100_000), default: 400,
                                                        help: "An animation with more frames x pixels than this (in megapixels) is published as a still.")
    public let photosPerPage = Setting<Int>("photos_per_page", .integer(1...10_000), default: 120,
                                            help: "At most this many photos on one album or moments page.")
    public let momentGroupBy = Setting<MomentGroupKind>("moments.group_by", .choice(["day": .day, "month": .month, "gap": .gap]), default: .day,
                                                       help: "Moments sections: one per local day, per month, or after each pause (gap).")
    public let momentGapHours = Setting<Double>("moments.gap_hours", .number(0.01...10_000), default: 6,
                                                help: "With group_by: gap, the pause (in hours) that starts a new section.")
    public let momentOrder = Setting<SortDirection>("moments.order", .choice(["newest": .descending, "oldest": .ascending]), default: .descending,
                                                    help: "Moments order: newest or oldest first.")
    public let momentPlaces = Setting<Bool>("moment_places", .boolean, default: false,
                                            help: "Name each moments section after where its photos were taken (\"Kyoto & Osaka\"), and give each place a page (places/: by country, with its region), from their GPS, offline, with GeoNames' towns and cities; only names are published, never a photo's coordinates.")
    public let map = Setting<Bool>("map", .boolean, default: false,
                                   help: "With moment_places: a map of the places (places/map.html) on a world map built into the site (Natural Earth), working offline and from file://; markers stand on the towns, never on a photo's position.")
    public let mapTiles = Setting<String>("map_tiles", .tileTemplate, default: "", defaultNote: "none",
                                          example: "https://tile.example.org/{z}/{x}/{y}.png",
                                          help: "Online map tiles drawn under the map, as an https:// address template with {z}, {x} and {y}; the visitor's browser then asks that server for tiles.")
    public let mapTilesAttribution = Setting<String>("map_tiles_attribution", .text, default: "", defaultNote: "none",
                                                     example: "© OpenStreetMap contributors",
                                                     help: "The credit the tile server asks for (\"© OpenStreetMap contributors\"), shown on the map with map_tiles.")
    public let albumSort = Setting<PhotoSortKey>("album_sort", .choice(["date": .date, "name": .name]), default: .date,
                                                 help: "Photo order inside albums (an album.yml can override it): date or name.")
    public let albumOrder = Setting<SortDirection>("album_order", .choice(["ascending": .ascending, "descending": .descending]), default: .ascending,
                                                   help: "Direction of that order: ascending or descending.")
    public let spacing = Setting<Int>("spacing", .integer(0...200), default: 4,
                                      help: "Space between thumbnails and between rows of the grid (CSS px).")
    public let rowHeight = Setting<Int>("row_height", .integer(40...1200), default: 210,
                                        help: "Height of a thumbnail row on wide screens (CSS px).")
    public let slideshowSeconds = Setting<Int>("slideshow_interval", .integer(1...60), default: 4,
                                               help: "Seconds each photo shows in the viewer's slideshow (a video plays to its end).")
    public let allowHTML = Setting<Bool>("allow_html", .boolean, default: false,
                                         help: "Keep raw HTML in album descriptions (album.yml); off: it shows as text.")
    public let followSymlinks = Setting<Bool>("follow_symlinks", .boolean, default: false,
                                              help: "Follow symbolic links in the photo folder (never to outside it; loops end).")
    public let rawPairs = Setting<RawPairs>("raw_pairs", .choice(["prefer_jpeg": .preferJPEG, "both": .both]), default: .preferJPEG,
                                            help: "A RAW file beside a JPEG/HEIC of the same name (RAW+JPEG shooting): publish the JPEG/HEIC only (prefer_jpeg) or both.")
    public let publishOriginals = Setting<Bool>("publish_originals", .boolean, default: false,
                                                help: "Publish the original files for download, GPS, XMP and IPTC removed losslessly (HEIC, TIFF and RAW: a full-size JPEG instead, with no metadata).")
    public let keepLocation = Setting<Bool>("keep_location", .boolean, default: false,
                                            help: "With publish_originals: keep the location data in the published JPEG, PNG, GIF and WebP originals.")

    public let includeRejected = Setting<Bool>("include_rejected", .boolean, default: false,
                                               help: "Publish photos rejected in Lightroom, darktable or Bridge (XMP rating -1); off: they are left out.")
    public let publishArchived = Setting<Bool>("publish_archived", .boolean, default: false,
                                               help: "Publish photos archived in Google Photos (a Takeout JSON's archived: true); off: they are left out. Photos in Google Photos' trash, and those hidden or recently deleted in iCloud Photos, are never published.")
    public let minRating = Setting<Int>("min_rating", .integer(0...5), default: 0,
                                        help: "Publish only photos rated at least this many stars (XMP, Windows or a sidecar); 0 publishes all.")
    public let favourites = Setting<Bool>("favourites", .boolean, default: true,
                                          help: "A Favourites page of the photos rated 4 stars or more (made only when some are).")
    public let stackBursts = Setting<Bool>("stacks.bursts", .boolean, default: true,
                                           help: "List a burst as one tile, its cover with a count, each frame keeping its page: frames the camera named as a burst (…_BURST001, …_BURST<time>_COVER, Samsung's 20231207_101605_001) and frames of one camera numbered in sequence in the same second. An album.yml can turn it off for its album (stacks: bursts: false).")
    public let stackEdits = Setting<Bool>("stacks.edits", .boolean, default: true,
                                          help: "List an edited copy and its original as one tile, the edit as its cover: IMG_E1234 beside IMG_1234, Google Takeout's -edited (in its languages), (edited), Lightroom's -Edit. An album.yml can turn it off for its album (stacks: edits: false).")
    public let stackNearDuplicates = Setting<Bool>("stacks.near_duplicates", .boolean, default: true,
                                                   help: "List photos of one camera taken within stacks.near_duplicate_seconds that look alike (a perceptual hash of the pixels the build makes; two different scenes stay apart) as one tile, the sharpest as cover. An album.yml can turn it off for its album.")
    public let stackNearDuplicateSeconds = Setting<Int>("stacks.near_duplicate_seconds", .integer(1...3600), default: 2,
                                                        help: "How many seconds apart near-duplicates may be: 2 (bursts a camera did not name); 10 or more stacks a few tries at one group photo.")
    public let publishPeople = Setting<Bool>("publish_people", .boolean, default: false,
                                             help: "Publish the people tagged in face regions (XMP from digiKam, Lightroom, Picasa…): a People page, a page per person with their face cut from a photo, names on photo pages, in alt text and search (people.yml merges spellings, picks faces, hides people); off: nothing of people is published.")
    public let faces = Setting<FaceFinding>("faces", .choice(["off": .off, "auto": .auto]), default: .off,
                                            help: "Find faces on this machine and group photos of one person (auto; needs the face models: scripts/face-models.sh, or the .deb): a group is named in people.yml by pointing at a photo of them, and published once named, with publish_people. Nothing is sent anywhere; off: no face is looked for or kept.")
    public let faceModels = Setting<String>("face_models", .text, default: "", defaultNote: "where installed", example: "/usr/share/gallerygen/face-models",
                                            affectsOutput: false,
                                            help: "The folder with the face models faces: auto reads (relative to gallery.yml); unset: beside the program, /usr/share/gallerygen/face-models, or a checkout's .build/face-models.")
    public let ffmpeg = Setting<String>("ffmpeg", .text, default: "", defaultNote: "found on PATH", example: "/usr/bin/ffmpeg",
                                        affectsOutput: false,
                                        help: "The ffmpeg program that makes videos' posters and playback files (ffprobe is taken from beside it).")
    public let videoMaxSize = Setting<PixelSize>("video_max_size", .box, default: PixelSize(width: 1920, height: 1080),
                                                   help: "Largest size of a published video (the box turns with the clip: portrait stays portrait).")
    public let videoQuality = Setting<Int>("video_quality", .integer(0...51), default: 23,
                                           help: "H.264 quality of transcoded videos (x264 CRF: lower is better and bigger).")
    public let videoPreset = Setting<String>("video_preset", .choice(["ultrafast": "ultrafast", "superfast": "superfast", "veryfast": "veryfast",
                                                                      "faster": "faster", "fast": "fast", "medium": "medium", "slow": "slow",
                                                                      "slower": "slower", "veryslow": "veryslow"]),
                                             default: "veryfast", help: "x264 speed preset of transcodes: slower makes smaller files at the same quality.")
    public let maxVideoSeconds = Setting<Int>("max_video_seconds", .integer(1...86_400), default: 1800,
                                              help: "Videos longer than this (in seconds) are refused with a message.")

    /// Every setting, in declaration order.
    public static let all: [any AnySetting] = Mirror(reflecting: shared).children.compactMap { $0.value as? any AnySetting }

    /// The Swift name of each setting's declaration (`thumbnailBoxes`), by key.
    public static let propertyNames: [String: String] = {
        var names: [String: String] = [:]
        for child in Mirror(reflecting: shared).children {
            if let label = child.label, let setting = child.value as? any AnySetting { names[setting.key] = label }
        }
        return names
    }()

    /// The setting with gallery.yml key `key` (or a key it had before).
    public static func setting(forKey key: String) -> (any AnySetting)? { byKey[formerKeys[key] ?? key] }

    /// Keys and flags renamed, still read: `format: jpeg` is `formats: [jpeg]`.
    public static let formerKeys = ["format": "formats"]
    private static let byKey: [String: any AnySetting] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// The setting whose flag is `--flag`.
    public static func setting(forFlag flag: String) -> (any AnySetting)? {
        let current = formerKeys[flag] ?? flag
        return all.first { $0.flag == current }
    }

    /// Keys that hold nested settings (`moments`).
    public static let groups: [String] = {
        var seen: [String] = []
        for setting in all {
            if let dot = setting.key.firstIndex(of: ".") {
                let group = String(setting.key[..<dot])
                if !seen.contains(group) { seen.append(group) }
            }
        }
        return seen
    }()
}

/// Whether the build finds faces itself (`faces`).
public enum FaceFinding: String, Sendable, Equatable {
    /// No face is looked for, grouped or kept.
    case off
    /// Faces are found, described and grouped on this machine.
    case auto
}

/// What to publish when a RAW file and a JPEG/HEIC share a name in one folder.
public enum RawPairs: String, Sendable, Equatable {
    /// The JPEG/HEIC only: the camera's own rendering, one item per shot.
    case preferJPEG
    /// Both, as two items.
    case both
}

/// How moments are grouped, as chosen in gallery.yml (see `MomentGrouping`).
public enum MomentGroupKind: String, Sendable, Equatable {
    case day, month, gap
}
