import Foundation
import GalleryCore
import Planning

/// `sitemap.xml` (split past 50,000 addresses) and `robots.txt`, with `base_url`.
struct SitemapWriter: PageBuilding {
    let inputs: PageInputs

    /// Every published page a search engine should know (listed albums and
    /// their items, the timeline, years, tags, Favourites, places and the map, people; not hidden albums,
    /// not the search page), each with its main picture.
    func sitemapEntries() -> [(page: String, image: String?)] {
        var entries: [(String, String?)] = []
        func largestPreview(_ item: MediaItem?) -> String? { item?.renditions(.preview).last?.path }
        for path in gallery.albums.keys.sorted() where !gallery.isHidden(path) {
            guard let album = gallery.albums[path], let pages = map.albumPages[path] else { continue }
            for page in pages { entries.append((page, largestPreview(gallery.cover(of: path)))) }
            for item in album.photos where album.isHome(of: item) {
                if let page = map.photoPlaces[item.source.relativePath]?.page { entries.append((page, largestPreview(item))) }
            }
        }
        for page in map.momentPages { entries.append((page, nil)) }
        entries.append((SiteMap.yearsPage, nil))
        if let index = map.tagIndexPage { entries.append((index, nil)) }
        for tag in map.tags { for page in tag.pages { entries.append((page, largestPreview(tag.items.first))) } }
        if let favourites = map.favourites { for page in favourites.pages { entries.append((page, largestPreview(favourites.items.first))) } }
        if let index = map.placeIndexPage { entries.append((index, nil)) }
        for place in map.places { for page in place.pages { entries.append((page, largestPreview(place.items.first))) } }
        if let mapPage = map.mapPage { entries.append((mapPage, nil)) }
        if let index = map.peopleIndexPage { entries.append((index, nil)) }
        for person in map.people { for page in person.pages { entries.append((page, person.avatar?.paths.last ?? largestPreview(person.items.first))) } }
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
        files.append(RenderedPage(path: SiteRenderer.robotsFile, html: "User-agent: *\nAllow: /\n\nSitemap: " + (absoluteURL("sitemap.xml") ?? "") + "\n"))
        return files
    }
}
