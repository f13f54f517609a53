import GalleryCore

/// The month an item belongs to in the timeline (its local day's).
struct TimelineMonthKey: Equatable {
    let year: Int, month: Int
    init(_ item: MediaItem) {
        let day = item.metadata.captureDate.localDay
        year = day.year
        month = day.month
    }
}

/// One year of the moments timeline, for the year → month index.
public struct TimelineYear: Sendable {
    /// One month: how many items, and the section (in page order) it starts with.
    public struct Month: Sendable {
        public var items = 0
        public var videos = 0
        public var firstSection = 0
    }
    public var year: Int
    /// January to December; months without items have `items == 0`.
    public var months = [Month](repeating: Month(), count: 12)
    /// What stands for the year on the years page.
    public var cover: MediaItem?
    /// Items in the year.
    public var items: Int { months.reduce(0) { $0 + $1.items } }
    /// Videos in the year.
    public var videos: Int { months.reduce(0) { $0 + $1.videos } }

    init(year: Int) { self.year = year }
}

/// The page of a month of a timeline cut by year (`moments/2019/11.html`):
/// other years' moments pages link a month here, not to the page it starts
/// on, so a month moving to another page of its year re-renders this page,
/// not every page of every year. It sends the reader on (no script needed)
/// to `target`, the page where the month begins, at `#m-2019-11`.
public struct MonthPage: Sendable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    public var path: String
    public var target: String
    /// The id of the month's first section on `target`.
    public var anchor: String { "m-" + LocalDay(year: year, month: month, day: 1).monthDescription }
}

/// Where every page of the site lives (paths relative to the site root), and
/// how albums and the moments timeline are cut into pages.
///
/// Albums mirror the folder tree under `albums/`, each folder name turned into
/// a readable slug (`Léa 7` → `lea-7`) unique among its siblings. An album's
/// pages are `index.html`, `index-2.html`…; its photos' pages sit beside them
/// as `<photo-slug>.html` (the root album's under `albums/`). The timeline is
/// `moments/index.html`, `moments/index-2.html`….
public struct SiteMap: Sendable {
    /// Page paths of each album, first page first.
    public private(set) var albumPages: [AlbumPath: [String]] = [:]
    /// Where each photo is placed, by its source path (`a/b/c.jpg`): one
    /// dictionary, not three (each of 100,000 paths hashed once, not thrice).
    public private(set) var photoPlaces = StringTable<PhotoPlace>()
    /// The photo ranges of each album page.
    public private(set) var albumPhotoRanges: [AlbumPath: [Range<Int>]] = [:]
    /// The moments sections.
    public let moments: [MomentSection]
    /// How the sections fall on the moments pages.
    public let momentSlices: [[SectionSlice]]
    /// Moments page paths: the first is `moments/index.html`; then, for a
    /// long timeline, by year (`moments/2019/index.html`, `moments/2019/p2.html`…:
    /// no page spans two years, and a page's number reads as no month), else
    /// `moments/index-2.html`….
    public let momentPages: [String]
    /// A timeline cut by year: a page for each month with items
    /// (`moments/2019/11.html`) that sends the reader on to where it begins.
    public let momentMonthPages: [MonthPage]
    /// The year of each moments page (of its first photo).
    public let momentPageYears: [Int]
    /// The first moments page of each year (a page number).
    public let momentYearStarts: [Int: Int]
    /// The timeline is long enough to be cut by year (`pagesBeforeYearCut`).
    public let momentsByYear: Bool
    /// How many moments pages a timeline cut as one run may have.
    public static let pagesBeforeYearCut = 8
    /// Each section's anchor on its (first) page: `d-2025-05-03`, or
    /// `m-2025-05` by month, made unique (`-2`) where two sections share a day.
    public let momentAnchors: [String]
    /// The page each section starts on.
    public let momentSectionPage: [Int]
    /// The year → month index of the timeline, years in timeline order.
    public let timelineYears: [TimelineYear]
    /// The month (`m-YYYY-MM`) each section starts, by section, for the
    /// sections that are their month's first: the id the index links to.
    public let monthAnchorBySection: [Int: String]
    /// The years overview page.
    public static let yearsPage = "moments/years.html"
    /// Where the map lives (`map`).
    public static let mapPagePath = "places/map.html"
    /// Keyword pages, by name (letter case ignored; the first spelling met is shown).
    public let tags: [TagPages]
    /// The page listing every tag (`tags/index.html`), when there are tags.
    public var tagIndexPage: String? { tags.isEmpty ? nil : "tags/index.html" }
    /// The first page of each tag, by its folded name.
    public let tagPageByKey: [String: String]
    /// The items rated four stars or more (`favourites/`), when there are any and the setting is on.
    public let favourites: TagPages?
    /// The place pages (`moment_places`): every place with items in the
    /// timeline, by country then name; empty when the setting is off.
    public let places: [PlacePages]
    /// The first page of each place, by its key (`Place.key`).
    public let placePageByKey: [String: String]
    /// The page listing every place (`places/index.html`), when there are places.
    public var placeIndexPage: String? { places.isEmpty ? nil : "places/index.html" }
    /// The map of places (`map`), when there are places and the setting is on.
    public let mapPage: String?
    /// The people pages (`publish_people`): every published person of the
    /// timeline, most photos first; empty when the setting is off.
    public let people: [PersonPages]
    /// Each person's place in `people`, by their key (`PersonPages.key`).
    let personIndexByKey: [String: Int]
    /// Who is published, and as whom.
    public let peopleDirectory: PeopleDirectory
    /// Every spelling of a person met in the library, and whom it publishes.
    let personNames: PersonNames
    /// True when some keyword or tag may name a person (people.yml, or people published).
    public var hasPersonSpellings: Bool { !personNames.isEmpty }
    /// The People page, when someone is published.
    public var peopleIndexPage: String? { people.isEmpty ? nil : Self.peopleIndexPath }
    /// Every item of the timeline (listed albums, each once), in timeline
    /// order: what tags, Favourites and search are made from.
    public let timelineItems: [MediaItem]
    /// Their count line (a stack counted whole): what the moments pages say.
    public let timelineSummary: ItemSummary
    /// "On this day", a file per calendar month (January first).
    public private(set) var onThisDay: [OnThisDayMonth] = []
    /// The timeline's items by calendar month, for the search index's item
    /// files: a change in one month rewrites that month's files only.
    public let searchMonths: [SearchMonth]
    /// The rating that makes a favourite.
    public static let favouriteRating = 4

    /// One keyword's pages: the items that carry it, from listed albums only,
    /// each once, in timeline order, paged like an album.
    public struct TagPages: Sendable {
        public var name: String
        public var items: [MediaItem]
        public var pages: [String]
        public var ranges: [Range<Int>]
    }

    /// One place's pages: its items (listed albums only, each once, in
    /// timeline order), paged like an album.
    public struct PlacePages: Sendable {
        public var place: Place
        public var items: [MediaItem]
        public var pages: [String]
        public var ranges: [Range<Int>]
    }

    /// How keywords are told apart: letter case does not count.
    public static func tagKey(_ keyword: String) -> String { keyword.lowercased() }

    /// Lays out `gallery` with `options`; `people` is people.yml (used with `publish_people`).
    public init(gallery: Gallery, options: Settings, people list: PeopleList = PeopleList()) {
        // Every page's path laid out on a thread of its own while the
        // timeline is sorted: two independent halves of a third of a second each at 100,000 items.
        let budget = options.photosPerPage
        let placing = Eventually { Placement(gallery, budget: budget) }
        // Who the library's names publish as, meanwhile too (a pass over every item's words).
        let directory = PeopleDirectory(list: list, enabled: options.publishPeople)
        let namesMeanwhile = Eventually { PersonNames(gallery, list: list, directory: directory) }
        moments = MomentSectioner.sections(MomentSectioner.unique(gallery.timelinePhotos),
                                           grouping: options.momentGrouping, order: options.momentOrder)
        let moments = self.moments
        // A section "starts a month" when its first photo (in page order) is
        // of another month than the last photo before it.
        let monthStarts = moments.indices.map { i in
            i == 0 || TimelineMonthKey(moments[i].photos.first!) != TimelineMonthKey(moments[i - 1].photos.last!)
        }
        // A long timeline's pages never span years and are named by their
        // year: a photo added to one year moves the pages of that year only,
        // never every page after it (a rebuild renders what changed). A short
        // one is cut as one run: a few photos of each year stay together.
        let sequential = PageSplitter.pages(sectionSizes: moments.map(\.photos.count), budget: options.photosPerPage, monthStarts: monthStarts)
        momentsByYear = sequential.count > Self.pagesBeforeYearCut
        var slices: [[SectionSlice]] = [], pages: [String] = [], pageYears: [Int] = []
        var start = momentsByYear ? 0 : moments.count
        if !momentsByYear {
            slices = sequential
            pages = sequential.indices.map { $0 == 0 ? "moments/index.html" : "moments/index-\($0 + 1).html" }
            pageYears = sequential.map { page in page.first.map { TimelineMonthKey(moments[$0.section].photos[$0.range.lowerBound]).year } ?? 0 }
        }
        while start < moments.count {
            let year = TimelineMonthKey(moments[start].photos.first!).year
            var end = start + 1
            while end < moments.count, TimelineMonthKey(moments[end].photos.first!).year == year { end += 1 }
            let yearSlices = PageSplitter.pages(sectionSizes: moments[start..<end].map(\.photos.count), budget: options.photosPerPage,
                                                monthStarts: Array(monthStarts[start..<end]))
            for (n, page) in yearSlices.enumerated() {
                slices.append(page.map { SectionSlice(section: $0.section + start, range: $0.range,
                                                      continuesFromPrevious: $0.continuesFromPrevious, continuesOnNext: $0.continuesOnNext) })
                pages.append(pages.isEmpty ? "moments/index.html" : Self.yearFolder(year) + (n == 0 ? "index.html" : "p\(n + 1).html"))
                pageYears.append(year)
            }
            start = end
        }
        if slices.isEmpty {
            slices = [[]]
            pages = ["moments/index.html"]
            pageYears = [0]
        }
        momentSlices = slices
        momentPages = pages
        momentPageYears = pageYears
        var yearStarts: [Int: Int] = [:]
        for (page, year) in pageYears.enumerated() where yearStarts[year] == nil { yearStarts[year] = page }
        momentYearStarts = yearStarts
        var sectionPage = [Int](repeating: 0, count: moments.count)
        for (page, slices) in momentSlices.enumerated() {
            for slice in slices where !slice.continuesFromPrevious { sectionPage[slice.section] = page }
        }
        momentSectionPage = sectionPage
        var usedAnchors: [String: Int] = [:]
        momentAnchors = moments.map { section in
            let base = (section.datetime.count == 7 ? "m-" : "d-") + section.datetime
            usedAnchors[base, default: 0] += 1
            let n = usedAnchors[base]!
            return n == 1 ? base : "\(base)-\(n)"
        }
        // The year index, the search's months, the tags, on this day and the
        // timeline's count line each a pass over every item: all but the
        // last on threads of their own meanwhile.
        let yearIndex = Eventually { Self.yearIndex(moments) }
        peopleDirectory = directory
        personNames = namesMeanwhile.value
        let personNames = self.personNames
        let tagsMeanwhile = Eventually { Self.tags(moments, names: personNames, budget: budget) }
        // Placed on its own thread from the start: by now it is done.
        let placement = placing.value
        timelineItems = moments.flatMap(\.photos)
        let timelineItems = self.timelineItems, order = options.momentOrder
        let months = Eventually { SearchMonth.months(timelineItems, order: order) }
        let photoPlaces = placement.photoPlaces
        // Only items with a page: made once every page is placed.
        let onThisDayMeanwhile = Eventually { OnThisDayMonth.months(timelineItems, places: photoPlaces) }
        let peoplePages = Eventually { Self.people(timelineItems, names: personNames, directory: directory, options: options) }
        timelineSummary = ItemSummary(timelineItems)
        let favourite = timelineItems.filter { ($0.metadata.words.rating ?? 0) >= Self.favouriteRating }
        if options.favourites, !favourite.isEmpty {
            let ranges = PageSplitter.pages(count: favourite.count, budget: options.photosPerPage)
            favourites = TagPages(name: "Favourites", items: favourite, pages: ranges.indices.map { SiteMap.albumPage(folder: "favourites/", number: $0) },
                                  ranges: ranges)
        } else {
            favourites = nil
        }
        if options.momentPlaces {
            var found: [String: Place] = [:], members: [String: [MediaItem]] = [:]
            for item in timelineItems {
                guard let place = item.metadata.place else { continue }
                let key = place.key
                if found[key] == nil { found[key] = place }
                members[key, default: []].append(item)
            }
            // By country, then name, then region: the index's order and the slugs' claim order.
            let ordered = found.values.sorted { a, b in
                if a.country != b.country { return NaturalOrder.less(a.country, b.country) }
                if a.name != b.name { return NaturalOrder.less(a.name, b.name) }
                if a.region != b.region { return NaturalOrder.less(a.region, b.region) }
                return a.key < b.key
            }
            var placeSlugs = Slug.Uniquer()
            var pageByKey: [String: String] = [:]
            places = ordered.map { place in
                let folder = "places/" + placeSlugs.claim(Slug.make(place.fullName, fallback: "place")) + "/"
                let items = members[place.key]!
                let ranges = PageSplitter.pages(count: items.count, budget: options.photosPerPage)
                let pages = ranges.indices.map { SiteMap.albumPage(folder: folder, number: $0) }
                pageByKey[place.key] = pages.first
                return PlacePages(place: place, items: items, pages: pages, ranges: ranges)
            }
            placePageByKey = pageByKey
        } else {
            places = []
            placePageByKey = [:]
        }
        mapPage = options.map && !places.isEmpty ? Self.mapPagePath : nil
        people = peoplePages.value
        personIndexByKey = Dictionary(uniqueKeysWithValues: people.enumerated().map { ($1.key, $0) })
        albumPages = placement.albumPages
        self.photoPlaces = photoPlaces
        albumPhotoRanges = placement.albumPhotoRanges
        (tags, tagPageByKey) = tagsMeanwhile.value
        onThisDay = onThisDayMeanwhile.value
        timelineYears = yearIndex.value
        var monthAnchors: [Int: String] = [:]
        for year in timelineYears {
            for (m, month) in year.months.enumerated() where month.items > 0 {
                let anchor = "m-" + LocalDay(year: year.year, month: m + 1, day: 1).monthDescription
                // Sections by month carry that id themselves.
                if momentAnchors[month.firstSection] != anchor { monthAnchors[month.firstSection] = anchor }
            }
        }
        monthAnchorBySection = monthAnchors
        var monthPages: [MonthPage] = []
        for year in timelineYears where momentsByYear {
            for (m, month) in year.months.enumerated() where month.items > 0 {
                monthPages.append(MonthPage(year: year.year, month: m + 1, path: Self.monthPage(year: year.year, month: m + 1),
                                            target: momentPages[momentSectionPage[month.firstSection]]))
            }
        }
        momentMonthPages = monthPages
        searchMonths = months.value
    }

    /// The tags' pages, and each tag's first page by its key (`tagKey`):
    /// hidden albums' items never appear, as in moments.
    static func tags(_ moments: [MomentSection], names personNames: PersonNames, budget: Int) -> (tags: [TagPages], pageByKey: [String: String]) {
        var names: [String: String] = [:], members: [String: [MediaItem]] = [:]
        for section in moments {
            for item in section.photos {
                for keyword in personNames.keywords(of: item) {
                    let key = Self.tagKey(keyword)
                    if names[key] == nil { names[key] = keyword }
                    members[key, default: []].append(item)
                }
            }
        }
        var tagSlugs = Slug.Uniquer()
        var byKey: [String: String] = [:]
        let tags = names.keys.sorted { NaturalOrder.less(names[$0]!, names[$1]!) }.map { key in
            let folder = "tags/" + tagSlugs.claim(Slug.make(names[key]!, fallback: "tag")) + "/"
            let items = members[key]!
            let ranges = PageSplitter.pages(count: items.count, budget: budget)
            let pages = ranges.indices.map { SiteMap.albumPage(folder: folder, number: $0) }
            byKey[key] = pages.first
            return TagPages(name: names[key]!, items: items, pages: pages, ranges: ranges)
        }
        return (tags, byKey)
    }

    /// The year → month index: counts per month, and for each month the
    /// first section (in page order) holding one of its photos.
    static func yearIndex(_ moments: [MomentSection]) -> [TimelineYear] {
        var years: [TimelineYear] = []
        var yearAt: [Int: Int] = [:]
        var coverKey: [Int: (rating: Int, sectionSize: Int)] = [:]
        for (index, section) in moments.enumerated() {
            for photo in section.photos {
                let key = TimelineMonthKey(photo)
                if yearAt[key.year] == nil {
                    yearAt[key.year] = years.count
                    years.append(TimelineYear(year: key.year))
                }
                let y = yearAt[key.year]!
                let m = key.month - 1
                if years[y].months[m].items == 0 { years[y].months[m].firstSection = index }
                // A stack counts whole, as count lines count it.
                years[y].months[m].items += photo.stack.tileCount
                if photo.kind == .video { years[y].months[m].videos += 1 }
            }
            // The year's cover: its best-rated item, else the middle of its largest section.
            let middle = section.photos[section.photos.count / 2]
            var candidates = [(middle, 0)]
            for photo in section.photos where (photo.metadata.words.rating ?? 0) > 0 { candidates.append((photo, photo.metadata.words.rating!)) }
            for (photo, rating) in candidates {
                let year = TimelineMonthKey(photo).year
                guard let y = yearAt[year] else { continue }
                let key = (rating, section.photos.count)
                if let known = coverKey[year], known >= key { continue }
                coverKey[year] = key
                years[y].cover = photo
            }
        }
        return years
    }

    /// The folder of a year's moments pages and month pages.
    static func yearFolder(_ year: Int) -> String { "moments/" + yearName(year) + "/" }

    /// A month's page (`moments/2019/11.html`), `month` 1 to 12.
    public static func monthPage(year: Int, month: Int) -> String { yearFolder(year) + (month < 10 ? "0" : "") + String(month) + ".html" }

    /// A year as a page name: four digits (`0987`), a sign before years BC.
    static func yearName(_ year: Int) -> String {
        year < 0 ? "bc" + String(-year) : String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
    }

    /// The moments pages of the year of page `number` (every page when the
    /// timeline is not cut by year).
    public func momentPagesOfYear(around number: Int) -> Range<Int> {
        guard momentsByYear else { return momentPages.indices }
        let year = momentPageYears[number]
        var low = number, high = number + 1
        while low > 0, momentPageYears[low - 1] == year { low -= 1 }
        while high < momentPageYears.count, momentPageYears[high] == year { high += 1 }
        return low..<high
    }

    /// Page `number` (0-based) of an album whose folder is `folder`.
    static func albumPage(folder: String, number: Int) -> String {
        folder + (number == 0 ? "index.html" : "index-\(number + 1).html")
    }
}
