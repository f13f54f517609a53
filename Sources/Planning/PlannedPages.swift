import GalleryCore

/// One page of the site to make (or, for the search index and the sitemap,
/// one group of files made together), and the fingerprint of exactly what it
/// shows: a rebuild renders a page only when its fingerprint changed.
public struct PlannedPage: Sendable {
    /// What the page is (its album, for album and item pages, is `album`:
    /// payloads here hold no pointers, which an enum may keep in spare bits,
    /// hiding them from LeakSanitizer when a build is stopped by a signal).
    public enum Kind: Sendable, Hashable {
        case album(page: Int)
        case item(index: Int)
        case moments(page: Int)
        /// `moments/2019/11.html`: `map.momentMonthPages[month]`.
        case momentsMonth(Int)
        case years
        case tagIndex
        case tag(Int, page: Int)
        case favourites(page: Int)
        /// `places/index.html`: every place, by country.
        case placeIndex
        case place(Int, page: Int)
        /// `places/map.html`.
        case map
        /// `people/index.html` and every person's avatar files: one group.
        case peopleIndex
        case person(Int, page: Int)
        case search
        /// `search/index.js` and the token files (`t-*.js`): made from every item.
        case searchIndex
        /// One month's item files (`search/d-<slot>-<n>.js`), `map.searchMonths[month]`.
        case searchDocuments(month: Int)
        case sitemap
        case feed
        /// `moments/days-MM.js`: the photos of each day of a calendar month, for "On this day" (`map.onThisDay[month]`).
        case onThisDay(month: Int)
    }

    /// What it is.
    public let kind: Kind
    /// The album of an album or item page.
    public let album: AlbumPath?
    /// Its file, relative to OUT; for a group of files, the group's name
    /// (`search/index.js`, `sitemap.xml`: the file every group always has).
    public let path: PagePath
    /// A hash of everything the page shows.
    public let fingerprint: StableHash.Digest

    /// `path`, spelled.
    public var id: String { path.description }
}

extension PlannedPage {
    init(kind: Kind, album: AlbumPath?, id: String, fingerprint: StableHash.Digest) {
        self.init(kind: kind, album: album, path: PagePath(id), fingerprint: fingerprint)
    }
}

/// Every page of a plan, in rendering order, held as the runs it was planned
/// in (an album's pages, its items', then the rest), not joined into one
/// array: joining a million pages held them twice at the plan's peak.
///
/// An album's item pages are held as 24 bytes each (the item's index, its
/// place among the map's places, its fingerprint), their `PlannedPage`
/// made when read: a million of them held whole were 80 bytes each.
public struct PlannedPages: RandomAccessCollection, Sendable {
    /// One album's item pages.
    struct ItemRun: Sendable {
        struct Entry: Sendable {
            let index: Int32
            let place: Int32
            let fingerprint: StableHash.Digest
        }

        let album: AlbumPath
        /// The map's places (`SiteMap.photoPlaces`' values, shared, not copied).
        let places: [PhotoPlace]
        var entries: [Entry] = []

        subscript(position: Int) -> PlannedPage {
            let entry = entries[position]
            return PlannedPage(kind: .item(index: Int(entry.index)), album: album,
                               path: places[Int(entry.place)].pagePath, fingerprint: entry.fingerprint)
        }
    }

    /// Pages held whole, or an album's item pages: a struct, not an enum
    /// of the two (whose case an enum may keep in a pointer's spare bits,
    /// hiding the runs from LeakSanitizer when a build is stopped by a signal).
    struct Run: Sendable {
        private let pages: [PlannedPage]
        private let items: ItemRun?

        static func pages(_ pages: [PlannedPage]) -> Run { Run(pages: pages, items: nil) }
        static func items(_ items: ItemRun) -> Run { Run(pages: [], items: items) }

        var count: Int { items?.entries.count ?? pages.count }

        subscript(position: Int) -> PlannedPage {
            if let items { return items[position] }
            return pages[position]
        }
    }

    /// The runs, none empty.
    private let runs: [Run]
    /// Where each run starts among all the pages, then the count of all.
    private let starts: [Int]

    /// The pages of `runs`, in order (each run let go of here, not copied).
    init(_ runs: consuming [Run]) {
        self.runs = runs.filter { $0.count > 0 }
        var starts = [0]
        starts.reserveCapacity(self.runs.count + 1)
        for run in self.runs { starts.append(starts[starts.count - 1] + run.count) }
        self.starts = starts
    }

    /// The pages of `runs`, in order.
    init(_ runs: consuming [[PlannedPage]]) { self.init(runs.map { Run.pages($0) }) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts[starts.count - 1] }

    public subscript(position: Int) -> PlannedPage {
        precondition(position >= 0 && position < endIndex, "a page past the plan's end")
        // The last run that starts at or before `position`.
        var low = 0, high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return runs[low][position - starts[low]]
    }

    /// Walks the runs in order (no search per page).
    public struct Iterator: IteratorProtocol {
        fileprivate var runs: IndexingIterator<[Run]>
        fileprivate var current: Run?
        fileprivate var position = 0

        public mutating func next() -> PlannedPage? {
            while true {
                if let run = current, position < run.count {
                    defer { position += 1 }
                    return run[position]
                }
                guard let run = runs.next() else { return nil }
                current = run
                position = 0
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(runs: runs.makeIterator(), current: nil) }
}
