import Foundation
import GalleryCore
import Planning

/// The site's Atom feed (RFC 4287), `feed.xml`: one entry per album with
/// items of its own, newest first (by its newest item's capture time), so a
/// follower's reader shows an album when it appears or grows newer photos.
///
/// With `base_url` every address is absolute; without it they are relative
/// to the feed, which sits at the site's root (RFC 4287 §4.1: references
/// resolve against the feed's own address), and nothing absolute is made up.
/// Ids are `urn:uuid:`s derived from the album's path, so they never change
/// when the site moves or `base_url` is set later.
struct FeedWriter: PageBuilding {
    let inputs: PageInputs

    /// Where the feed lives.

    /// How many albums the feed lists: a reader only shows the newest.
    static let feedEntryLimit = 30

    /// One album in the feed.
    struct FeedEntry {
        var album: Album
        var page: String
        var newest: CaptureDate
        var oldest: CaptureDate
    }

    /// The albums of the feed, newest first: listed albums with items of their own.
    func feedEntries() -> [FeedEntry] {
        var entries: [FeedEntry] = []
        for (path, album) in gallery.albums where !gallery.isHidden(path) && !album.timelineOnly && !album.photos.isEmpty {
            guard let page = map.albumPages[path]?.first else { continue }
            let dates = album.photos.map(\.metadata.captureDate)
            guard let newest = dates.max(by: { $0.instant < $1.instant }),
                  let oldest = dates.min(by: { $0.instant < $1.instant }) else { continue }
            entries.append(FeedEntry(album: album, page: page, newest: newest, oldest: oldest))
        }
        entries.sort { ($0.newest.instant, $1.album.path.description) > ($1.newest.instant, $0.album.path.description) }
        return Array(entries.prefix(Self.feedEntryLimit))
    }

    /// `feed.xml`.
    func feedFile() -> RenderedPage {
        let entries = feedEntries()
        func address(_ path: String) -> String { absoluteURL(path) ?? URLPath.relative(from: Self.feedFile, to: path) }
        func attribute(_ text: String) -> String { HTML.escapeXML(text) }
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        xml += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:media=\"http://search.yahoo.com/mrss/\" xml:lang=\"\(attribute(strings.languageTag))\">\n"
        xml += "<id>\(Self.urnUUID("gallerygen site \(gallery.title)"))</id>\n"
        xml += "<title>\(HTML.escapeXML(gallery.title))</title>\n"
        xml += "<updated>\(Self.atomDate(entries.first?.newest.instant ?? Date(timeIntervalSince1970: 0)))</updated>\n"
        xml += "<author><name>\(HTML.escapeXML(gallery.title))</name></author>\n"
        xml += "<generator uri=\"https://github.com/gallerygen/gallerygen\">gallerygen</generator>\n"
        xml += "<link rel=\"self\" type=\"application/atom+xml\" href=\"\(attribute(address(Self.feedFile)))\"/>\n"
        xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(attribute(address("index.html")))\"/>\n"
        for entry in entries {
            let album = entry.album
            let title = album.path.isRoot ? gallery.title : album.title
            let items = album.photos
            let summary = ([count(items)] + (dateRange(items).map { [$0] } ?? [])).joined(separator: " · ")
            xml += "<entry>\n"
            xml += "<id>\(Self.urnUUID("gallerygen album \(album.path.description)"))</id>\n"
            xml += "<title>\(HTML.escapeXML(title))</title>\n"
            xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(attribute(address(entry.page)))\"/>\n"
            xml += "<published>\(Self.atomDate(entry.oldest.instant))</published>\n"
            xml += "<updated>\(Self.atomDate(entry.newest.instant))</updated>\n"
            xml += "<summary>\(HTML.escapeXML(summary))</summary>\n"
            // The newest items as a strip of previews, then the description:
            // what a reader shows in its article view (HTML, escaped once more
            // as the element's text).
            var html = ""
            let newest = items.filter(\.stack.isListed).sorted { $0.metadata.captureDate.instant > $1.metadata.captureDate.instant }.prefix(6)
            for item in newest {
                guard let picture = Self.feedPicture(item), let itemPage = map.photoPlaces[item.source.relativePath]?.page else { continue }
                html += "<a href=\"\(attribute(address(itemPage)))\"><img src=\"\(attribute(address(picture.path)))\" width=\"\(picture.size.width)\" height=\"\(picture.size.height)\" alt=\"\(attribute(alt(item)))\"></a> "
            }
            if let description = album.description {
                html += Markdown.render(description, allowHTML: options.allowHTML)
            }
            html += "<p>" + HTML.escapeXML(summary) + "</p>"
            xml += "<content type=\"html\">\(HTML.escapeXML(html))</content>\n"
            if let cover = gallery.cover(of: album.path), let picture = Self.feedPicture(cover) {
                xml += "<media:thumbnail url=\"\(attribute(address(picture.path)))\" width=\"\(picture.size.width)\" height=\"\(picture.size.height)\"/>\n"
            }
            xml += "</entry>\n"
        }
        return RenderedPage(path: Self.feedFile, html: xml + "</feed>\n")
    }

    /// The preview a reader shows: the one closest to 800 px wide (a
    /// reader's column), else the largest thumbnail.
    static func feedPicture(_ item: MediaItem) -> Rendition? {
        preview(of: item, nearestWidth: 800) ?? item.renditions(.thumbnail).last
    }

    /// RFC 3339 in UTC, as Atom's date constructs require: the instant read
    /// as a wall clock at offset zero, written as `<time datetime>` is.
    static func atomDate(_ date: Date) -> String {
        HumanDate.machine(CaptureDate(wallClockSeconds: Int64(date.timeIntervalSince1970.rounded(.down)), utcOffsetSeconds: 0, source: .original))
    }

    /// A stable `urn:uuid:` (RFC 9562 version 8 layout) for `name`.
    static func urnUUID(_ name: String) -> String {
        var hasher = StableHash()
        hasher.update(name)
        var hex = Array(hasher.finalize())
        hex[12] = "8"  // version 8: custom
        let variant = Int(String(hex[16]), radix: 16) ?? 0
        hex[16] = Character(String((variant & 0x3) | 0x8, radix: 16))
        let text = String(hex)
        func part(_ from: Int, _ count: Int) -> Substring {
            text.dropFirst(from).prefix(count)
        }
        return "urn:uuid:\(part(0, 8))-\(part(8, 4))-\(part(12, 4))-\(part(16, 4))-\(part(20, 12))"
    }
}
