import GalleryCore

// The timeline as files the browser loads by month: "On this day" and the
// search index's item files.

/// "On this day" for one calendar month (`moments/days-MM.js`): each of its
/// days with photos, and for each the photos of that day in earlier years —
/// a few per year, the latest years — for the home page's script to pick
/// today's from in the browser (a static site stays current without a
/// rebuild; a phone loads one month's file). Only what the timeline lists
/// (no hidden or private album's item), with a page and a thumbnail, and
/// only photos whose date the camera or the photographer gave (a file's own
/// time says when it was copied, not taken).
public struct OnThisDayMonth: Sendable {
    /// One calendar day: `month × 100 + day`, and its years (newest first), each with its items in timeline order.
    public struct Day: Sendable {
        public let key: Int
        public let years: [(year: Int, items: [MediaItem])]
    }

    /// 1–12.
    public let month: Int
    /// Its days with photos, in order.
    public let days: [Day]

    /// At most this many photos of one day of one year: a day of 300 holiday
    /// photos shows a handful, and the files stay small at a million items.
    public static let perYear = 4
    /// At most this many years of one calendar day.
    public static let years = 12

    /// The file of `month`.
    public static func file(month: Int) -> String { "moments/days-\(month < 10 ? "0" : "")\(month).js" }

    static func months(_ timeline: [MediaItem], places: StringTable<PhotoPlace>) -> [OnThisDayMonth] {
        // Month-day → year → items, in timeline order.
        var days: [Int: [Int: [MediaItem]]] = [:]
        for item in timeline {
            let date = item.metadata.captureDate
            guard date.source != .fileTime, item.renditions.contains(where: { $0.spec.role == .thumbnail }) else { continue }
            let day = date.wallClock
            let key = day.month * 100 + day.day
            // A day's year full already: its path is not looked up (most of 100,000 items).
            guard days[key]?[day.year]?.count ?? 0 < perYear, places[item.source.relativePath] != nil else { continue }
            days[key, default: [:]][day.year, default: []].append(item)
        }
        return (1...12).map { month in
            let keys = days.keys.filter { $0 / 100 == month }.sorted()
            return OnThisDayMonth(month: month, days: keys.map { key in
                let byYear = days[key] ?? [:]
                return Day(key: key, years: byYear.keys.sorted(by: >).prefix(years).map { (year: $0, items: byYear[$0] ?? []) })
            })
        }
    }
}

/// One calendar month of the timeline's items (local days), as the search
/// index numbers them: `slot` orders months the way the timeline runs and
/// depends on the month alone, so adding a photo renumbers only its month.
public struct SearchMonth: Sendable {
    /// The month's place in the timeline's direction: newest first,
    /// `(9999 − year) × 12 + (12 − month)`; oldest first, `year × 12 + month − 1`.
    public let slot: Int
    /// Its items, in timeline order.
    public let items: [MediaItem]

    /// An item's number in the index: its month's slot × `capacity` + its
    /// place in the month. A month of more than 16 million items would run
    /// into the next; no library comes near.
    public static let capacity = 1 << 24
    /// Items to an item file: the first screen of results of a common word
    /// (a tenth of the library) then needs a few small files.
    public static let itemsPerFile = 50

    /// The item file holding items `part × itemsPerFile ..< (part + 1) × itemsPerFile` of the month at `slot`.
    public static func file(slot: Int, part: Int) -> String { "search/d-\(slot)-\(part).js" }

    static func months(_ timeline: [MediaItem], order: SortDirection) -> [SearchMonth] {
        var bySlot: [Int: [MediaItem]] = [:]
        for item in timeline {
            let day = item.metadata.captureDate.localDay
            let year = min(9999, max(0, day.year)), month = min(12, max(1, day.month))
            let slot = order == .descending ? (9999 - year) * 12 + (12 - month) : year * 12 + month - 1
            bySlot[slot, default: []].append(item)
        }
        return bySlot.keys.sorted().map { SearchMonth(slot: $0, items: bySlot[$0]!) }
    }
}
