import GalleryCore

/// The fingerprints of the pages made from the timeline (moments, years),
/// from keywords (tags, Favourites) and from places (the places' list, each
/// place, the map): what each shows, as `Fingerprinter` hashes it.
extension Fingerprinter {
    /// Counts and months of the whole timeline: the year → month index every
    /// moments page and the years page carry.
    func timelineDigest() -> StableHash.Digest {
        var h = StableHash()
        h.add(map.timelineItems.count)
        map.timelineSummary.feed(&h)
        h.add(map.moments.contains { !$0.places.isEmpty })
        for year in map.timelineYears {
            h.add(year.year)
            for month in year.months {
                h.add(month.items)
                h.add(month.videos)
                if month.items > 0 {
                    h.add(map.momentPages[map.momentSectionPage[month.firstSection]])
                    h.add(map.momentAnchors[month.firstSection])
                }
            }
        }
        return h.digest()
    }

    /// The year → month index as the moments pages carry it: which months
    /// have items and the page each starts on, no counts (a photo added to a
    /// month changes no other year's page).
    func railDigest() -> StableHash.Digest {
        var h = StableHash()
        h.add(map.moments.contains { !$0.places.isEmpty })
        for (year, page) in map.momentYearStarts.sorted(by: { $0.key < $1.key }) {
            h.add(year)
            h.add(map.momentPages[page])
        }
        for year in map.timelineYears {
            h.add(year.year)
            for month in year.months { h.add(month.items > 0) }
        }
        return h.digest()
    }

    /// The exact page of each month of `year` (the index links them on that year's pages).
    func railDigest(ofYear year: Int) -> StableHash.Digest {
        var h = StableHash()
        for entry in map.timelineYears where entry.year == year {
            for month in entry.months where month.items > 0 { h.add(map.momentPages[map.momentSectionPage[month.firstSection]]) }
        }
        return h.digest()
    }

    func momentsPage(_ number: Int, rail: StableHash.Digest, timeline: StableHash.Digest) -> PlannedPage {
        page(.moments(page: number), map.momentPages[number]) { h in
            if map.momentsByYear {
                h.add(rail)
                h.add(railDigest(ofYear: map.momentPageYears[number]))
                // The first page says how many items the timeline holds.
                if number == 0 { h.add(timeline) }
                // Its pager: the pages of its year, and the pages before and after it.
                pager(Array(map.momentPages[map.momentPagesOfYear(around: number)]), &h)
                h.add(number > 0 ? map.momentPages[number - 1] : "-")
                h.add(number + 1 < map.momentPages.count ? map.momentPages[number + 1] : "-")
            } else {
                // A short timeline: every page counts it and links every page.
                h.add(timeline)
                pager(map.momentPages, &h)
            }
            for slice in map.momentSlices[number] {
                // The section by what it shows (its anchor, days and items),
                // not by its number, which a new day earlier in the timeline shifts.
                let section = map.moments[slice.section]
                h.add(slice.range.lowerBound)
                h.add(slice.range.upperBound)
                h.add(slice.continuesFromPrevious)
                h.add(slice.continuesOnNext)
                h.add(map.momentAnchors[slice.section])
                h.add(slice.continuesFromPrevious ? "-" : map.monthAnchorBySection[slice.section] ?? "-")
                h.add(section.datetime)
                h.add(section.firstDay.description)
                h.add(section.lastDay.description)
                h.add(section.photos.count)
                h.add(section.photos.count { $0.kind == .video })
                h.add(section.places.count)
                for place in section.places {
                    h.add(place.key)
                    h.add(map.placePageByKey[place.key] ?? "-")
                }
                h.add(section.albums.count)
                for album in section.albums {
                    h.add(gallery.title(of: album))
                    h.add(map.albumPages[album]?.first ?? "-")
                }
                for j in slice.range { feedItem(section.photos[j], &h) }
            }
        }
    }

    /// A tag as its card and its pages' heading show it: name, first page,
    /// count line and date range, and its first item (the cover, the link preview).
    func tagCard(_ tag: SiteMap.TagPages, _ summary: ItemSummary, _ h: inout StableHash) {
        h.add(tag.name)
        h.add(tag.pages.first ?? "-")
        summary.feed(&h)
        if let first = tag.items.first { feedItem(first, &h) } else { h.add("-") }
    }

    /// A place as its card, its marker and its pages' heading show it: who
    /// it is (name, region, country, position), its first page, count line
    /// and date range, and its first item (the cover, the link preview).
    func placeCard(_ pages: SiteMap.PlacePages, _ summary: ItemSummary, _ h: inout StableHash) {
        h.add(pages.place.key)
        h.add(pages.place.country)
        h.add(pages.pages.first ?? "-")
        summary.feed(&h)
        if let first = pages.items.first { feedItem(first, &h) } else { h.add("-") }
    }

    func tagPage(_ kind: PlannedPage.Kind, _ tag: SiteMap.TagPages, _ summary: ItemSummary, number: Int) -> PlannedPage {
        page(kind, tag.pages[number]) { h in
            tagCard(tag, summary, &h)
            pager(tag.pages, &h)
            for index in tag.ranges[number] { feedItem(tag.items[index], &h) }
        }
    }

    /// The places' list, each place's pages and the map (none without places).
    func placePages() -> [PlannedPage] {
        guard let index = map.placeIndexPage else { return [] }
        let placeSummaries = map.places.map { ItemSummary($0.items) }
        var pages = [page(.placeIndex, index) { h in
            for (place, summary) in zip(map.places, placeSummaries) { placeCard(place, summary, &h) }
        }]
        for (p, place) in map.places.enumerated() {
            for number in place.pages.indices {
                pages.append(page(.place(p, page: number), place.pages[number]) { h in
                    placeCard(place, placeSummaries[p], &h)
                    pager(place.pages, &h)
                    for index in place.ranges[number] { feedItem(place.items[index], &h) }
                })
            }
        }
        if let mapPage = map.mapPage {
            pages.append(page(.map, mapPage) { h in
                for (place, summary) in zip(map.places, placeSummaries) { placeCard(place, summary, &h) }
            })
        }
        return pages
    }
}
