import Foundation
import GalleryCore
import Planning

/// The moments timeline's pages, the year → month index they carry and
/// the years page.
struct MomentsPageBuilder: PageBuilding {
    let inputs: PageInputs

    /// Days with at most this many items are "quiet": two or more in a row
    /// share one justified grid instead of a block each.
    static let quietDayItems = 6

    func momentsPage(_ number: Int) -> MomentsPageModel {
        let pagePath = map.momentPages[number]
        var chrome = chrome(pagePath, title: strings.text("moments.title"), section: "moments")
        let places = options.momentPlaces
        var position = 0
        var blocks: [MomentBlock] = []
        var monthsHere: Set<String> = []
        let slices = map.momentSlices[number]
        func quiet(_ i: Int) -> Bool { slices.indices.contains(i) && map.moments[slices[i].section].photos.count <= Self.quietDayItems }
        for (i, slice) in slices.enumerated() {
            let section = map.moments[slice.section]
            let place = places ? placeLabel(section.places.map(\.name)) : nil
            let placeLinks = places ? section.places.compactMap { place in
                map.placePageByKey[place.key].map { TitledLink(title: place.name, url: URLPath.relative(from: pagePath, to: $0)) }
            } : []
            let month = section.photos[slice.range.lowerBound].metadata.captureDate.localDay.monthDescription
            for j in slice.range { monthsHere.insert(section.photos[j].metadata.captureDate.localDay.monthDescription) }
            let anchor = slice.continuesFromPrevious ? nil : map.momentAnchors[slice.section]
            // The first section of a month carries the month's id too: the index's links land on it without scripts.
            let monthAnchor = slice.continuesFromPrevious ? nil : map.monthAnchorBySection[slice.section]
            var photos = slice.range.compactMap { j -> Thumbnail? in
                defer { position += 1 }
                return thumbnail(section.photos[j], from: pagePath, position: position)
            }
            let dateText: String
            switch options.momentGrouping {
            case .day: dateText = strings.day(section.firstDay)
            case .month: dateText = strings.month(section.firstDay)
            case .gap: dateText = strings.range(section.firstDay, section.lastDay)
            }
            let heading = place.map { $0 + " · " + dateText } ?? strings.heading(dateText)
            let countLabel = count(section.photos)
            if quiet(i), quiet(i - 1) || quiet(i + 1), !photos.isEmpty {
                // A quiet day among quiet days: its photos join the run's grid,
                // the first one carrying the day's name.
                let shortDate: String
                switch options.momentGrouping {
                case .day: shortDate = strings.short(section.firstDay)
                case .month: shortDate = strings.month(section.firstDay)
                case .gap: shortDate = strings.shortRange(section.firstDay, section.lastDay)
                }
                let span = slice.range.reduce(0.0) { total, j in total + (Double(thumbnailAspect(section.photos[j])) ) }
                let continued = slice.continuesFromPrevious ? " " + strings.text("moments.continued") : ""
                photos[0].dayLabel = DayLabel(anchor: anchor, monthAnchor: monthAnchor, datetime: section.datetime,
                                              text: (place.map { $0 + " · " + shortDate } ?? strings.heading(shortDate)) + continued,
                                              title: heading + ", " + countLabel, month: month, span: String(format: "%.3f", span))
                if let place, let main = placeLinks.first {
                    photos[0].dayLabel?.placeText = place
                    photos[0].dayLabel?.placeHref = main.url
                    photos[0].dayLabel?.dateText = shortDate + continued
                }
                if let last = blocks.indices.last, blocks[last].run != nil {
                    blocks[last].run!.photos += photos
                } else {
                    blocks.append(MomentBlock(run: MomentRunModel(photos: photos)))
                }
                continue
            }
            let albums = section.albums.map { album in
                TitledLink(title: gallery.title(of: album),
                           url: URLPath.relative(from: pagePath, to: map.albumPages[album]?.first ?? "index.html"))
            }
            blocks.append(MomentBlock(section: MomentSectionModel(
                datetime: section.datetime, heading: heading, countLabel: countLabel,
                albums: albums, places: placeLinks, continued: slice.continuesFromPrevious, continues: slice.continuesOnNext,
                photos: photos, anchor: anchor, monthAnchor: monthAnchor, month: month)))
        }
        let pager = momentsPager(number, from: pagePath)
        chrome.relLinks = relLinks(pager)
        let here = slices.first.map { strings.heading(strings.month(map.moments[$0.section].photos[$0.range.lowerBound].metadata.captureDate.localDay)) } ?? ""
        // Only the first page counts the whole timeline: a photo added
        // anywhere changes it and the pages of its own year, no others.
        let total = number == 0 || !map.momentsByYear ? count(map.timelineSummary) : nil
        chrome.share = shareCard(pagePath, headline: strings.text("moments.title"),
                                 summary: total.map { strings.text("moments.meta", ["photoCountLabel": $0]) } ?? here,
                                 item: slices.first.map { map.moments[$0.section].photos[$0.range.lowerBound] })
        return MomentsPageModel(chrome: chrome, photoCountLabel: total, pageNumber: !map.momentsByYear,
                                blocks: blocks, pager: pager,
                                years: yearIndex(from: pagePath, current: monthsHere, covers: false,
                                                 year: map.momentsByYear ? map.momentPageYears[number] : nil),
                                yearsURL: URLPath.relative(from: pagePath, to: SiteMap.yearsPage),
                                hereLabel: here,
                                placesCredit: places && map.moments.contains { !$0.places.isEmpty },
                                animationToggle: Thumbnail.needToggle(blocks.lazy.flatMap(\.photos)))
    }

    /// A moments page's pager: the pages of its year by number, and the
    /// pages before and after it (the next year's first, the last year's last).
    func momentsPager(_ number: Int, from pagePath: String) -> Pager? {
        guard map.momentsByYear else { return pager(map.momentPages, current: number, from: pagePath) }
        let year = map.momentPagesOfYear(around: number)
        var pager = pager(Array(map.momentPages[year]), current: number - year.lowerBound, from: pagePath)
            ?? Pager(items: [], count: 1, number: 1)
        pager.prev = number > 0 ? URLPath.relative(from: pagePath, to: map.momentPages[number - 1]) : nil
        pager.next = number + 1 < map.momentPages.count ? URLPath.relative(from: pagePath, to: map.momentPages[number + 1]) : nil
        return pager
    }

    /// An item's thumbnail aspect ratio (width / height), as its grid cell grows.
    func thumbnailAspect(_ item: MediaItem) -> Double {
        guard let first = item.renditions(.thumbnail).first else { return 1 }
        return Double(first.size.width) / Double(max(1, first.size.height))
    }

    /// The year → month index as seen from `pagePath`: every year, its twelve
    /// months (links to the page and anchor where each month's first section
    /// starts), `current` months marked and their years unfolded.
    /// On a moments page of `year`, the months of other years link to their
    /// month pages (`moments/2019/11.html`, which send the reader on), so a
    /// photo added to one year changes the index of that year's pages only.
    func yearIndex(from pagePath: String, current: Set<String>, covers: Bool, year pageYear: Int? = nil) -> [YearIndexEntry] {
        map.timelineYears.map { year in
            var entry = YearIndexEntry(year: String(year.year), countLabel: covers || !map.momentsByYear ? strings.grouped(year.items) : nil,
                                       fullCountLabel: count(items: year.items, videos: year.videos), url: "", open: false, months: [])
            for (m, month) in year.months.enumerated() {
                let key = LocalDay(year: year.year, month: m + 1, day: 1).monthDescription
                var link = YearIndexEntry.Month(name: strings.shortMonthName(m + 1), label: strings.heading(strings.month(LocalDay(year: year.year, month: m + 1, day: 1))),
                                                countLabel: nil, href: nil, key: key)
                if month.items > 0 {
                    // Counts on the years page only: the moments pages' index
                    // changes only when a month gains its first item or loses its last.
                    if covers || !map.momentsByYear {
                        link.countLabel = strings.grouped(month.items)
                        link.label += ": " + count(items: month.items, videos: month.videos)
                    }
                    if pageYear == nil || pageYear == year.year {
                        // `#m-YYYY-MM`: the month wherever it begins on its page
                        // (a section's own id is its day, which a new day changes).
                        let page = map.momentPages[map.momentSectionPage[month.firstSection]]
                        link.href = URLPath.relative(from: pagePath, to: page) + "#" + (map.momentsByYear ? "m-" + key : map.momentAnchors[month.firstSection])
                        if entry.url.isEmpty || options.momentOrder == .descending { entry.url = link.href! }
                    } else {
                        link.href = URLPath.relative(from: pagePath, to: SiteMap.monthPage(year: year.year, month: m + 1))
                        entry.url = URLPath.relative(from: pagePath, to: map.momentPages[map.momentYearStarts[year.year] ?? 0])
                    }
                    link.current = current.contains(key)
                }
                entry.open = entry.open || link.current
                entry.months.append(link)
            }
            if covers { entry.cover = year.cover.flatMap { thumbnail($0, from: pagePath, position: 0) } }
            return entry
        }
    }

    /// `map.momentMonthPages[n]`: a heading and the way on, which the head's refresh takes at once.
    func monthPage(_ n: Int) -> MonthPageModel {
        let month = map.momentMonthPages[n]
        let name = strings.heading(strings.month(LocalDay(year: month.year, month: month.month, day: 1)))
        let href = URLPath.relative(from: month.path, to: month.target) + "#" + month.anchor
        var chrome = chrome(month.path, title: name, section: "moments")
        chrome.refreshURL = href
        chrome.canonicalURL = absoluteURL(month.target)
        return MonthPageModel(chrome: chrome, heading: name, href: href, linkText: strings.text("moments.month_page", ["month": name]))
    }

    func yearsPage() -> YearsPageModel {
        let pagePath = SiteMap.yearsPage
        var chrome = chrome(pagePath, title: strings.text("years.title"), section: "moments")
        chrome.relLinks = []
        let years = map.timelineYears.count
        let countLabel = strings.text("count.in_years", ["count": count(map.timelineSummary),
                                                         "years": strings.count("count.years", years)])
        // Its link preview shows the first year's cover (which its fingerprint already holds).
        chrome.share = shareCard(pagePath, headline: strings.text("years.title"), summary: countLabel,
                                 item: map.timelineYears.lazy.compactMap(\.cover).first)
        return YearsPageModel(chrome: chrome,
                              countLabel: countLabel,
                              years: yearIndex(from: pagePath, current: [], covers: true))
    }

    func renderMomentsPage(_ number: Int) throws(ThemeError) -> String {
        try theme.render("moments", momentsPage(number))
    }
}
