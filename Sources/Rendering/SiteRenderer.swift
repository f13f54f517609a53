import Foundation
import GalleryCore
import Planning

/// Renders the site's pages from the theme's templates: each planned page
/// goes to the builder of its kind (`AlbumPageBuilder`, `ItemPageBuilder`,
/// `MomentsPageBuilder`, `TagPageBuilder`, `SitemapWriter`,
/// `SearchIndexWriter`, `FeedWriter`). Every value reaches the HTML through
/// the templates' escaping `{{ }}` (only the description, produced by the
/// escaping Markdown renderer, uses `{{{ }}}`); URLs are percent-encoded
/// relative paths, so the site works from any folder, sub-path or `file://`.
public struct SiteRenderer: Sendable, PageBuilding {
    /// The templates.
    public let theme: Theme
    /// The content.
    public let gallery: Gallery
    /// Page options.
    public let options: Settings
    /// Page locations.
    public let map: SiteMap
    /// Each album's download (`album_downloads`), made before the pages.
    public let downloads: [AlbumPath: AlbumDownload]
    /// The site's words in its language (the theme's).
    public var strings: SiteStrings { theme.strings }

    /// The plan: every page and its fingerprint.
    public let plan: SitePlan
    /// What every builder reads.
    public let inputs: PageInputs
    /// The private albums' sealers, by their vault's folder: a page there is
    /// published as its locked page.
    public var sealers: [String: PageSealer] = [:]
    /// Makes a person's avatar files (the build's: it reads the photo and
    /// knows what OUT holds); nil: the People page shows initials.
    public var avatarMaker: AvatarMaker?
    /// The search index's manifest and token files, when made already (`searchIndexFiles(theme:gallery:options:map:)`).
    public var searchIndexFiles: Eventually<[(path: String, text: String)]>?

    /// The search index's manifest and token files, made from the site's
    /// layout alone (they show no album's count line nor download), so they
    /// can be made while the pages are fingerprinted.
    public static func searchIndexFiles(theme: Theme, gallery: Gallery, options: Settings, map: SiteMap) -> [(path: String, text: String)] {
        SearchIndexWriter(inputs: PageInputs(theme: theme, gallery: gallery, options: options, map: map, downloads: [:], albumSummaries: [:]))
            .manifestAndTokens()
    }

    /// Creates a renderer for `gallery`, planning its site here.
    public init(theme: Theme, gallery: Gallery, options: Settings, downloads: [AlbumPath: AlbumDownload] = [:]) {
        self.init(theme: theme, plan: SitePlan(gallery: gallery, options: options, downloads: downloads), options: options, downloads: downloads)
    }

    /// Creates a renderer for a planned site.
    public init(theme: Theme, plan: SitePlan, options: Settings, downloads: [AlbumPath: AlbumDownload] = [:]) {
        self.downloads = downloads
        self.theme = theme
        self.gallery = plan.gallery
        self.options = options
        self.map = plan.map
        self.plan = plan
        self.inputs = PageInputs(theme: theme, gallery: plan.gallery, options: options, map: plan.map, downloads: downloads,
                                 albumSummaries: plan.albumSummaries)
    }

    /// Every page of the site: album pages, photo pages, moments pages.
    public func pages() throws -> [RenderedPage] {
        var pages: [RenderedPage] = []
        try forEachPage { pages.append($0) }
        return pages
    }

    /// Renders the pages one at a time, in order, and hands each to `body`.
    /// A template that fails throws a `ThemeError` naming it; what `body` throws passes through.
    public func forEachPage(_ body: (RenderedPage) throws -> Void) throws {
        for job in pageJobs() {
            for page in try job.render() { try body(page) }
        }
    }

    /// The site's pages as independent pieces of work, so a build can render
    /// them on every core and never hold all the HTML in memory at once.
    public func pageJobs() -> [PageJob] { plan.pages.map(job) }

    /// The work of making one planned page (or group of files).
    public func job(_ page: PlannedPage) -> PageJob {
        let path = page.id
        let sealer = sealers.isEmpty ? nil : sealers.first { path.hasPrefix($0.key) }?.value
        let inputs = self.inputs
        func one(_ kind: PageJob.Kind, _ render: @escaping @Sendable () throws(ThemeError) -> String) -> PageJob {
            guard let sealer else { return PageJob(kind: kind) { () throws(ThemeError) in [RenderedPage(path: path, html: try render())] } }
            return PageJob(kind: kind) { () throws(ThemeError) in
                guard let sealed = sealer(try render(), path) else { throw ThemeError.renderFailed(name: "locked", reason: "\(path) could not be encrypted") }
                return [RenderedPage(path: path, html: try LockedPageBuilder(inputs: inputs).render(path, sealed: sealed))]
            }
        }
        switch page.kind {
        case let .album(number):
            return one(.album) { () throws(ThemeError) in
                // A planned album exists: the plan was made from this gallery.
                guard let albumPath = page.album, let album = gallery.albums[albumPath] else { return "" }
                // Its items and its listed albums', summed once by the plan (not per page).
                let summary = plan.albumSummaries[albumPath] ?? ItemSummary()
                return try AlbumPageBuilder(inputs: inputs).render(album, number: number, summary: (count: count(summary), dates: dateRange(summary)))
            }
        case let .item(index):
            return one(.item) { () throws(ThemeError) in
                guard let albumPath = page.album, let album = gallery.albums[albumPath] else { return "" }
                return try ItemPageBuilder(inputs: inputs).render(album, index: index, pagePath: path)
            }
        case let .moments(number):
            return one(.moments) { () throws(ThemeError) in try renderMomentsPage(number) }
        case let .momentsMonth(n):
            return one(.moments) { () throws(ThemeError) in try renderMonthPage(n) }
        case .years:
            return one(.moments) { () throws(ThemeError) in try theme.render("years", yearsPage()) }
        case .tagIndex:
            return one(.tag) { () throws(ThemeError) in try theme.render("tags", TagPageBuilder(inputs: inputs).tagIndexPage(path)) }
        case let .tag(t, number):
            return one(.tag) { () throws(ThemeError) in try theme.render("album", TagPageBuilder(inputs: inputs).tagPage(map.tags[t], number: number)) }
        case let .favourites(number):
            return one(.tag) { () throws(ThemeError) in
                guard let favourites = map.favourites else { return "" }
                return try theme.render("album", TagPageBuilder(inputs: inputs).tagPage(favourites, number: number, section: "favourites"))
            }
        case .placeIndex:
            return one(.place) { () throws(ThemeError) in try theme.render("places", PlacePageBuilder(inputs: inputs).placeIndexPage(path)) }
        case let .place(p, number):
            return one(.place) { () throws(ThemeError) in try theme.render("album", PlacePageBuilder(inputs: inputs).placePage(map.places[p], number: number)) }
        case .map:
            return one(.place) { () throws(ThemeError) in try theme.render("map", PlacePageBuilder(inputs: inputs).mapPage(path)) }
        case .peopleIndex:
            return PageJob(kind: .people) { [avatarMaker] () throws(ThemeError) in
                var files: [RenderedPage] = []
                var builder = PeoplePageBuilder(inputs: inputs)
                // Each missing avatar is a photo read and decoded: on every core, not one after another.
                let made = parallelMap(map.people, minimumCount: 2) { person -> AvatarFiles in
                    guard let avatar = person.avatar, let item = person.avatarItem else { return .unavailable }
                    return avatarMaker?(item, avatar) ?? .unavailable
                }
                for (person, outcome) in zip(map.people, made) {
                    guard let avatar = person.avatar else { continue }
                    switch outcome {
                    case .inOutput: files += avatar.paths.map { RenderedPage(keeping: $0) }
                    case .made(let encoded): files += zip(avatar.paths, encoded).map { RenderedPage(path: $0.0, bytes: $0.1) }
                    case .unavailable: builder.withoutFace.insert(person.key)
                    }
                }
                return [RenderedPage(path: path, html: try theme.render("people", builder.peopleIndexPage(path)))] + files
            }
        case let .person(p, number):
            return one(.people) { () throws(ThemeError) in try theme.render("album", PeoplePageBuilder(inputs: inputs).personPage(map.people[p], number: number)) }
        case .search:
            return one(.search) { () throws(ThemeError) in try theme.render("search", SearchIndexWriter(inputs: inputs).searchPage()) }
        case .searchIndex:
            // Taken, not read: the files' text (21 MB at 1,000,000 items) is let
            // go once written, not held to the step's end, its peak.
            return PageJob(kind: .search) { [searchIndexFiles] () throws(ThemeError) in
                (searchIndexFiles?.take() ?? SearchIndexWriter(inputs: inputs).manifestAndTokens()).map { RenderedPage(path: $0.path, html: $0.text) }
            }
        case let .searchDocuments(month):
            return PageJob(kind: .search) { () throws(ThemeError) in
                SearchIndexWriter(inputs: inputs).documents(month: month).map { RenderedPage(path: $0.path, html: $0.text) }
            }
        case .sitemap:
            return PageJob(kind: .sitemap) { () throws(ThemeError) in SitemapWriter(inputs: inputs).sitemapFiles() }
        case .feed:
            return PageJob(kind: .sitemap) { () throws(ThemeError) in [FeedWriter(inputs: inputs).feedFile()] }
        case let .onThisDay(month):
            return PageJob(kind: .sitemap) { () throws(ThemeError) in [OnThisDayWriter(inputs: inputs).daysFile(month)] }
        }
    }

    /// Written only when OUT has no robots.txt of the user's own.
    public static let robotsFile = "robots.txt"

    /// Where the feed lives.
    public static let feedFile = "feed.xml"

    // The moments pages, as the tests look at them.
    func momentsPage(_ number: Int) -> MomentsPageModel { MomentsPageBuilder(inputs: inputs).momentsPage(number) }
    func renderMomentsPage(_ number: Int) throws(ThemeError) -> String { try MomentsPageBuilder(inputs: inputs).renderMomentsPage(number) }
    func yearsPage() -> YearsPageModel { MomentsPageBuilder(inputs: inputs).yearsPage() }
    func renderMonthPage(_ n: Int) throws(ThemeError) -> String { try theme.render("moments-month", MomentsPageBuilder(inputs: inputs).monthPage(n)) }
}
