import Foundation
import GalleryCore
import Planning

/// "On this day": `moments/days-MM.js`, the photos of every day of one
/// calendar month (`OnThisDayMonth`: which photos, and why), a script that
/// hands its data to `gallerygenDays()`, so it loads from `file://` too.
struct OnThisDayWriter: PageBuilding {
    let inputs: PageInputs

    /// The file of `map.onThisDay[number]`.
    func daysFile(_ number: Int) -> RenderedPage {
        let month = map.onThisDay[number]
        let link = URLPath.Relativizer(from: "index.html")
        var out = "/* On this day: photos of each day of one month in every year, a few a day, read by the home page. Made by gallerygen. */\n"
        out += "gallerygenDays({"
        for (n, day) in month.days.enumerated() {
            out += n == 0 ? "\n" : ",\n"
            out += "\"\(day.key / 100 < 10 ? "0" : "")\(day.key / 100)-\(day.key % 100 < 10 ? "0" : "")\(day.key % 100)\":["
            var first = true
            for (year, items) in day.years {
                for item in items {
                    guard let thumbnail = item.renditions(.thumbnail).first, let page = map.photoPlaces[item.source.relativePath]?.page else { continue }
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
        return RenderedPage(path: OnThisDayMonth.file(month: month.month), html: out)
    }
}
