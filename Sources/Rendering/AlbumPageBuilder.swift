import Foundation
import GalleryCore
import Planning

/// An album's pages: its cover card line, breadcrumbs, sub-album cards and a
/// grid of its items, paged.
struct AlbumPageBuilder: PageBuilding {
    let inputs: PageInputs

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
            // A stack by its cover.
            photos: range.filter { album.photos[$0].stack.isListed }.enumerated().compactMap { position, index in
                thumbnail(album.photos[index], from: pagePath, position: position, albumAnchor: true)
            },
            hasPhotos: !range.isEmpty, pager: pager)
        model.animationToggle = Thumbnail.needToggle(model.photos)
        if let download = downloads[path] {
            model.download = AlbumPageModel.Download(url: URLPath.relative(from: pagePath, to: download.path),
                                                     fileName: Slug.downloadName(path.isRoot ? gallery.title : album.title) + ".zip",
                                                     size: strings.fileSize(download.bytes))
        }
        if number == 0 {
            model.descriptionHTML = album.description.map { Markdown.render($0, allowHTML: options.allowHTML) }
            let listed = Set(gallery.listedChildren(of: path)), locked = Set(gallery.lockedChildren(of: path))
            // The first screen's covers load at once; the rest as they come near (`Thumbnail.lazy`).
            var shown = 0
            let cards = (album.children).compactMap { child -> AlbumCard? in
                guard let page = map.albumPages[child]?.first, let childAlbum = gallery.albums[child] else { return nil }
                if locked.contains(child) {
                    // Nothing of a private album in plain: not its title, cover, count or dates.
                    return AlbumCard(title: strings.text("album.private"), url: URLPath.relative(from: pagePath, to: page),
                                     countLabel: strings.text("album.private_hint"), dateRange: "", cover: nil, locked: true)
                }
                guard listed.contains(child) else { return nil }
                let summary = inputs.albumSummaries[child] ?? ItemSummary()
                return AlbumCard(title: childAlbum.title, url: URLPath.relative(from: pagePath, to: page),
                                 countLabel: count(summary), dateRange: dateRange(summary) ?? "",
                                 cover: gallery.cover(of: child).flatMap { cover in
                                     defer { shown += 1 }
                                     return thumbnail(cover, from: pagePath, position: shown)
                                 })
            }
            model.albums = cards
            model.hasAlbums = !cards.isEmpty
        }
        return model
    }

    func render(_ album: Album, number: Int, summary: (count: String, dates: String?)) throws(ThemeError) -> String {
        try theme.render(album.path.isRoot ? "index" : "album", albumPage(album, number: number, summary: summary))
    }
}
