import Foundation
import GalleryCore

/// Renders the site's pages from the theme's templates. Every value reaches the
/// HTML through Mustache's escaping `{{ }}` (only the description, produced by
/// the escaping Markdown renderer, uses `{{{ }}}`); URLs are percent-encoded
/// relative paths, so the site works from any folder, sub-path or `file://`.
public struct SiteRenderer: Sendable {
    /// The templates.
    public let theme: Theme
    /// The content.
    public let gallery: Gallery
    /// Page options.
    public let options: SiteOptions
    /// Page locations.
    public let map: SiteMap

    /// Creates a renderer.
    public init(theme: Theme, gallery: Gallery, options: SiteOptions) {
        self.theme = theme
        self.gallery = gallery
        self.options = options
        self.map = SiteMap(gallery: gallery, options: options)
    }

    /// Every page of the site: album pages, photo pages, moments pages.
    public func pages() -> [RenderedPage] {
        var pages: [RenderedPage] = []
        forEachPage { pages.append($0) }
        return pages
    }

    /// Renders the pages one at a time and hands each to `body`, so a large
    /// site never holds all its HTML in memory at once.
    public func forEachPage(_ body: (RenderedPage) throws -> Void) rethrows {
        for path in gallery.albums.keys.sorted() {
            guard let album = gallery.albums[path], let paths = map.albumPages[path] else { continue }
            // The same for every page of the album: computed once.
            let everything = gallery.photos(under: path)
            let summary = (count: Self.photos(everything.count), dates: dateRange(everything))
            for number in paths.indices {
                try body(RenderedPage(path: paths[number], html: renderAlbumPage(album, number: number, summary: summary)))
            }
            for index in album.photos.indices {
                let key = album.photos[index].source.relativePath
                guard let page = map.photoPages[key] else { continue }
                try body(RenderedPage(path: page, html: renderPhotoPage(album, index: index, pagePath: page)))
            }
        }
        for number in map.momentPages.indices {
            try body(RenderedPage(path: map.momentPages[number], html: renderMomentsPage(number)))
        }
    }

    // MARK: Shared pieces

    func common(_ pagePath: String, title: String, section: String) -> [String: Any] {
        [
            "site": ["title": gallery.title],
            "title": title,
            "stylesheet": URLPath.relative(from: pagePath, to: "static/style.css"),
            "themeStylesheet": URLPath.relative(from: pagePath, to: "static/theme.css"),
            "script": URLPath.relative(from: pagePath, to: "static/viewer.js"),
            "home": URLPath.relative(from: pagePath, to: "index.html"),
            "momentsURL": URLPath.relative(from: pagePath, to: "moments/index.html"),
            "inAlbums": section == "albums",
            "inMoments": section == "moments",
            "spacing": options.spacing,
            "rowHeight": options.rowHeight,
            "mobileRowHeight": max(60, options.rowHeight * 4 / 7),
        ]
    }

    func breadcrumbs(to path: AlbumPath, from pagePath: String, includingSelf: Bool) -> [[String: Any]] {
        var crumbs: [[String: Any]] = []
        var current: AlbumPath? = includingSelf ? path : path.parent
        while let p = current {
            let first = map.albumPages[p]?.first ?? "index.html"
            crumbs.insert(["title": gallery.albums[p]?.title ?? p.name, "url": URLPath.relative(from: pagePath, to: first)], at: 0)
            current = p.parent
        }
        return crumbs
    }

    /// `<img>` facts of a thumbnail: the smallest as `src`, all in `srcset`, and
    /// `sizes` from the grid's row height so the browser picks the right
    /// candidate for the screen's pixel density.
    func thumbnail(_ photo: Photo, from pagePath: String, position: Int) -> [String: Any] {
        let thumbs = photo.renditions(.thumbnail)
        guard let first = thumbs.first else { return [:] }
        let aspect = Double(first.size.width) / Double(max(1, first.size.height))
        let mobile = max(60, options.rowHeight * 4 / 7)
        let key = photo.source.relativePath
        var item: [String: Any] = [
            "src": URLPath.relative(from: pagePath, to: first.path),
            "srcset": srcset(thumbs, from: pagePath),
            "sizes": "(max-width: 600px) \(Int((Double(mobile) * aspect).rounded()))px, \(Int((Double(options.rowHeight) * aspect).rounded()))px",
            "width": first.size.width,
            "height": first.size.height,
            "alt": photo.source.fileName,
            "grow": String(format: "%.4f", aspect),
            // The first rows load at once; the rest when scrolled near.
            "lazy": position >= 12,
            "animated": photo.metadata.isAnimated,
        ]
        if let page = map.photoPages[key] {
            item["href"] = URLPath.relative(from: pagePath, to: page)
            item["photoPage"] = item["href"]
        }
        if let anchor = map.photoAnchors[key] { item["id"] = anchor }
        let previews = photo.renditions(.preview)
        if let largest = previews.last {
            item["previewSrcset"] = srcset(previews, from: pagePath)
            item["previewWidth"] = largest.size.width
            item["previewHeight"] = largest.size.height
        }
        item["factsJSON"] = PhotoFacts.json(photo)
        if let original = photo.renditions(.original).first {
            item["original"] = URLPath.relative(from: pagePath, to: original.path)
            item["originalName"] = photo.source.fileName
        }
        let posters = photo.renditions(.poster)
        if let small = posters.first, let large = posters.last {
            item["poster"] = URLPath.relative(from: pagePath, to: small.path)
            item["posterLarge"] = URLPath.relative(from: pagePath, to: large.path)
        }
        return item
    }

    func srcset(_ renditions: [Rendition], from pagePath: String) -> String {
        var seen: Set<String> = []
        return renditions.filter { seen.insert($0.path).inserted }
            .map { "\(URLPath.relative(from: pagePath, to: $0.path)) \($0.size.width)w" }
            .joined(separator: ", ")
    }

    /// Preview `sizes`: the photo is shown as large as fits the window below the
    /// header, so its width is limited either by the window's width or by its height.
    func previewSizes(_ size: PixelSize) -> String {
        let w = size.width, h = max(1, size.height)
        return "(min-aspect-ratio: \(w)/\(h)) calc((100vh - 9rem) * \(w) / \(h)), 100vw"
    }

    func pager(_ paths: [String], current: Int, from pagePath: String) -> [String: Any]? {
        guard paths.count > 1 else { return nil }
        var items: [[String: Any]] = []
        var lastShown = -1
        for i in paths.indices {
            // First, last, and a window around the current page.
            guard i == 0 || i == paths.count - 1 || abs(i - current) <= 2 else { continue }
            if lastShown >= 0, i > lastShown + 1 { items.append(["gap": true]) }
            items.append(["number": i + 1, "url": URLPath.relative(from: pagePath, to: paths[i]), "current": i == current])
            lastShown = i
        }
        var pager: [String: Any] = ["items": items, "count": paths.count, "number": current + 1]
        if current > 0 { pager["prev"] = URLPath.relative(from: pagePath, to: paths[current - 1]) }
        if current + 1 < paths.count { pager["next"] = URLPath.relative(from: pagePath, to: paths[current + 1]) }
        return pager
    }

    func relLinks(_ pager: [String: Any]?) -> [[String: Any]] {
        var links: [[String: Any]] = []
        if let prev = pager?["prev"] { links.append(["rel": "prev", "url": prev]) }
        if let next = pager?["next"] { links.append(["rel": "next", "url": next]) }
        return links
    }

    func dateRange(_ photos: [Photo]) -> String? {
        let days = photos.map(\.metadata.captureDate.localDay)
        guard let first = days.min(), let last = days.max() else { return nil }
        return HumanDate.shortRange(first, last)
    }

    /// "1 photo", "12 photos".
    static func photos(_ count: Int) -> String { count == 1 ? "1 photo" : "\(count) photos" }

    // MARK: Pages

    func renderAlbumPage(_ album: Album, number: Int, summary: (count: String, dates: String?)) -> String {
        let path = album.path
        let pagePath = map.albumPages[path]![number]
        var context = common(pagePath, title: path.isRoot ? gallery.title : album.title, section: "albums")
        context["isHome"] = path.isRoot
        context["photoCountLabel"] = summary.count
        context["dateRange"] = summary.dates
        let crumbs = path.isRoot ? [] : breadcrumbs(to: path, from: pagePath, includingSelf: false)
        context["breadcrumbs"] = crumbs
        context["hasBreadcrumbs"] = !crumbs.isEmpty
        if number == 0, let description = album.description {
            context["descriptionHTML"] = Markdown.render(description, allowHTML: options.allowHTML)
        }
        if number == 0 {
            let cards = gallery.listedChildren(of: path).compactMap { child -> [String: Any]? in
                guard let page = map.albumPages[child]?.first, let childAlbum = gallery.albums[child] else { return nil }
                let photos = gallery.photos(under: child)
                var card: [String: Any] = ["title": childAlbum.title, "url": URLPath.relative(from: pagePath, to: page),
                                           "countLabel": Self.photos(photos.count), "dateRange": dateRange(photos) ?? ""]
                if let cover = gallery.cover(of: child) { card["cover"] = thumbnail(cover, from: pagePath, position: 0) }
                return card
            }
            context["albums"] = cards
            context["hasAlbums"] = !cards.isEmpty
        }
        let range = map.albumPhotoRanges[path]?[number] ?? 0..<0
        context["photos"] = range.map { thumbnail(album.photos[$0], from: pagePath, position: $0 - range.lowerBound) }
        context["hasPhotos"] = !range.isEmpty
        let pager = pager(map.albumPages[path]!, current: number, from: pagePath)
        context["pager"] = pager
        context["relLinks"] = relLinks(pager)
        return theme.render(path.isRoot ? "index" : "album", context)
    }

    func renderPhotoPage(_ album: Album, index: Int, pagePath: String) -> String {
        let photo = album.photos[index]
        let key = photo.source.relativePath
        var context = common(pagePath, title: photo.source.fileName, section: "albums")
        context["breadcrumbs"] = breadcrumbs(to: album.path, from: pagePath, includingSelf: true)
        context["hasBreadcrumbs"] = true
        let previews = photo.renditions(.preview)
        if let largest = previews.last, let smallest = previews.first {
            var image: [String: Any] = [
                "src": URLPath.relative(from: pagePath, to: previews[previews.count > 1 ? 1 : 0].path),
                "srcset": srcset(previews, from: pagePath),
                "sizes": previewSizes(largest.size),
                "width": smallest.size.width,
                "height": smallest.size.height,
                "alt": photo.source.fileName,
                "animated": photo.metadata.isAnimated,
            ]
            if let poster = photo.renditions(.poster).last { image["poster"] = URLPath.relative(from: pagePath, to: poster.path) }
            context["photo"] = image
        }
        context["facts"] = PhotoFacts.list(photo).map { ["label": $0.label, "value": $0.value] }
        if let original = photo.renditions(.original).first {
            context["original"] = ["url": URLPath.relative(from: pagePath, to: original.path), "name": photo.source.fileName]
        }
        context["datetime"] = HumanDate.machine(photo.metadata.captureDate)
        let pages = map.albumPages[album.path] ?? ["index.html"]
        let albumPage = pages[min(pages.count - 1, map.photoAlbumPage[key] ?? 0)]
        context["back"] = ["url": URLPath.relative(from: pagePath, to: albumPage) + "#" + (map.photoAnchors[key] ?? ""),
                           "title": album.path.isRoot ? gallery.title : album.title]
        var links: [[String: Any]] = []
        var preloads: [[String: Any]] = []
        func neighbour(_ i: Int) -> Photo? { album.photos.indices.contains(i) ? album.photos[i] : nil }
        if let prev = neighbour(index - 1), let page = map.photoPages[prev.source.relativePath] {
            context["prev"] = ["url": URLPath.relative(from: pagePath, to: page)]
            links.append(["rel": "prev", "url": URLPath.relative(from: pagePath, to: page)])
        }
        if let next = neighbour(index + 1), let page = map.photoPages[next.source.relativePath] {
            context["next"] = ["url": URLPath.relative(from: pagePath, to: page)]
            links.append(["rel": "next", "url": URLPath.relative(from: pagePath, to: page)])
        }
        // Next first (the likely step), then previous, then the one after next.
        for i in [index + 1, index - 1, index + 2] {
            guard let other = neighbour(i) else { continue }
            let renditions = other.renditions(.preview)
            guard let middle = renditions.dropFirst(renditions.count > 1 ? 1 : 0).first, let largest = renditions.last else { continue }
            preloads.append(["href": URLPath.relative(from: pagePath, to: middle.path),
                             "srcset": srcset(renditions, from: pagePath), "sizes": previewSizes(largest.size)])
        }
        context["relLinks"] = links
        context["preloads"] = preloads
        return theme.render("photo", context)
    }

    func renderMomentsPage(_ number: Int) -> String {
        let pagePath = map.momentPages[number]
        var context = common(pagePath, title: "Moments", section: "moments")
        var position = 0
        context["sections"] = map.momentSlices[number].map { slice -> [String: Any] in
            let section = map.moments[slice.section]
            let heading: String
            switch options.momentGrouping {
            case .day: heading = HumanDate.day(section.firstDay)
            case .month: heading = HumanDate.month(section.firstDay)
            case .gap: heading = HumanDate.range(section.firstDay, section.lastDay)
            }
            let photos = slice.range.map { i -> [String: Any] in
                defer { position += 1 }
                return thumbnail(section.photos[i], from: pagePath, position: position)
            }
            let albums = section.albums.map { album -> [String: Any] in
                ["title": album.isRoot ? gallery.title : (gallery.albums[album]?.title ?? album.name),
                 "url": URLPath.relative(from: pagePath, to: map.albumPages[album]?.first ?? "index.html")]
            }
            return ["datetime": section.datetime, "heading": heading, "countLabel": Self.photos(section.photos.count),
                    "albums": albums, "continued": slice.continuesFromPrevious, "continues": slice.continuesOnNext,
                    "photos": photos]
        }
        context["photoCountLabel"] = Self.photos(map.moments.reduce(0) { $0 + $1.photos.count })
        let pager = pager(map.momentPages, current: number, from: pagePath)
        context["pager"] = pager
        context["relLinks"] = relLinks(pager)
        return theme.render("moments", context)
    }
}
