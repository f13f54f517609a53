import Foundation
import GalleryCore
import Planning

/// The tags index, each tag's pages and the Favourites pages.
struct TagPageBuilder: PageBuilding {
    let inputs: PageInputs

    func tagIndexPage(_ pagePath: String) -> TagIndexModel {
        var chrome = chrome(pagePath, title: strings.text("tags.title"), section: "tags")
        chrome.relLinks = []
        let entries = map.tags.map { tag in
            TagIndexModel.Entry(name: tag.name, url: URLPath.relative(from: pagePath, to: tag.pages[0]), countLabel: count(tag.items),
                                cover: tag.items.first.flatMap { thumbnail($0, from: pagePath, position: 0) })
        }
        let countLabel = strings.count("count.tags", map.tags.count)
        // Its link preview: the first tag's cover (the tag cards are in its fingerprint).
        chrome.share = shareCard(pagePath, headline: strings.text("tags.title"), summary: countLabel, item: map.tags.first?.items.first)
        return TagIndexModel(chrome: chrome, countLabel: countLabel, tags: entries)
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
}
