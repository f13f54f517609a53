import Foundation
import GalleryCore
import Planning

/// "On this day": `moments/days.js`, the photos of every calendar day (month
/// and day) of the timeline, a few per year, for the home page's script to
/// pick today's from in the browser, so a static site stays current without a
/// rebuild. A script that hands its data to `gallerygenDays()`, so it loads
/// from `file://` too. Only what the timeline lists (no hidden or private
/// album's item) and only photos whose date the camera or the photographer
/// gave (a file's own time says when it was copied, not taken).
struct OnThisDayWriter: PageBuilding {
    let inputs: PageInputs

    /// Where the index lives.
    static let file = "moments/days.js"
    /// At most this many photos of one day of one year: a day of 300 holiday
    /// photos shows a handful, and the file stays small at a million items.
    static let perYear = 4
    /// At most this many years of one calendar day.
    static let years = 12

    func daysFile() -> RenderedPage {
        // Month-day → year → items, in timeline order (the timeline is sorted by time).
        var days: [Int: [Int: [MediaItem]]] = [:]
        for item in map.timelineItems {
            let date = item.metadata.captureDate
            guard date.source != .fileTime, map.photoPages[item.source.relativePath] != nil,
                  item.renditions(.thumbnail).first != nil else { continue }
            let day = date.wallClock
            let key = day.month * 100 + day.day
            if days[key]?[day.year]?.count ?? 0 < Self.perYear { days[key, default: [:]][day.year, default: []].append(item) }
        }
        let link = URLPath.Relativizer(from: "index.html")
        var out = "/* On this day: photos of each calendar day in every year, a few a day, read by the home page. Made by gallerygen. */\n"
        out += "gallerygenDays({"
        for (n, key) in days.keys.sorted().enumerated() {
            out += n == 0 ? "\n" : ",\n"
            out += String(format: "\"%02d-%02d\":[", key / 100, key % 100)
            let years = (days[key] ?? [:]).keys.sorted(by: >).prefix(Self.years)
            var first = true
            for year in years {
                for item in days[key]?[year] ?? [] {
                    guard let thumbnail = item.renditions(.thumbnail).first, let page = map.photoPages[item.source.relativePath] else { continue }
                    out += first ? "" : ","
                    first = false
                    // [year, page, src, srcset, width, height, alt, place]
                    out += "[\(year),"
                    PhotoFacts.appendJSONString(link.url(to: page), to: &out)
                    out += ","
                    PhotoFacts.appendJSONString(link.url(to: thumbnail.path), to: &out)
                    out += ","
                    PhotoFacts.appendJSONString(srcset(item.renditions(.thumbnail), from: link), to: &out)
                    out += ",\(thumbnail.size.width),\(thumbnail.size.height),"
                    PhotoFacts.appendJSONString(alt(item), to: &out)
                    out += ","
                    PhotoFacts.appendJSONString(options.momentPlaces ? (item.metadata.place?.name ?? "") : "", to: &out)
                    out += "]"
                }
            }
            out += "]"
        }
        out += "\n});\n"
        return RenderedPage(path: Self.file, html: out)
    }
}
