import Foundation
import GalleryCore

/// The site's plan: the albums, where every page lives, and every page with
/// its fingerprint.
///
/// A fingerprint is made from exactly what its page reads: the seed (the
/// renderer's version, the theme and its strings, every setting, the site's
/// title, the time zone: whatever every page shows), then the page's own
/// inputs — its items (each by a digest of everything an item carries but
/// GPS), the neighbours it links and preloads, its pager, breadcrumbs,
/// album cards and counts. Each input below mirrors what the renderer reads
/// for that kind of page; a clean build is the reference, and the tests
/// compare every incremental build with one.
public struct SitePlan: Sendable {
    /// The albums.
    public let gallery: Gallery
    /// Where every page lives.
    public let map: SiteMap
    /// Every page, in rendering order.
    public let pages: PlannedPages
    /// Each album's count line and date range: its items and its listed albums' below.
    public let albumSummaries: [AlbumPath: ItemSummary]

    /// Plans `gallery`'s site. `seed` is the fingerprint of what every page
    /// shows; `downloads` are the albums' archives (made before the pages).
    public init(gallery: Gallery, options: Settings, downloads: [AlbumPath: AlbumDownload] = [:], seed: StableHash.Digest = .zero) {
        self.init(gallery: gallery, map: SiteMap(gallery: gallery, options: options), options: options, downloads: downloads, seed: seed)
    }

    /// Plans `gallery`'s site laid out as `map` (`SiteMap(gallery:options:)`, the same options).
    /// `afterPreparing` runs once the items' digests are made, before the pages are.
    public init(gallery: Gallery, map: SiteMap, options: Settings, downloads: [AlbumPath: AlbumDownload] = [:], seed: StableHash.Digest = .zero,
                afterPreparing: () -> Void = {}) {
        self.gallery = gallery
        self.map = map
        var planner = Fingerprinter(gallery: gallery, map: map, options: options, downloads: downloads, seed: seed)
        pages = planner.pages(afterPreparing: afterPreparing)
        albumSummaries = planner.summaries
    }
}

/// Makes the fingerprints: per-item digests once, then a few hashes per page.
struct Fingerprinter: Sendable {
    let gallery: Gallery
    let map: SiteMap
    let options: Settings
    let downloads: [AlbumPath: AlbumDownload]
    /// What every page shows (the seed, and the header's links).
    let chrome: StableHash.Digest
    /// Each item as a thumbnail or link shows it (its digest and its page),
    /// by where its place is among `map.photoPlaces`' values (`shownSet`:
    /// which are made): a table by source path was 40 bytes an item, 40 MB
    /// of a first build's peak at 1,000,000 items, and a path hashed for each.
    var shown: [StableHash.Digest] = []
    var shownSet: [Bool] = []
    /// The same of the few items that have no page, by source path.
    var shownWithoutPage = StringTable<StableHash.Digest>()
    /// Each album's items as its pages show them, in album order: looked up
    /// by index, not by path (the paths joined and hashed again for every
    /// page that shows an item were most of planning 100,000 items).
    var albumRows: [AlbumPath: AlbumRows] = [:]
    /// Each album's breadcrumb chain (itself and its ancestors: titles and first pages).
    var crumbs: [AlbumPath: StableHash.Digest] = [:]
    /// Each album's count line and date range: every item in it and its listed albums below.
    var summaries: [AlbumPath: ItemSummary] = [:]

    init(gallery: Gallery, map: SiteMap, options: Settings, downloads: [AlbumPath: AlbumDownload], seed: StableHash.Digest) {
        self.gallery = gallery
        self.map = map
        self.options = options
        self.downloads = downloads
        var h = StableHash()
        h.add(seed)
        h.add(gallery.title)
        h.add(map.tagIndexPage ?? "-")
        h.add(map.favourites?.pages.first ?? "-")
        h.add(map.placeIndexPage ?? "-")
        h.add(map.mapPage ?? "-")
        h.add(map.peopleIndexPage ?? "-")
        chrome = h.digest()
    }

    // MARK: Inputs shared by many pages

    /// Everything an item carries that a page can show: its path, content,
    /// metadata (as the build state keeps it, `PhotoMetadata.kept`: a
    /// freshly read item and a cached one give one digest) and renditions.
    static func digest(_ item: MediaItem, options: Settings) -> StableHash.Digest {
        var h = StableHash()
        h.add(item.source.relativePath)
        h.add(item.contentHash)
        // Known from the state for every item of a build; made here for the rest (tests).
        if let known = item.metadataDigest {
            h.add(known)
        } else {
            h.add(encoding: item.metadata.kept(people: options.publishPeople, place: options.momentPlaces))
        }
        h.add(item.renditions.count)
        for rendition in item.renditions {
            h.add(pathOf: rendition)
            h.add(rendition.spec.role.rawValue)
            h.add(rendition.size.width)
            h.add(rendition.size.height)
        }
        // The placeholder its tiles paint (made with the renditions, but kept apart from them).
        (item.looks ?? PictureLooks(hash: 0, sharpness: 0)).withPlaceholder { placeholder in
            h.add(placeholder.count)
            h.update(placeholder)
        }
        return h.digest()
    }

    /// An item as a thumbnail or link shows it: its digest and its page.
    func feedItem(_ item: MediaItem, _ h: inout StableHash) {
        let path = item.source.relativePath
        if let at = map.photoPlaces.index(forKey: path) {
            h.add(shownSet[at] ? shown[at] : .zero)
        } else {
            h.add(shownWithoutPage[path] ?? .zero)
        }
    }

    /// An album's items: each as a thumbnail shows it (`shown`), and as its
    /// album page lists it (`listed`: that and its anchor).
    struct AlbumRows: Sendable {
        var shown: [StableHash.Digest] = []
        var listed: [StableHash.Digest] = []
        /// Where each item's place is among `map.photoPlaces`' values (-1: it has no page).
        var places: [Int32] = []
        /// How many of the album's items have their page in its folder.
        var homePages = 0
    }

    mutating func prepare() {
        // Each album's rows on every core: a hundred thousand items' metadata hashed.
        let planner = self
        let paths = gallery.albums.keys.sorted()
        let made = parallelMap(paths) { path -> AlbumRows in
            let album = planner.gallery.albums[path]
            let photos = album?.photos ?? []
            var rows = AlbumRows()
            rows.shown.reserveCapacity(photos.count)
            rows.listed.reserveCapacity(photos.count)
            rows.places.reserveCapacity(photos.count)
            for item in photos {
                let key = item.source.relativePath
                let at = planner.map.photoPlaces.index(forKey: key)
                let place = at.map { planner.map.photoPlaces.values[$0] }
                rows.places.append(Int32(at ?? -1))
                if place != nil, album?.isHome(of: item) == true { rows.homePages += 1 }
                var h = StableHash()
                h.add(Self.digest(item, options: planner.options))
                if let place { h.add(place.pagePath) } else { h.add("-") }
                // A cover shows its stack's count.
                h.add(item.stack.isListed ? item.stack.tileCount : -1)
                // Who it shows, as published (people.yml's names, hidden people left out): its alt text and facts.
                for person in planner.map.people(in: item) {
                    h.add(person.name)
                    h.add(person.page ?? "-")
                }
                // Its keywords less those that name people (a hidden person's name is no tag either).
                if planner.map.hasPersonSpellings, item.metadata.hasWords, !item.metadata.words.keywords.isEmpty {
                    h.add(planner.map.keywords(of: item).count)
                }
                let shown = h.digest()
                var listed = StableHash()
                listed.add(shown)
                listed.add(place?.anchor ?? "-")
                rows.shown.append(shown)
                rows.listed.append(listed.digest())
            }
            // A cover's tile carries its stack's first items (the viewer steps into them): they are part of how it shows.
            for index in photos.indices {
                guard case .cover(let count) = photos[index].stack else { continue }
                var shown = StableHash(), listed = StableHash()
                shown.add(rows.shown[index])
                listed.add(rows.listed[index])
                for member in index + 1 ..< min(photos.count, index + min(count, Album.stripLength)) {
                    shown.add(rows.shown[member])
                    listed.add(rows.shown[member])
                }
                rows.shown[index] = shown.digest()
                rows.listed[index] = listed.digest()
            }
            return rows
        }
        // An item listed by several albums is shown as the first of them (in path order) lists it.
        shown = Array(repeating: .zero, count: map.photoPlaces.count)
        shownSet = Array(repeating: false, count: map.photoPlaces.count)
        for (path, rows) in zip(paths, made) {
            albumRows[path] = rows
            let photos = gallery.albums[path]?.photos ?? []
            for (index, digest) in rows.shown.enumerated() {
                let at = Int(rows.places[index])
                if at < 0 {
                    shownWithoutPage.setIfAbsent(digest, for: photos[index].source.relativePath)
                } else if !shownSet[at] {
                    shown[at] = digest
                    shownSet[at] = true
                }
            }
        }
        for path in gallery.albums.keys {
            var h = StableHash()
            var current: AlbumPath? = path
            while let p = current {
                h.add(gallery.albums[p]?.title ?? p.name)
                h.add(map.albumPages[p]?.first ?? "index.html")
                current = p.parent
            }
            crumbs[path] = h.digest()
        }
        // Every album, hidden ones and those below them included: they have pages too.
        for path in gallery.albums.keys { _ = summary(path) }
    }

    /// The count line and date range of `path` and its listed albums, as album pages and cards show them.
    mutating func summary(_ path: AlbumPath) -> ItemSummary {
        if let known = summaries[path] { return known }
        var s = ItemSummary(gallery.albums[path]?.photos ?? [])
        for child in gallery.listedChildren(of: path) { s.add(summary(child)) }
        summaries[path] = s
        return s
    }

    func page(_ kind: PlannedPage.Kind, _ id: String, album: AlbumPath? = nil, _ body: (inout StableHash) -> Void) -> PlannedPage {
        page(kind, PagePath(id), album: album, body)
    }

    func page(_ kind: PlannedPage.Kind, _ path: PagePath, album: AlbumPath? = nil, _ body: (inout StableHash) -> Void) -> PlannedPage {
        var h = StableHash()
        h.add(chrome)
        h.add(path)
        body(&h)
        return PlannedPage(kind: kind, album: album, path: path, fingerprint: h.digest())
    }

    /// The place of the item at `index` of an album whose rows are `rows` (nil: it has no page).
    func photoPlace(_ rows: AlbumRows, _ index: Int) -> PhotoPlace? {
        let at = Int(rows.places[index])
        return at < 0 ? nil : map.photoPlaces.values[at]
    }

    func pager(_ pages: [String], _ h: inout StableHash) {
        h.add(pages.count)
        for page in pages { h.add(page) }
    }

    /// Everything at all: what the search index, sitemap and feed are made from.
    func everythingDigest() -> StableHash.Digest {
        var h = StableHash()
        // Each album's part on every core, added in path order.
        let planner = self
        for digest in parallelMap(gallery.albums.keys.sorted(), { planner.everythingOf($0) }) { h.add(digest) }
        h.add(timelineDigest())
        pager(map.momentPages, &h)
        for tag in map.tags { h.add(tag.name); pager(tag.pages, &h) }
        pager(map.favourites?.pages ?? [], &h)
        for place in map.places { h.add(place.place.key); h.add(place.pages.first ?? "-") }
        for person in map.people { h.add(person.name); pager(person.pages, &h) }
        return h.digest()
    }

    /// What the search index, sitemap and feed show of the album at `path`.
    func everythingOf(_ path: AlbumPath) -> StableHash.Digest {
        var h = StableHash()
        if let album = gallery.albums[path] {
            h.add(path.description)
            h.add(gallery.title(of: path))
            h.add(album.description ?? "-")
            h.add(gallery.isHidden(path))
            h.add(album.coverFileName ?? "-")
            h.add(album.children.count)
            for child in album.children { h.add(child.description) }
            pager(map.albumPages[path] ?? [], &h)
            h.add(album.photos.count)
            for listed in albumRows[path]?.listed ?? [] { h.add(listed) }
        }
        return h.digest()
    }

    // MARK: The pages

    mutating func pages(afterPreparing: () -> Void = {}) -> PlannedPages {
        prepare()
        afterPreparing()
        return plannedPages()
    }

    /// Every page, once `prepare` has made what many share. Not a mutating
    /// method: there, each call of another method (a page, an item as a
    /// feed shows it) copied the planner and retained its dictionaries.
    private func plannedPages() -> PlannedPages {
        // Each album's pages and its items' pages, albums on every core, in path order.
        let planner = self
        let albumRuns = parallelMap(gallery.albums.keys.sorted()) { path -> [PlannedPages.Run] in
            guard let album = planner.gallery.albums[path], let paths = planner.map.albumPages[path] else { return [] }
            let rows = planner.albumRows[path] ?? AlbumRows()
            let cover = planner.gallery.cover(of: path)
            let albumPages = paths.indices.map { number in
                planner.albumPage(album, rows: rows, paths: paths, number: number, cover: cover)
            }
            // What every item page of the album shows of it: its title and breadcrumbs.
            var h = StableHash()
            h.add(planner.gallery.title(of: path))
            h.add(planner.crumbs[path] ?? .zero)
            let albumDigest = h.digest()
            var items = PlannedPages.ItemRun(album: path, places: planner.map.photoPlaces.values)
            // Sized once: a run grown by doubling had room for a third more pages than it held, for the whole build.
            items.entries.reserveCapacity(rows.homePages)
            // The photos an album lists from other folders have their pages there.
            for index in album.photos.indices where album.isHome(of: album.photos[index]) {
                guard let place = planner.photoPlace(rows, index) else { continue }
                let page = planner.itemPage(album, rows: rows, albumDigest: albumDigest, paths: paths, index: index, place: place)
                items.entries.append(.init(index: Int32(index), place: rows.places[index], fingerprint: page.fingerprint))
            }
            return [.pages(albumPages), .items(items)]
        }
        var pages: [PlannedPage] = []
        let timeline = timelineDigest()
        let rail = railDigest()
        pages += parallelMap(Array(map.momentPages.indices), minimumCount: 2) { planner.momentsPage($0, rail: rail, timeline: timeline) }
        for (n, month) in map.momentMonthPages.enumerated() {
            pages.append(page(.momentsMonth(n), month.path) { h in
                h.add(month.target)
                h.add(month.anchor)
            })
        }
        pages.append(page(.years, SiteMap.yearsPage) { h in
            h.add(timeline)
            for year in map.timelineYears { if let cover = year.cover { feedItem(cover, &h) } else { h.add("-") } }
        })
        // Each tag's count line and date range once, not once per page of it.
        let tagSummaries = map.tags.map { ItemSummary($0.items) }
        if let index = map.tagIndexPage {
            pages.append(page(.tagIndex, index) { h in
                for (tag, summary) in zip(map.tags, tagSummaries) { tagCard(tag, summary, &h) }
            })
        }
        for (t, tag) in map.tags.enumerated() {
            for number in tag.pages.indices { pages.append(tagPage(.tag(t, page: number), tag, tagSummaries[t], number: number)) }
        }
        if let favourites = map.favourites {
            let summary = ItemSummary(favourites.items)
            for number in favourites.pages.indices { pages.append(tagPage(.favourites(page: number), favourites, summary, number: number)) }
        }
        pages += placePages()
        pages += peoplePages()
        pages.append(page(.search, "search/index.html") { _ in })
        let everything = everythingDigest()
        pages.append(page(.searchIndex, "search/index.js") { h in h.add(everything) })
        // A result shows an item as a thumbnail does (its digest and page): each month's files have their own fingerprint.
        // Months on every core: every item of the timeline is looked up in `shown`, twice (here and on this day).
        let searchMonths = map.searchMonths
        pages += parallelMap(Array(searchMonths.indices), minimumCount: 2) { number in
            let month = searchMonths[number]
            return planner.page(.searchDocuments(month: number), SearchMonth.file(slot: month.slot, part: 0)) { h in
                h.add(month.items.count)
                for item in month.items { planner.feedItem(item, &h) }
            }
        }
        if !options.baseURL.isEmpty {
            pages.append(page(.sitemap, "sitemap.xml") { h in h.add(everything) })
        }
        pages.append(page(.feed, "feed.xml") { h in h.add(everything) })
        // Each month's "On this day" from exactly the photos it lists.
        let onThisDay = map.onThisDay
        pages += parallelMap(Array(onThisDay.indices), minimumCount: 2) { number in
            let month = onThisDay[number]
            return planner.page(.onThisDay(month: number), OnThisDayMonth.file(month: month.month)) { h in
                for day in month.days {
                    h.add(day.key)
                    for (year, items) in day.years {
                        h.add(year)
                        h.add(items.count)
                        for item in items { planner.feedItem(item, &h) }
                    }
                }
            }
        }
        // The albums' pages, then the rest.
        return PlannedPages(albumRuns.flatMap { $0 } + [.pages(pages)])
    }

    func albumPage(_ album: Album, rows: AlbumRows, paths: [String], number: Int, cover: MediaItem?) -> PlannedPage {
        let path = album.path
        return page(.album(page: number), paths[number], album: path) { h in
            h.add(path.isRoot)
            h.add(gallery.title(of: path))
            h.add(album.description ?? "-")
            summaries[path, default: ItemSummary()].feed(&h)
            if let cover { feedItem(cover, &h) } else { h.add("-") }
            h.add(path.parent.flatMap { crumbs[$0] } ?? .zero)
            pager(paths, &h)
            let range = map.albumPhotoRanges[path]?[number] ?? 0..<0
            h.add(range.count)
            for index in range where album.photos[index].stack.isListed { h.add(rows.listed[index]) }
            if let download = downloads[path] {
                h.add(download.path)
                h.add(Int(download.bytes))
            } else {
                h.add("-")
            }
            guard number == 0 else { return }
            for child in gallery.lockedChildren(of: path) { h.add(map.albumPages[child]?.first ?? "-") }
            for child in gallery.listedChildren(of: path) {
                h.add(gallery.title(of: child))
                h.add(map.albumPages[child]?.first ?? "-")
                summaries[child, default: ItemSummary()].feed(&h)
                if let cover = gallery.cover(of: child) { feedItem(cover, &h) } else { h.add("-") }
            }
        }
    }

    func itemPage(_ album: Album, rows: AlbumRows, albumDigest: StableHash.Digest, paths: [String], index: Int, place: PhotoPlace) -> PlannedPage {
        let item = album.photos[index]
        return page(.item(index: index), place.pagePath, album: album.path) { h in
            h.add(rows.listed[index])  // the item, its page and its anchor
            h.add(albumDigest)
            h.add(paths[min(paths.count - 1, place.albumPage)])
            for keyword in map.keywords(of: item) { h.add(map.tagPageByKey[SiteMap.tagKey(keyword)] ?? "-") }
            h.add(item.metadata.place.flatMap { map.placePageByKey[$0.key] } ?? "-")
            // Previous and next (tiles: a stack is stepped over) are linked; next, previous and after-next preloaded.
            let next = album.nextTile(after: index)
            for i in [album.previousTile(before: index), next, next.flatMap { album.nextTile(after: $0) }] {
                if let i { h.add(rows.shown[i]) } else { h.add("-") }
            }
            // Its stack's strip.
            let strip = album.stackStrip(at: index), stack = album.stackRange(at: index)
            h.add(stack.count)
            h.add(index - stack.lowerBound)
            h.add(strip.lowerBound - stack.lowerBound)
            h.add(strip.count)
            for i in strip {
                h.add(rows.shown[i])
                if let place = photoPlace(rows, i) { h.add(place.pagePath) } else { h.add("-") }
            }
        }
    }
}
