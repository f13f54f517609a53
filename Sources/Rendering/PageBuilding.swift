import Foundation
import GalleryCore
import Planning

/// What every page builder reads: the theme, the albums, the plan's site
/// map, the settings and the albums' downloads.
public struct PageInputs: Sendable {
    public let theme: Theme
    public let gallery: Gallery
    public let options: Settings
    public let map: SiteMap
    public let downloads: [AlbumPath: AlbumDownload]
    /// Each album's count line and date range (the plan's).
    public let albumSummaries: [AlbumPath: ItemSummary]
}

/// A builder of one kind of page (`AlbumPageBuilder`, `ItemPageBuilder`,
/// `MomentsPageBuilder`, `TagPageBuilder`) or of files made from the whole
/// site (`SitemapWriter`, `SearchIndexWriter`, `FeedWriter`). Each reads
/// `PageInputs`; the pieces every page shares (its chrome, link preview,
/// thumbnails, pager, counts) are written once, here.
protocol PageBuilding {
    var inputs: PageInputs { get }
}

extension PageBuilding {
    var theme: Theme { inputs.theme }
    var gallery: Gallery { inputs.gallery }
    var options: Settings { inputs.options }
    var map: SiteMap { inputs.map }
    var downloads: [AlbumPath: AlbumDownload] { inputs.downloads }
    var strings: SiteStrings { inputs.theme.strings }

    /// Where the search page lives.
    static var searchPage: String { "search/index.html" }
    /// Where the feed lives.
    static var feedFile: String { SiteRenderer.feedFile }

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
            placeholderScript: URLPath.relative(from: pagePath, to: "static/placeholders.js"),
            home: URLPath.relative(from: pagePath, to: "index.html"),
            momentsURL: URLPath.relative(from: pagePath, to: "moments/index.html"),
            tagsURL: map.tagIndexPage.map { URLPath.relative(from: pagePath, to: $0) },
            favouritesURL: map.favourites.map { URLPath.relative(from: pagePath, to: $0.pages[0]) },
            placesURL: map.placeIndexPage.map { URLPath.relative(from: pagePath, to: $0) },
            inPlaces: section == "places",
            peopleURL: map.peopleIndexPage.map { URLPath.relative(from: pagePath, to: $0) },
            inPeople: section == "people",
            inFavourites: section == "favourites",
            searchURL: URLPath.relative(from: pagePath, to: Self.searchPage),
            inSearch: section == "search",
            inAlbums: section == "albums",
            inMoments: section == "moments",
            inTags: section == "tags",
            spacing: options.spacing,
            rowHeight: options.rowHeight,
            mobileRowHeight: mobileRowHeight,
            slideshowSeconds: options.slideshowSeconds,
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
    func placeLabel(_ places: [String]) -> String? { listLabel(places, key: "places") }

    /// "Marie", "Marie and Pierre", "Marie, Pierre and Irène", "Marie, Pierre and 3 others"; nil for nobody.
    func peopleLabel(_ names: [String]) -> String? { listLabel(names, key: "people") }

    /// Names as a phrase, from the locale's `KEY.two`, `KEY.three` and `KEY.more` strings.
    private func listLabel(_ names: [String], key: String) -> String? {
        switch names.count {
        case 0: return nil
        case 1: return names[0]
        case 2: return strings.text(key + ".two", ["first": names[0], "second": names[1]])
        case 3: return strings.text(key + ".three", ["first": names[0], "second": names[1], "third": names[2]])
        default: return strings.count(key + ".more", names.count - 2, ["first": names[0], "second": names[1]])
        }
    }

    /// A page of a collection of items (a tag's, a place's, a person's):
    /// a grid paged like an album, under the site's title and `parent` (the
    /// collection's list: its title and page), which Favourites has none of.
    func collectionPage(title: String, section: String, items: [MediaItem], pages: [String], ranges: [Range<Int>], number: Int,
                        parent: (title: String, page: String)?) -> AlbumPageModel {
        let pagePath = pages[number]
        var chrome = chrome(pagePath, title: title, section: section)
        chrome.share = shareCard(pagePath, headline: title, summary: count(items) + (dateRange(items).map { " · " + $0 } ?? ""),
                                 item: items.first)
        let pager = pager(pages, current: number, from: pagePath)
        chrome.relLinks = relLinks(pager)
        var crumbs = [TitledLink(title: gallery.title, url: URLPath.relative(from: pagePath, to: "index.html"))]
        if let parent { crumbs.append(TitledLink(title: parent.title, url: URLPath.relative(from: pagePath, to: parent.page))) }
        let range = ranges[number]
        var model = AlbumPageModel(chrome: chrome, photoCountLabel: count(items), dateRange: dateRange(items),
                                   breadcrumbs: crumbs, hasBreadcrumbs: true,
                                   photos: range.compactMap { thumbnail(items[$0], from: pagePath, position: $0 - range.lowerBound) },
                                   hasPhotos: !range.isEmpty, pager: pager)
        model.animationToggle = Thumbnail.needToggle(model.photos)
        return model
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
        let people = map.people(in: item)
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
                alt: alt(item, people: people),
                avifSrcset: avifSrcset(item.avifRenditions(.thumbnail), from: link)),
            grow: String(format: "%.4f", aspect),
            lazy: position >= 12,
            animated: item.kind == .animation,
            factsJSON: PhotoFacts.json(item, strings: strings, keywords: map.keywords(of: item), people: people.map(\.name),
                                       place: options.momentPlaces)
        )
        thumbnail.facesJSON = Self.facesJSON(people)
        if case .cover(let count) = item.stack {
            thumbnail.stackCount = strings.grouped(count)
            thumbnail.stackLabel = strings.count("stack.tile", count)
            thumbnail.stackMembers = gallery.stackMembers[key].map { members in
                members.compactMap { member in self.thumbnail(member, from: pagePath, position: position).map(StackMember.init) }
            }
        }
        thumbnail.caption = Self.captionLine(item.metadata.words)
        let place = map.photoPlaces[key]
        thumbnail.href = place.map { link.url(to: $0.page) }
        if albumAnchor {
            thumbnail.id = place?.anchor
        } else {
            var hasher = StableHash()
            hasher.update(key)
            thumbnail.id = "i-" + hasher.digest().hex(digits: 12)
        }
        let previews = item.renditions(.preview)
        if let largest = previews.last {
            thumbnail.previewSrcset = srcset(previews, from: link)
            thumbnail.previewAvifSrcset = avifSrcset(item.avifRenditions(.preview), from: link)
            thumbnail.previewWidth = largest.size.width
            thumbnail.previewHeight = largest.size.height
        }
        thumbnail.original = item.renditions(.original).first.map { link.url(to: $0.path) }
        let posters = item.renditions(.poster)
        if let small = posters.first, let large = posters.last {
            thumbnail.poster = link.url(to: small.path)
            thumbnail.posterLarge = link.url(to: large.path)
        }
        thumbnail.picture = thumbnail.poster != nil || thumbnail.image.avifSrcset != nil
        thumbnail.placeholder = Self.placeholder(item)
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
    /// `known`: untitled alt texts made already (the search index's).
    /// `people`: `map.people(in: item)`, when the caller has it already.
    func alt(_ item: MediaItem, known: [AltKey: String] = [:], people: [PersonInPhoto]? = nil) -> String {
        let words = item.metadata.words
        if let title = words.title { return title }
        // Who is in it says more than a caption about the scene, to someone who cannot see it.
        if let names = peopleLabel((people ?? map.people(in: item)).map(\.name)) { return names }
        if let text = words.caption { return text }
        let key = AltKey(item)
        return known[key] ?? untitledAlt(key)
    }

    /// The alt text of an item without words: its kind and day ("Photo, May 3, 2025").
    func untitledAlt(_ key: AltKey) -> String {
        let kind = strings.text(key.kind)
        guard let day = key.day else { return kind }
        return strings.text("alt.dated", ["kind": kind, "date": strings.short(day)])
    }

    /// The faces the viewer can outline: `[[name, left, top, width, height], …]`
    /// in fractions of the upright picture; nil when it shows no one's face.
    static func facesJSON(_ people: [PersonInPhoto]) -> String? {
        let faces = people.compactMap { person in person.face.map { (person.name, $0) } }
        guard !faces.isEmpty else { return nil }
        var out = "["
        for (i, (name, box)) in faces.enumerated() {
            out += i == 0 ? "[" : ",["
            PhotoFacts.appendJSONString(name, to: &out)
            for value in [box.x, box.y, box.width, box.height] { out += "," + String(format: "%.4f", value) }
            out += "]"
        }
        return out + "]"
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

    /// An item's placeholder as `data-ph` carries it, nil when it has none.
    static func placeholder(_ item: MediaItem) -> String? {
        guard let bytes = item.looks?.placeholder, !bytes.isEmpty else { return nil }
        return Data(bytes).base64EncodedString()
    }

    /// The `srcset` of AVIF renditions, nil when there are none.
    func avifSrcset(_ renditions: [Rendition], from link: URLPath.Relativizer) -> String? {
        renditions.isEmpty ? nil : srcset(renditions, from: link)
    }

    func srcset(_ renditions: [Rendition], from pagePath: String) -> String {
        srcset(renditions, from: URLPath.Relativizer(from: pagePath))
    }

    func srcset(_ renditions: [Rendition], from link: URLPath.Relativizer) -> String {
        // A handful of renditions (shared files listed once): no set, no arrays.
        var text = ""
        for (index, rendition) in renditions.enumerated()
        where !renditions[..<index].contains(where: { $0.path == rendition.path }) {
            if !text.isEmpty { text += ", " }
            text += link.url(to: rendition.path)
            text += " \(rendition.size.width)w"
        }
        return text
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

    /// "May 3 – 5, 2025": the first and last local day (nil without items).
    func dateRange(_ summary: ItemSummary) -> String? {
        guard let first = summary.first, let last = summary.last else { return nil }
        return strings.shortRange(first, last)
    }

    func dateRange(_ items: [MediaItem]) -> String? { dateRange(ItemSummary(items)) }

    /// "12 photos", "1 video", "12 photos, 3 videos" (in the site's language).
    /// The label of a summary; when some of its items are stacked, with how
    /// many tiles show them ("212 photos, 160 shown").
    func count(_ summary: ItemSummary) -> String {
        let label = count(items: summary.items, videos: summary.videos)
        guard summary.stacked > 0 else { return label }
        return strings.text("count.stacked", ["items": label, "shown": strings.grouped(summary.items - summary.stacked)])
    }

    func count(_ items: [MediaItem]) -> String { count(ItemSummary(items)) }


    /// The label of `items` items of which `videos` are videos.
    func count(items: Int, videos: Int) -> String {
        let photoCount = items - videos
        let photos = strings.count("count.photos", photoCount)
        if videos == 0 { return photos }
        let videoText = strings.count("count.videos", videos)
        return photoCount == 0 ? videoText : strings.text("count.both", ["photos": photos, "videos": videoText])
    }
}

/// What an untitled item's alt text is made of: its kind and the day it was
/// taken (nil when only the file's time is known). Many items share one, so
/// the search index makes each text once.
struct AltKey: Hashable {
    let kind: String
    let day: LocalDay?

    init(_ item: MediaItem) {
        kind = PhotoFacts.kindKey(item)
        let date = item.metadata.captureDate
        day = date.source == .fileTime ? nil : date.localDay
    }
}
