import Foundation
import GalleryCore
import Planning

/// Renders the site's pages from the theme's templates. Every value reaches the
/// HTML through the templates' escaping `{{ }}` (only the description, produced by
/// the escaping Markdown renderer, uses `{{{ }}}`); URLs are percent-encoded
/// relative paths, so the site works from any folder, sub-path or `file://`.
public struct SiteRenderer: Sendable {
    /// The templates.
    public let theme: Theme
    /// The content.
    public let gallery: Gallery
    /// Page options.
    public let options: Settings
    /// Page locations.
    public let map: SiteMap
    /// Each album's download (`album_downloads`), made before the pages.
    public let downloads: [AlbumPath: AlbumDownload]
    /// The site's words in its language (the theme's).
    public var strings: SiteStrings { theme.strings }

    /// The plan: every page and its fingerprint.
    public let plan: SitePlan

    /// Creates a renderer for `gallery`, planning its site here.
    public init(theme: Theme, gallery: Gallery, options: Settings, downloads: [AlbumPath: AlbumDownload] = [:]) {
        self.init(theme: theme, plan: SitePlan(gallery: gallery, options: options, downloads: downloads), options: options, downloads: downloads)
    }

    /// Creates a renderer for a planned site.
    public init(theme: Theme, plan: SitePlan, options: Settings, downloads: [AlbumPath: AlbumDownload] = [:]) {
        self.downloads = downloads
        self.theme = theme
        self.gallery = plan.gallery
        self.options = options
        self.map = plan.map
        self.plan = plan
    }

    /// Every page of the site: album pages, photo pages, moments pages.
    public func pages() throws -> [RenderedPage] {
        var pages: [RenderedPage] = []
        try forEachPage { pages.append($0) }
        return pages
    }

    /// Renders the pages one at a time, in order, and hands each to `body`.
    /// A template that fails throws a `ThemeError` naming it; what `body` throws passes through.
    public func forEachPage(_ body: (RenderedPage) throws -> Void) throws {
        for job in pageJobs() {
            for page in try job.render() { try body(page) }
        }
    }

    /// The site's pages as independent pieces of work, so a build can render
    /// them on every core and never hold all the HTML in memory at once.
    public func pageJobs() -> [PageJob] { plan.pages.map(job) }

    /// The work of making one planned page (or group of files).
    public func job(_ page: PlannedPage) -> PageJob {
        let path = page.id
        func one(_ kind: PageJob.Kind, _ render: @escaping @Sendable () throws(ThemeError) -> String) -> PageJob {
            PageJob(kind: kind) { () throws(ThemeError) in [RenderedPage(path: path, html: try render())] }
        }
        switch page.kind {
        case let .album(albumPath, number):
            return one(.album) { () throws(ThemeError) in
                // A planned album exists: the plan was made from this gallery.
                guard let album = gallery.albums[albumPath] else { return "" }
                let everything = gallery.photos(under: albumPath)
                return try renderAlbumPage(album, number: number, summary: (count: count(everything), dates: dateRange(everything)))
            }
        case let .item(albumPath, index):
            return one(.item) { () throws(ThemeError) in
                guard let album = gallery.albums[albumPath] else { return "" }
                return try renderPhotoPage(album, index: index, pagePath: path)
            }
        case let .moments(number):
            return one(.moments) { () throws(ThemeError) in try renderMomentsPage(number) }
        case .years:
            return one(.moments) { () throws(ThemeError) in try theme.render("years", yearsPage()) }
        case .tagIndex:
            return one(.tag) { () throws(ThemeError) in try theme.render("tags", tagIndexPage(path)) }
        case let .tag(t, number):
            return one(.tag) { () throws(ThemeError) in try theme.render("album", tagPage(map.tags[t], number: number)) }
        case let .favourites(number):
            return one(.tag) { () throws(ThemeError) in
                guard let favourites = map.favourites else { return "" }
                return try theme.render("album", tagPage(favourites, number: number, section: "favourites"))
            }
        case .search:
            return one(.search) { () throws(ThemeError) in try theme.render("search", searchPage()) }
        case .searchIndex:
            return PageJob(kind: .search) { () throws(ThemeError) in
                searchIndex().files.map { RenderedPage(path: $0.path, html: $0.text) }
            }
        case .sitemap:
            return PageJob(kind: .sitemap) { () throws(ThemeError) in sitemapFiles() }
        case .feed:
            return PageJob(kind: .sitemap) { () throws(ThemeError) in [feedFile()] }
        }
    }

    // MARK: Shared pieces

    func chrome(_ pagePath: String, title: String, section: String) -> PageChrome {
        PageChrome(
            site: PageChrome.Site(title: gallery.title),
            language: strings.languageTag,
            title: title,
            stylesheet: URLPath.relative(from: pagePath, to: "static/style.css"),
            themeStylesheet: URLPath.relative(from: pagePath, to: "static/theme.css"),
            script: URLPath.relative(from: pagePath, to: "static/viewer.js"),
            stringsScript: URLPath.relative(from: pagePath, to: "static/" + SiteStrings.scriptPath),
            feedURL: URLPath.relative(from: pagePath, to: Self.feedFile),
            pagesScript: URLPath.relative(from: pagePath, to: "static/pages.js"),
            home: URLPath.relative(from: pagePath, to: "index.html"),
            momentsURL: URLPath.relative(from: pagePath, to: "moments/index.html"),
            tagsURL: map.tagIndexPage.map { URLPath.relative(from: pagePath, to: $0) },
            favouritesURL: map.favourites.map { URLPath.relative(from: pagePath, to: $0.pages[0]) },
            inFavourites: section == "favourites",
            searchURL: URLPath.relative(from: pagePath, to: Self.searchPage),
            inSearch: section == "search",
            inAlbums: section == "albums",
            inMoments: section == "moments",
            inTags: section == "tags",
            spacing: options.spacing,
            rowHeight: options.rowHeight,
            mobileRowHeight: mobileRowHeight,
            footer: options.footer,
            canonicalURL: absoluteURL(pagePath)
        )
    }

    /// The link preview of a page, when `base_url` is set: `item`'s preview of
    /// the 1200-px class (the one closest to 1200 wide) as its picture.
    func shareCard(_ pagePath: String, headline: String, summary: String, item: MediaItem?, type: String = "website") -> ShareCard? {
        guard let url = absoluteURL(pagePath) else { return nil }
        var card = ShareCard(type: type, headline: headline, summary: summary, url: url, card: "summary")
        if let item, let picture = Self.preview(of: item, nearestWidth: 1200) {
            card.imageURL = absoluteURL(picture.path)
            card.imageWidth = picture.size.width
            card.imageHeight = picture.size.height
            card.imageAlt = alt(item)
            card.card = "summary_large_image"
        }
        return card
    }

    /// The item's preview whose width is nearest `width` (a link preview's
    /// 1200-px class, a feed reader's column).
    static func preview(of item: MediaItem, nearestWidth width: Int) -> Rendition? {
        item.renditions(.preview).min { abs($0.size.width - width) < abs($1.size.width - width) }
    }

    /// A description for a link preview: plain text, one paragraph, at most 200 characters.
    static func shareSummary(_ text: String) -> String {
        // Most texts are already plain and short: nothing to take out (no
        // newline, mark or doubled or outer space) and at most 200 bytes,
        // so at most 200 characters.
        let bytes = text.utf8
        func mark(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "#"): return true
            default: return false
            }
        }
        if bytes.count <= 200, bytes.first != UInt8(ascii: " "), bytes.last != UInt8(ascii: " "), !bytes.contains(where: mark),
           !zip(bytes, bytes.dropFirst()).contains(where: { $0 == UInt8(ascii: " ") && $1 == UInt8(ascii: " ") }) {
            return text
        }
        var plain = text.replacingOccurrences(of: "\n", with: " ")
        for mark in ["**", "__", "`", "# "] { plain = plain.replacingOccurrences(of: mark, with: "") }
        plain = plain.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return plain.count > 200 ? String(plain.prefix(199)) + "…" : plain
    }

    /// `path` (from the site root) as an absolute address, when `base_url` is set.
    func absoluteURL(_ path: String) -> String? {
        guard !options.baseURL.isEmpty else { return nil }
        return options.baseURL + path.split(separator: "/").map { URLPath.encodeSegment(String($0)) }.joined(separator: "/")
    }

    /// "Kyoto", "Kyoto & Osaka", "Kyoto, Osaka & Nara", "Kyoto, Osaka & 3 other places"
    /// (most photos first), in the site's language.
    func placeLabel(_ places: [String]) -> String? {
        switch places.count {
        case 0: return nil
        case 1: return places[0]
        case 2: return strings.text("places.two", ["first": places[0], "second": places[1]])
        case 3: return strings.text("places.three", ["first": places[0], "second": places[1], "third": places[2]])
        default: return strings.count("places.more", places.count - 2, ["first": places[0], "second": places[1]])
        }
    }

    /// Row height on phones (`--row-mobile`).
    var mobileRowHeight: Int { max(60, options.rowHeight * 4 / 7) }

    func breadcrumbs(to path: AlbumPath, from pagePath: String, includingSelf: Bool) -> [TitledLink] {
        var crumbs: [TitledLink] = []
        var current: AlbumPath? = includingSelf ? path : path.parent
        while let p = current {
            let first = map.albumPages[p]?.first ?? "index.html"
            crumbs.insert(TitledLink(title: gallery.albums[p]?.title ?? p.name, url: URLPath.relative(from: pagePath, to: first)), at: 0)
            current = p.parent
        }
        return crumbs
    }

    /// `<img>` facts of a thumbnail: the smallest as `src`, all in `srcset`, and
    /// `sizes` from the grid's row height so the browser picks the right
    /// candidate for the screen's pixel density.
    /// `albumAnchor`: on its album's own pages an item's `id` is its album
    /// anchor (photo pages link back to it); elsewhere (moments, tags), where
    /// items from many albums meet and IMG_0001 is in every one, it is made
    /// from the item's path so it stays unique, also across appended pages.
    func thumbnail(_ item: MediaItem, from pagePath: String, position: Int, albumAnchor: Bool = false) -> Thumbnail? {
        let thumbs = item.renditions(.thumbnail)
        guard let first = thumbs.first else { return nil }
        let aspect = Double(first.size.width) / Double(max(1, first.size.height))
        let key = item.source.relativePath
        let link = URLPath.Relativizer(from: pagePath)
        var thumbnail = Thumbnail(
            image: ImageAttributes(
                src: link.url(to: first.path),
                srcset: srcset(thumbs, from: link),
                sizes: "(max-width: 600px) \(Int((Double(mobileRowHeight) * aspect).rounded()))px, \(Int((Double(options.rowHeight) * aspect).rounded()))px",
                width: first.size.width,
                height: first.size.height,
                alt: alt(item)),
            grow: String(format: "%.4f", aspect),
            lazy: position >= 12,
            animated: item.kind == .animation,
            factsJSON: PhotoFacts.json(item, strings: strings, people: options.publishPeople, place: options.momentPlaces)
        )
        thumbnail.caption = Self.captionLine(item.metadata.words)
        thumbnail.href = map.photoPages[key].map { link.url(to: $0) }
        if albumAnchor {
            thumbnail.id = map.photoAnchors[key]
        } else {
            var hasher = StableHash()
            hasher.update(key)
            thumbnail.id = "i-" + hasher.finalize().prefix(12)
        }
        let previews = item.renditions(.preview)
        if let largest = previews.last {
            thumbnail.previewSrcset = srcset(previews, from: link)
            thumbnail.previewWidth = largest.size.width
            thumbnail.previewHeight = largest.size.height
        }
        thumbnail.original = item.renditions(.original).first.map { link.url(to: $0.path) }
        let posters = item.renditions(.poster)
        if let small = posters.first, let large = posters.last {
            thumbnail.poster = link.url(to: small.path)
            thumbnail.posterLarge = link.url(to: large.path)
        }
        if let playback = item.renditions(.video).first {
            thumbnail.video = link.url(to: playback.path)
            thumbnail.live = item.kind == .motionStill
            if item.kind == .video { thumbnail.duration = item.metadata.motion?.durationLabel }
        }
        return thumbnail
    }

    /// The text of an item's pictures: its title, else its caption, else a
    /// description made from what it is and when ("Photo, 3 May 2025"), never
    /// a file name (IMG_0412.JPG says nothing to someone who cannot see it).
    func alt(_ item: MediaItem) -> String {
        if let title = item.metadata.words.title { return title }
        if let caption = item.metadata.words.caption { return caption }
        let kind = strings.text(PhotoFacts.kindKey(item))
        let date = item.metadata.captureDate
        return date.source == .fileTime ? kind : strings.text("alt.dated", ["kind": kind, "date": strings.short(date.localDay)])
    }

    /// The line under a photo in the viewer: "Title — caption", either alone, or nil.
    static func captionLine(_ words: PhotoWords) -> String? {
        switch (words.title, words.caption) {
        case let (title?, caption?): return title + " — " + caption
        case let (title?, nil): return title
        case let (nil, caption?): return caption
        default: return nil
        }
    }

    /// The title of an item's page: its title, else its file name.
    static func pageTitle(_ item: MediaItem) -> String { item.metadata.words.title ?? item.source.fileName }

    func srcset(_ renditions: [Rendition], from pagePath: String) -> String {
        srcset(renditions, from: URLPath.Relativizer(from: pagePath))
    }

    func srcset(_ renditions: [Rendition], from link: URLPath.Relativizer) -> String {
        var seen: Set<String> = []
        return renditions.filter { seen.insert($0.path).inserted }
            .map { "\(link.url(to: $0.path)) \($0.size.width)w" }
            .joined(separator: ", ")
    }

    /// Preview `sizes`: the photo is shown as large as fits the window below the
    /// header, so its width is limited either by the window's width or by its height.
    func previewSizes(_ size: PixelSize) -> String {
        let w = size.width, h = max(1, size.height)
        return "(min-aspect-ratio: \(w)/\(h)) calc((100vh - 9rem) * \(w) / \(h)), 100vw"
    }

    func pager(_ paths: [String], current: Int, from pagePath: String) -> Pager? {
        guard paths.count > 1 else { return nil }
        var items: [Pager.Item] = []
        var lastShown = -1
        for i in paths.indices {
            // First, last, and a window around the current page.
            guard i == 0 || i == paths.count - 1 || abs(i - current) <= 2 else { continue }
            if lastShown >= 0, i > lastShown + 1 { items.append(Pager.Item(gap: true)) }
            items.append(Pager.Item(number: i + 1, url: URLPath.relative(from: pagePath, to: paths[i]), current: i == current))
            lastShown = i
        }
        var pager = Pager(items: items, count: paths.count, number: current + 1)
        if current > 0 { pager.prev = URLPath.relative(from: pagePath, to: paths[current - 1]) }
        if current + 1 < paths.count { pager.next = URLPath.relative(from: pagePath, to: paths[current + 1]) }
        return pager
    }

    func relLinks(_ pager: Pager?) -> [PageChrome.RelLink] {
        var links: [PageChrome.RelLink] = []
        if let prev = pager?.prev { links.append(PageChrome.RelLink(rel: "prev", url: prev)) }
        if let next = pager?.next { links.append(PageChrome.RelLink(rel: "next", url: next)) }
        return links
    }

    func dateRange(_ items: [MediaItem]) -> String? {
        let days = items.map(\.metadata.captureDate.localDay)
        guard let first = days.min(), let last = days.max() else { return nil }
        return strings.shortRange(first, last)
    }

    /// "12 photos", "1 video", "12 photos, 3 videos" (in the site's language).
    func count(_ items: [MediaItem]) -> String {
        count(items: items.count, videos: items.reduce(0) { $0 + ($1.kind == .video ? 1 : 0) })
    }

    /// The label of `items` items of which `videos` are videos.
    func count(items: Int, videos: Int) -> String {
        let photoCount = items - videos
        let photos = strings.count("count.photos", photoCount)
        if videos == 0 { return photos }
        let videoText = strings.count("count.videos", videos)
        return photoCount == 0 ? videoText : strings.text("count.both", ["photos": photos, "videos": videoText])
    }

    // MARK: Pages

    func albumPage(_ album: Album, number: Int, summary: (count: String, dates: String?)) -> AlbumPageModel {
        let path = album.path
        let pagePath = map.albumPages[path]![number]
        var chrome = chrome(pagePath, title: path.isRoot ? gallery.title : album.title, section: "albums")
        chrome.isHome = path.isRoot
        chrome.share = shareCard(pagePath, headline: chrome.title,
                                 summary: Self.shareSummary(album.description ?? ([summary.count] + (summary.dates.map { [$0] } ?? [])).joined(separator: " · ")),
                                 item: gallery.cover(of: path))
        let crumbs = path.isRoot ? [] : breadcrumbs(to: path, from: pagePath, includingSelf: false)
        let range = map.albumPhotoRanges[path]?[number] ?? 0..<0
        let pager = pager(map.albumPages[path]!, current: number, from: pagePath)
        chrome.relLinks = relLinks(pager)
        var model = AlbumPageModel(
            chrome: chrome, photoCountLabel: summary.count, dateRange: summary.dates,
            breadcrumbs: crumbs, hasBreadcrumbs: !crumbs.isEmpty,
            photos: range.compactMap { thumbnail(album.photos[$0], from: pagePath, position: $0 - range.lowerBound, albumAnchor: true) },
            hasPhotos: !range.isEmpty, pager: pager)
        if let download = downloads[path] {
            model.download = AlbumPageModel.Download(url: URLPath.relative(from: pagePath, to: download.path),
                                                     fileName: Slug.downloadName(path.isRoot ? gallery.title : album.title) + ".zip",
                                                     size: strings.fileSize(download.bytes))
        }
        if number == 0 {
            model.descriptionHTML = album.description.map { Markdown.render($0, allowHTML: options.allowHTML) }
            let cards = gallery.listedChildren(of: path).compactMap { child -> AlbumCard? in
                guard let page = map.albumPages[child]?.first, let childAlbum = gallery.albums[child] else { return nil }
                let items = gallery.photos(under: child)
                return AlbumCard(title: childAlbum.title, url: URLPath.relative(from: pagePath, to: page),
                                 countLabel: count(items), dateRange: dateRange(items) ?? "",
                                 cover: gallery.cover(of: child).flatMap { thumbnail($0, from: pagePath, position: 0) })
            }
            model.albums = cards
            model.hasAlbums = !cards.isEmpty
        }
        return model
    }

    func renderAlbumPage(_ album: Album, number: Int, summary: (count: String, dates: String?)) throws(ThemeError) -> String {
        try theme.render(album.path.isRoot ? "index" : "album", albumPage(album, number: number, summary: summary))
    }

    func photoPage(_ album: Album, index: Int, pagePath: String) -> PhotoPageModel {
        let item = album.photos[index]
        let key = item.source.relativePath
        var chrome = chrome(pagePath, title: Self.pageTitle(item), section: "albums")
        chrome.share = shareCard(pagePath, headline: Self.pageTitle(item),
                                 summary: Self.shareSummary(item.metadata.words.caption ?? alt(item) + " · " + (album.path.isRoot ? gallery.title : album.title)),
                                 item: item, type: "article")
        let previews = item.renditions(.preview)
        var preview: PhotoPageModel.Preview?
        if let largest = previews.last, let smallest = previews.first {
            preview = PhotoPageModel.Preview(
                image: ImageAttributes(src: URLPath.relative(from: pagePath, to: previews[previews.count > 1 ? 1 : 0].path),
                                       srcset: srcset(previews, from: pagePath), sizes: previewSizes(largest.size),
                                       width: smallest.size.width, height: smallest.size.height, alt: alt(item)),
                animated: item.kind == .animation,
                poster: item.renditions(.poster).last.map { URLPath.relative(from: pagePath, to: $0.path) })
        }
        let pages = map.albumPages[album.path] ?? ["index.html"]
        let albumPage = pages[min(pages.count - 1, map.photoAlbumPage[key] ?? 0)]
        var model = PhotoPageModel(
            chrome: chrome, breadcrumbs: breadcrumbs(to: album.path, from: pagePath, includingSelf: true), hasBreadcrumbs: true,
            photo: preview, facts: PhotoFacts.list(item, strings: strings, people: options.publishPeople, place: options.momentPlaces).map { PhotoPageModel.Fact(label: $0.label, value: $0.value) },
            original: item.renditions(.original).first.map {
                PhotoPageModel.Download(url: URLPath.relative(from: pagePath, to: $0.path), name: item.source.fileName)
            },
            datetime: HumanDate.machine(item.metadata.captureDate),
            caption: item.metadata.words.caption,
            keywords: item.metadata.words.keywords.map { keyword in
                KeywordLink(name: keyword, url: map.tagPageByKey[SiteMap.tagKey(keyword)].map { URLPath.relative(from: pagePath, to: $0) })
            },
            hasKeywords: !item.metadata.words.keywords.isEmpty,
            back: TitledLink(title: album.path.isRoot ? gallery.title : album.title,
                             url: URLPath.relative(from: pagePath, to: albumPage) + "#" + (map.photoAnchors[key] ?? "")))
        if let playback = item.renditions(.video).first {
            if item.kind == .video, let poster = previews.dropFirst(previews.count > 1 ? 1 : 0).first {
                // The middle preview: sharp on a laptop, and what the neighbours' preloads fetched.
                model.video = PhotoPageModel.Player(src: URLPath.relative(from: pagePath, to: playback.path),
                                                    poster: URLPath.relative(from: pagePath, to: poster.path),
                                                    width: playback.size.width, height: playback.size.height)
                model.photo = nil
            } else if item.kind == .motionStill {
                model.motion = PhotoPageModel.Motion(src: URLPath.relative(from: pagePath, to: playback.path),
                                                     width: playback.size.width, height: playback.size.height)
            }
        }
        func neighbour(_ i: Int) -> MediaItem? { album.photos.indices.contains(i) ? album.photos[i] : nil }
        if let prev = neighbour(index - 1), let page = map.photoPages[prev.source.relativePath] {
            model.prev = PlainLink(url: URLPath.relative(from: pagePath, to: page))
            chrome.relLinks.append(PageChrome.RelLink(rel: "prev", url: URLPath.relative(from: pagePath, to: page)))
        }
        if let next = neighbour(index + 1), let page = map.photoPages[next.source.relativePath] {
            model.next = PlainLink(url: URLPath.relative(from: pagePath, to: page))
            chrome.relLinks.append(PageChrome.RelLink(rel: "next", url: URLPath.relative(from: pagePath, to: page)))
        }
        // Next first (the likely step), then previous, then the one after next.
        for i in [index + 1, index - 1, index + 2] {
            guard let other = neighbour(i) else { continue }
            let renditions = other.renditions(.preview)
            guard let middle = renditions.dropFirst(renditions.count > 1 ? 1 : 0).first, let largest = renditions.last else { continue }
            chrome.preloads.append(PageChrome.Preload(href: URLPath.relative(from: pagePath, to: middle.path),
                                                      srcset: srcset(renditions, from: pagePath), sizes: previewSizes(largest.size)))
        }
        model.chrome = chrome
        return model
    }

    func renderPhotoPage(_ album: Album, index: Int, pagePath: String) throws(ThemeError) -> String {
        try theme.render("photo", photoPage(album, index: index, pagePath: pagePath))
    }

    /// Days with at most this many items are "quiet": two or more in a row
    /// share one justified grid instead of a block each.
    static let quietDayItems = 6

    func momentsPage(_ number: Int) -> MomentsPageModel {
        let pagePath = map.momentPages[number]
        var chrome = chrome(pagePath, title: strings.text("moments.title"), section: "moments")
        let places = options.momentPlaces
        var position = 0
        var blocks: [MomentBlock] = []
        var monthsHere: Set<String> = []
        let slices = map.momentSlices[number]
        func quiet(_ i: Int) -> Bool { slices.indices.contains(i) && map.moments[slices[i].section].photos.count <= Self.quietDayItems }
        for (i, slice) in slices.enumerated() {
            let section = map.moments[slice.section]
            let place = places ? placeLabel(section.places) : nil
            let month = section.photos[slice.range.lowerBound].metadata.captureDate.localDay.monthDescription
            for j in slice.range { monthsHere.insert(section.photos[j].metadata.captureDate.localDay.monthDescription) }
            let anchor = slice.continuesFromPrevious ? nil : map.momentAnchors[slice.section]
            var photos = slice.range.compactMap { j -> Thumbnail? in
                defer { position += 1 }
                return thumbnail(section.photos[j], from: pagePath, position: position)
            }
            let dateText: String
            switch options.momentGrouping {
            case .day: dateText = strings.day(section.firstDay)
            case .month: dateText = strings.month(section.firstDay)
            case .gap: dateText = strings.range(section.firstDay, section.lastDay)
            }
            let heading = place.map { $0 + " · " + dateText } ?? strings.heading(dateText)
            let countLabel = count(section.photos)
            if quiet(i), quiet(i - 1) || quiet(i + 1), !photos.isEmpty {
                // A quiet day among quiet days: its photos join the run's grid,
                // the first one carrying the day's name.
                let shortDate: String
                switch options.momentGrouping {
                case .day: shortDate = strings.short(section.firstDay)
                case .month: shortDate = strings.month(section.firstDay)
                case .gap: shortDate = strings.shortRange(section.firstDay, section.lastDay)
                }
                let span = slice.range.reduce(0.0) { total, j in total + (Double(thumbnailAspect(section.photos[j])) ) }
                photos[0].dayLabel = DayLabel(anchor: anchor, datetime: section.datetime,
                                              text: (place.map { $0 + " · " + shortDate } ?? strings.heading(shortDate)) + (slice.continuesFromPrevious ? " " + strings.text("moments.continued") : ""),
                                              title: heading + ", " + countLabel, month: month, span: String(format: "%.3f", span))
                if let last = blocks.indices.last, blocks[last].run != nil {
                    blocks[last].run!.photos += photos
                } else {
                    blocks.append(MomentBlock(run: MomentRunModel(photos: photos)))
                }
                continue
            }
            let albums = section.albums.map { album in
                TitledLink(title: album.isRoot ? gallery.title : (gallery.albums[album]?.title ?? album.name),
                           url: URLPath.relative(from: pagePath, to: map.albumPages[album]?.first ?? "index.html"))
            }
            blocks.append(MomentBlock(section: MomentSectionModel(
                datetime: section.datetime, heading: heading, countLabel: countLabel,
                albums: albums, continued: slice.continuesFromPrevious, continues: slice.continuesOnNext,
                photos: photos, anchor: anchor, month: month)))
        }
        let pager = pager(map.momentPages, current: number, from: pagePath)
        chrome.relLinks = relLinks(pager)
        chrome.share = shareCard(pagePath, headline: strings.text("moments.title"),
                                 summary: strings.text("moments.meta", ["photoCountLabel": count(items: map.timelineItems.count, videos: map.timelineVideoCount)]),
                                 item: slices.first.map { map.moments[$0.section].photos[$0.range.lowerBound] })
        let here = slices.first.map { strings.heading(strings.month(map.moments[$0.section].photos[$0.range.lowerBound].metadata.captureDate.localDay)) } ?? ""
        return MomentsPageModel(chrome: chrome, photoCountLabel: count(items: map.timelineItems.count, videos: map.timelineVideoCount),
                                blocks: blocks, pager: pager,
                                years: yearIndex(from: pagePath, current: monthsHere, covers: false),
                                yearsURL: URLPath.relative(from: pagePath, to: SiteMap.yearsPage),
                                hereLabel: here,
                                placesCredit: places && map.moments.contains { !$0.places.isEmpty })
    }

    /// An item's thumbnail aspect ratio (width / height), as its grid cell grows.
    func thumbnailAspect(_ item: MediaItem) -> Double {
        guard let first = item.renditions(.thumbnail).first else { return 1 }
        return Double(first.size.width) / Double(max(1, first.size.height))
    }

    /// The year → month index as seen from `pagePath`: every year, its twelve
    /// months (links to the page and anchor where each month's first section
    /// starts), `current` months marked and their years unfolded.
    func yearIndex(from pagePath: String, current: Set<String>, covers: Bool) -> [YearIndexEntry] {
        map.timelineYears.map { year in
            var entry = YearIndexEntry(year: String(year.year), countLabel: strings.grouped(year.items),
                                       fullCountLabel: count(items: year.items, videos: year.videos), url: "", open: false, months: [])
            for (m, month) in year.months.enumerated() {
                let key = LocalDay(year: year.year, month: m + 1, day: 1).monthDescription
                var link = YearIndexEntry.Month(name: strings.shortMonthName(m + 1), label: strings.heading(strings.month(LocalDay(year: year.year, month: m + 1, day: 1))),
                                                countLabel: "", href: nil, key: key)
                if month.items > 0 {
                    link.countLabel = strings.grouped(month.items)
                    link.label += ": " + count(items: month.items, videos: month.videos)
                    let page = map.momentPages[map.momentSectionPage[month.firstSection]]
                    link.href = URLPath.relative(from: pagePath, to: page) + "#" + map.momentAnchors[month.firstSection]
                    link.current = current.contains(key)
                    if entry.url.isEmpty || options.momentOrder == .descending { entry.url = link.href! }
                }
                entry.open = entry.open || link.current
                entry.months.append(link)
            }
            if covers { entry.cover = year.cover.flatMap { thumbnail($0, from: pagePath, position: 0) } }
            return entry
        }
    }

    func yearsPage() -> YearsPageModel {
        let pagePath = SiteMap.yearsPage
        var chrome = chrome(pagePath, title: strings.text("years.title"), section: "moments")
        chrome.relLinks = []
        let years = map.timelineYears.count
        return YearsPageModel(chrome: chrome,
                              countLabel: strings.text("count.in_years", ["count": count(items: map.timelineItems.count, videos: map.timelineVideoCount),
                                                                          "years": strings.count("count.years", years)]),
                              years: yearIndex(from: pagePath, current: [], covers: true))
    }

    func tagIndexPage(_ pagePath: String) -> TagIndexModel {
        var chrome = chrome(pagePath, title: strings.text("tags.title"), section: "tags")
        chrome.relLinks = []
        let entries = map.tags.map { tag in
            TagIndexModel.Entry(name: tag.name, url: URLPath.relative(from: pagePath, to: tag.pages[0]), countLabel: count(tag.items),
                                cover: tag.items.first.flatMap { thumbnail($0, from: pagePath, position: 0) })
        }
        return TagIndexModel(chrome: chrome, countLabel: strings.count("count.tags", map.tags.count), tags: entries)
    }

    /// A tag's page (or the Favourites'): a grid of its items, paged like an album's.
    func tagPage(_ tag: SiteMap.TagPages, number: Int, section: String = "tags") -> AlbumPageModel {
        let pagePath = tag.pages[number]
        let name = section == "favourites" ? strings.text("favourites.title") : tag.name
        var chrome = chrome(pagePath, title: name, section: section)
        chrome.share = shareCard(pagePath, headline: name, summary: count(tag.items) + (dateRange(tag.items).map { " · " + $0 } ?? ""),
                                 item: tag.items.first)
        let pager = pager(tag.pages, current: number, from: pagePath)
        chrome.relLinks = relLinks(pager)
        var crumbs = [TitledLink(title: gallery.title, url: URLPath.relative(from: pagePath, to: "index.html"))]
        if section == "tags" { crumbs.append(TitledLink(title: strings.text("tags.title"), url: URLPath.relative(from: pagePath, to: map.tagIndexPage ?? "index.html"))) }
        let range = tag.ranges[number]
        return AlbumPageModel(chrome: chrome, photoCountLabel: count(tag.items), dateRange: dateRange(tag.items),
                              breadcrumbs: crumbs, hasBreadcrumbs: true,
                              photos: range.compactMap { thumbnail(tag.items[$0], from: pagePath, position: $0 - range.lowerBound) },
                              hasPhotos: !range.isEmpty, pager: pager)
    }

    // MARK: Sitemap

    /// Every published page a search engine should know (listed albums and
    /// their items, the timeline, years, tags, Favourites; not hidden albums,
    /// not the search page), each with its main picture.
    func sitemapEntries() -> [(page: String, image: String?)] {
        var entries: [(String, String?)] = []
        func largestPreview(_ item: MediaItem?) -> String? { item?.renditions(.preview).last?.path }
        for path in gallery.albums.keys.sorted() where !gallery.isHidden(path) {
            guard let album = gallery.albums[path], let pages = map.albumPages[path] else { continue }
            for page in pages { entries.append((page, largestPreview(gallery.cover(of: path)))) }
            for item in album.photos {
                if let page = map.photoPages[item.source.relativePath] { entries.append((page, largestPreview(item))) }
            }
        }
        for page in map.momentPages { entries.append((page, nil)) }
        entries.append((SiteMap.yearsPage, nil))
        if let index = map.tagIndexPage { entries.append((index, nil)) }
        for tag in map.tags { for page in tag.pages { entries.append((page, largestPreview(tag.items.first))) } }
        if let favourites = map.favourites { for page in favourites.pages { entries.append((page, largestPreview(favourites.items.first))) } }
        return entries
    }

    /// A sitemap can list 50,000 addresses; past that, files of 50,000 and an index.
    static let sitemapLimit = 50_000

    /// `sitemap.xml` (with Google's image extension) and `robots.txt` pointing
    /// at it; only with `base_url` (a sitemap holds absolute addresses).
    func sitemapFiles() -> [RenderedPage] {
        let entries = sitemapEntries()
        func urlset(_ slice: ArraySlice<(page: String, image: String?)>) -> String {
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n"
            for entry in slice {
                xml += "<url><loc>" + HTML.escapeXML(absoluteURL(entry.page) ?? "") + "</loc>"
                if let image = entry.image.flatMap(absoluteURL) { xml += "<image:image><image:loc>" + HTML.escapeXML(image) + "</image:loc></image:image>" }
                xml += "</url>\n"
            }
            return xml + "</urlset>\n"
        }
        var files: [RenderedPage] = []
        if entries.count <= Self.sitemapLimit {
            files.append(RenderedPage(path: "sitemap.xml", html: urlset(entries[...])))
        } else {
            var index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            for (number, start) in stride(from: 0, to: entries.count, by: Self.sitemapLimit).enumerated() {
                let path = "sitemap-\(number + 1).xml"
                files.append(RenderedPage(path: path, html: urlset(entries[start..<min(entries.count, start + Self.sitemapLimit)])))
                index += "<sitemap><loc>" + HTML.escapeXML(absoluteURL(path) ?? "") + "</loc></sitemap>\n"
            }
            files.append(RenderedPage(path: "sitemap.xml", html: index + "</sitemapindex>\n"))
        }
        files.append(RenderedPage(path: Self.robotsFile, html: "User-agent: *\nAllow: /\n\nSitemap: " + (absoluteURL("sitemap.xml") ?? "") + "\n"))
        return files
    }

    /// Written only when OUT has no robots.txt of the user's own.
    public static let robotsFile = "robots.txt"

    // MARK: Search

    /// Where the search page lives.
    static let searchPage = "search/index.html"

    func searchPage() -> SearchPageModel {
        SearchPageModel(chrome: chrome(Self.searchPage, title: strings.text("search.title"), section: "search"),
                        searchScript: URLPath.relative(from: Self.searchPage, to: "static/search.js"),
                        indexScript: URLPath.relative(from: Self.searchPage, to: "search/index.js"))
    }

    /// The index of every item in the timeline (listed albums, each once):
    /// what a result shows, and the words that find it.
    func searchIndex() -> SearchIndex {
        let items = map.timelineItems
        return SearchIndex(items: items, document: { item in
            let key = item.source.relativePath
            let thumbs = item.renditions(.thumbnail), previews = item.renditions(.preview)
            let first = thumbs.first, largest = previews.last
            return [map.photoPages[key] ?? "", srcset(thumbs, from: "index.html"),
                    first?.size.width ?? 1, first?.size.height ?? 1, srcset(previews, from: "index.html"),
                    largest?.size.width ?? 1, largest?.size.height ?? 1, alt(item), Self.captionLine(item.metadata.words) ?? "",
                    item.renditions(.video).first?.path ?? "", item.kind == .motionStill ? 1 : 0]
        }, words: { item in
            let m = item.metadata
            var words = [m.words.title, m.words.caption, m.camera.cameraName].compactMap { $0 } + m.words.keywords
            if options.publishPeople { words += m.words.people }
            if options.momentPlaces, let place = m.place { words.append(place) }
            var album: AlbumPath? = item.source.albumPath
            while let path = album, !path.isRoot {
                words.append(gallery.albums[path]?.title ?? path.name)
                album = path.parent
            }
            let name = item.source.fileName
            words.append(name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name)
            if m.captureDate.source != .fileTime {
                let day = m.captureDate.localDay
                words.append(strings.month(day))
            }
            // What it is, in the site's language ("vidéo", "Live Photo"); a plain photo needs no word.
            if item.kind != .still { words.append(strings.text(PhotoFacts.kindKey(item))) }
            return words
        })
    }

    func renderMomentsPage(_ number: Int) throws(ThemeError) -> String {
        try theme.render("moments", momentsPage(number))
    }
}

