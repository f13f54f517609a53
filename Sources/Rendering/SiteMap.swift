import GalleryCore

/// Where every page of the site lives (paths relative to the site root), and
/// how albums and the moments timeline are cut into pages.
///
/// Albums mirror the folder tree under `albums/`, each folder name turned into
/// a readable slug (`Léa 7` → `lea-7`) unique among its siblings. An album's
/// pages are `index.html`, `index-2.html`…; its photos' pages sit beside them
/// as `<photo-slug>.html` (the root album's under `albums/`). The timeline is
/// `moments/index.html`, `moments/index-2.html`….
public struct SiteMap: Sendable {
    /// Page paths of each album, first page first.
    public private(set) var albumPages: [AlbumPath: [String]] = [:]
    /// Each photo's page, by its source path (`a/b/c.jpg`).
    public private(set) var photoPages: [String: String] = [:]
    /// The album page (index into `albumPages`) that shows each photo.
    public private(set) var photoAlbumPage: [String: Int] = [:]
    /// Each photo's anchor id on its album page.
    public private(set) var photoAnchors: [String: String] = [:]
    /// The photo ranges of each album page.
    public private(set) var albumPhotoRanges: [AlbumPath: [Range<Int>]] = [:]
    /// The moments sections.
    public let moments: [MomentSection]
    /// How the sections fall on the moments pages.
    public let momentSlices: [[SectionSlice]]
    /// Moments page paths.
    public let momentPages: [String]
    /// Keyword pages, by name (letter case ignored; the first spelling met is shown).
    public let tags: [TagPages]
    /// The page listing every tag (`tags/index.html`), when there are tags.
    public var tagIndexPage: String? { tags.isEmpty ? nil : "tags/index.html" }
    /// The first page of each tag, by its folded name.
    public let tagPageByKey: [String: String]
    /// The items rated four stars or more (`favourites/`), when there are any and the setting is on.
    public let favourites: TagPages?
    /// Every item of the timeline (listed albums, each once), in timeline
    /// order: what tags, Favourites and search are made from.
    public let timelineItems: [MediaItem]
    /// How many of them are videos (the moments pages' count line).
    public let timelineVideoCount: Int
    /// The rating that makes a favourite.
    public static let favouriteRating = 4

    /// One keyword's pages: the items that carry it, from listed albums only,
    /// each once, in timeline order, paged like an album.
    public struct TagPages: Sendable {
        public var name: String
        public var items: [MediaItem]
        public var pages: [String]
        public var ranges: [Range<Int>]
    }

    /// How keywords are told apart: letter case does not count.
    public static func tagKey(_ keyword: String) -> String { keyword.lowercased() }

    /// Lays out `gallery` with `options`.
    public init(gallery: Gallery, options: Settings) {
        moments = MomentSectioner.sections(MomentSectioner.unique(gallery.timelinePhotos),
                                           grouping: options.momentGrouping, order: options.momentOrder)
        momentSlices = PageSplitter.pages(sectionSizes: moments.map(\.photos.count), budget: options.photosPerPage)
        momentPages = momentSlices.indices.map { $0 == 0 ? "moments/index.html" : "moments/index-\($0 + 1).html" }
        // Tags: hidden albums' items never appear, as in moments.
        var names: [String: String] = [:], members: [String: [MediaItem]] = [:]
        for section in moments {
            for item in section.photos {
                for keyword in item.metadata.words.keywords {
                    let key = Self.tagKey(keyword)
                    if names[key] == nil { names[key] = keyword }
                    members[key, default: []].append(item)
                }
            }
        }
        var tagSlugs = Slug.Uniquer()
        var byKey: [String: String] = [:]
        tags = names.keys.sorted { NaturalOrder.less(names[$0]!, names[$1]!) }.map { key in
            let folder = "tags/" + tagSlugs.claim(Slug.make(names[key]!, fallback: "tag")) + "/"
            let items = members[key]!
            let ranges = PageSplitter.pages(count: items.count, budget: options.photosPerPage)
            let pages = ranges.indices.map { SiteMap.albumPage(folder: folder, number: $0) }
            byKey[key] = pages.first
            return TagPages(name: names[key]!, items: items, pages: pages, ranges: ranges)
        }
        tagPageByKey = byKey
        timelineItems = moments.flatMap(\.photos)
        timelineVideoCount = timelineItems.count { $0.kind == .video }
        let favourite = timelineItems.filter { ($0.metadata.words.rating ?? 0) >= Self.favouriteRating }
        if options.favourites, !favourite.isEmpty {
            let ranges = PageSplitter.pages(count: favourite.count, budget: options.photosPerPage)
            favourites = TagPages(name: "Favourites", items: favourite, pages: ranges.indices.map { SiteMap.albumPage(folder: "favourites/", number: $0) },
                                  ranges: ranges)
        } else {
            favourites = nil
        }
        assign(.root, folder: "", gallery: gallery, budget: options.photosPerPage)
    }

    /// Page `number` (0-based) of an album whose folder is `folder`.
    static func albumPage(folder: String, number: Int) -> String {
        folder + (number == 0 ? "index.html" : "index-\(number + 1).html")
    }

    private mutating func assign(_ path: AlbumPath, folder: String, gallery: Gallery, budget: Int) {
        guard let album = gallery.albums[path] else { return }
        let ranges = PageSplitter.pages(count: album.photos.count, budget: budget)
        albumPhotoRanges[path] = ranges
        albumPages[path] = ranges.indices.map { SiteMap.albumPage(folder: folder, number: $0) }
        let photoFolder = path.isRoot ? "albums/" : folder
        var photoSlugs = Slug.Uniquer()
        for (index, photo) in album.photos.enumerated() {
            let name = photo.source.fileName
            let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
            var slug = Slug.make(stem, fallback: "photo")
            // Album pages own index.html and index-N.html.
            if slug == "index" || slug.hasPrefix("index-") { slug = "photo-" + slug }
            slug = photoSlugs.claim(slug)
            let key = photo.source.relativePath
            photoPages[key] = photoFolder + slug + ".html"
            photoAnchors[key] = "p-" + slug
            photoAlbumPage[key] = index / max(1, budget)
        }
        var childSlugs = Slug.Uniquer()
        let childBase = path.isRoot ? "albums/" : folder
        for child in album.children {
            let slug = childSlugs.claim(Slug.make(child.name, fallback: "album"))
            assign(child, folder: childBase + slug + "/", gallery: gallery, budget: budget)
        }
    }
}
