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
        let name = section == "favourites" ? strings.text("favourites.title") : tag.name
        return collectionPage(title: name, section: section, items: tag.items, pages: tag.pages, ranges: tag.ranges, number: number,
                              parent: section == "tags" ? (strings.text("tags.title"), map.tagIndexPage ?? "index.html") : nil)
    }
}
