import Foundation
import GalleryCore

/// Renders the gallery's pages from the theme's templates. Every value reaches
/// the HTML through Mustache's escaping `{{ }}`; URLs are percent-encoded
/// relative paths, so the site works from any folder, sub-path or `file://`.
public struct SiteRenderer: Sendable {
    /// The templates.
    public let theme: Theme
    /// The content.
    public let gallery: Gallery
    /// Page locations.
    public let map: SiteMap

    /// Creates a renderer.
    public init(theme: Theme, gallery: Gallery) {
        self.theme = theme
        self.gallery = gallery
        self.map = SiteMap(gallery: gallery)
    }

    /// Every page of the site.
    public func pages() -> [RenderedPage] {
        gallery.albums.keys.sorted().compactMap { path in
            guard let page = map.albumPages[path] else { return nil }
            return RenderedPage(path: page, html: renderAlbum(path, pagePath: page))
        }
    }

    func renderAlbum(_ path: AlbumPath, pagePath: String) -> String {
        guard let album = gallery.albums[path] else { return "" }
        let url = { (target: String) in URLPath.relative(from: pagePath, to: target) }
        var crumbs: [[String: Any]] = []
        var ancestor = path.parent
        while let current = ancestor {
            crumbs.insert(["title": gallery.albums[current]?.title ?? current.name, "url": url(map.albumPages[current] ?? "index.html")], at: 0)
            ancestor = current.parent
        }
        let children: [[String: Any]] = album.children.compactMap { child in
            guard let page = map.albumPages[child], let childAlbum = gallery.albums[child] else { return nil }
            var card: [String: Any] = ["title": childAlbum.title, "url": url(page), "count": gallery.photoCount(under: child)]
            if let cover = gallery.cover(of: child) { card["cover"] = thumbnail(cover, from: pagePath) }
            return card
        }
        let photos: [[String: Any]] = album.photos.map { photo in
            var item = thumbnail(photo, from: pagePath)
            if let preview = photo.renditions(.preview).last { item["href"] = url(preview.path) }
            return item
        }
        let context: [String: Any] = [
            "site": ["title": gallery.title],
            "title": path.isRoot ? gallery.title : album.title,
            "isHome": path.isRoot,
            "breadcrumbs": crumbs,
            "hasBreadcrumbs": !crumbs.isEmpty,
            "albums": children,
            "hasAlbums": !children.isEmpty,
            "photos": photos,
            "hasPhotos": !photos.isEmpty,
            "photoCount": gallery.photoCount(under: path),
            "stylesheet": url("static/style.css"),
            "home": url("index.html"),
        ]
        return theme.render(path.isRoot ? "index" : "album", context)
    }

    /// The `<img>` facts of a photo's thumbnails: smallest as `src`, all in
    /// `srcset`, and `sizes` from the grid's row height so the browser picks the
    /// right candidate for the screen's pixel ratio.
    func thumbnail(_ photo: Photo, from pagePath: String) -> [String: Any] {
        let thumbs = photo.renditions(.thumbnail)
        guard let first = thumbs.first else { return [:] }
        let srcset = thumbs.map { "\(URLPath.relative(from: pagePath, to: $0.path)) \($0.size.width)w" }.joined(separator: ", ")
        let aspect = Double(first.size.width) / Double(max(1, first.size.height))
        let rowHeight = 210.0
        return [
            "src": URLPath.relative(from: pagePath, to: first.path),
            "srcset": srcset,
            "sizes": "\(Int((rowHeight * aspect).rounded()))px",
            "width": first.size.width,
            "height": first.size.height,
            "alt": photo.source.fileName,
            // The justified grid: items grow in proportion to their aspect ratio.
            "grow": String(format: "%.4f", aspect),
        ]
    }
}
