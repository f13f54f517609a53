import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import Planning
@testable import GalleryKit
@testable import Rendering

/// Moments at the scale of a lifetime: the year → month index, the years
/// page, pages that start with a month, quiet days sharing rows, and place
/// names only when asked.
@Suite struct MomentsTests {
    /// `count` photos a day on each of `days` ("2024:05:01"), in album `album`.
    static func photos(_ days: [(String, Int)], album: String = "a") -> [MediaItem] {
        days.flatMap { day, count in
            (0..<count).map { i in samplePhoto("\(album)/\(day.replacingOccurrences(of: ":", with: ""))-\(i).jpg", "\(day) \(String(format: "%02d", 8 + i % 12)):\(String(format: "%02d", i % 60)):00") }
        }
    }

    static func site(_ items: [MediaItem], perPage: Int = 120, configure: (inout Settings) -> Void = { _ in }) throws -> SiteRenderer {
        var options = Settings()
        options.photosPerPage = perPage
        configure(&options)
        let gallery = Gallery.assemble(title: "T", photos: items, sidecars: [:], options: options)
        return SiteRenderer(theme: try Theme.load("default", language: options.language), gallery: gallery, options: options)
    }

    @Test func pagesPreferToStartWithAMonth() {
        // Budget 10: 8 photos in, a 3-photo section of a new month starts a fresh page
        // (it would fit only cut in two); the same section in the same month is cut.
        let newMonth = PageSplitter.pages(sectionSizes: [4, 4, 3, 2], budget: 10, monthStarts: [true, false, true, false])
        #expect(newMonth.map { $0.map(\.section) } == [[0, 1], [2, 3]])
        let sameMonth = PageSplitter.pages(sectionSizes: [4, 4, 3, 2], budget: 10, monthStarts: [true, false, false, false])
        #expect(sameMonth.map { $0.map(\.section) } == [[0, 1, 2], [2, 3]])
        // Less than three quarters full: the month starts where it is.
        let early = PageSplitter.pages(sectionSizes: [4, 3, 3], budget: 10, monthStarts: [true, true, true])
        #expect(early.map { $0.map(\.section) } == [[0, 1, 2]])
    }

    /// Every month of `items` is linked from the index to a page and anchor
    /// whose section starts with (or holds) that month's photos.
    @Test(arguments: [SortDirection.descending, .ascending])
    func everyMonthLinksToItsFirstSection(order: SortDirection) throws {
        var days: [(String, Int)] = []
        for month in [1, 2, 3, 5, 8, 12] { for day in [3, 17] { days.append(("2023:\(String(format: "%02d", month)):\(day)", month)) } }
        days += [("2024:01:01", 30), ("2024:01:02", 2), ("2024:07:14", 5)]
        let renderer = try Self.site(Self.photos(days), perPage: 10) { $0.momentOrder = order }
        let map = renderer.map
        #expect(map.timelineYears.map(\.year) == (order == .descending ? [2024, 2023] : [2023, 2024]))
        #expect(map.momentsByYear, "long enough to be cut by year: other years' months have month pages")
        #expect(map.timelineYears.reduce(0) { $0 + $1.items } == days.reduce(0) { $0 + $1.1 })
        let model = renderer.momentsPage(0)
        let months = model.years.flatMap(\.months)
        #expect(months.count == 24, "twelve months a year, empty ones too")
        for month in months {
            let items = map.timelineYears.first { String($0.year) == month.key.prefix(4) }!.months[Int(month.key.suffix(2))! - 1].items
            guard let href = month.href else {
                #expect(items == 0, "\(month.key) has photos but no link")
                continue
            }
            // `#m-YYYY-MM`, an id the linked page carries (no script goes
            // looking). Another year's month is linked to its month page
            // (moments/YYYY/MM.html), which refreshes at once to that address.
            var (page, anchor) = (String(href.split(separator: "#")[0]), href.split(separator: "#").dropFirst().first.map(String.init))
            let year = Int(month.key.prefix(4))!
            if year != map.momentPageYears[0] {
                #expect(anchor == nil && href == "\(month.key.prefix(4))/\(month.key.suffix(2)).html", "\(href)")
                let n = try #require(map.momentMonthPages.firstIndex { $0.path == "moments/" + href })
                let monthPage = try renderer.renderMonthPage(n)
                let way = URLPath.relative(from: map.momentMonthPages[n].path, to: map.momentMonthPages[n].target) + "#m-" + month.key
                #expect(monthPage.contains("<meta http-equiv=\"refresh\" content=\"0; url=\(way)\">") && monthPage.contains("<a href=\"\(way)\">"))
                (page, anchor) = (String(map.momentMonthPages[n].target.dropFirst("moments/".count)), "m-" + month.key)
            }
            #expect(anchor == "m-" + month.key)
            #expect(!page.contains(where: \.isNumber) || page.contains("/p") || page.hasSuffix("/index.html"), "a page number never reads as a month: \(page)")
            let number = map.momentPages.firstIndex { $0.hasSuffix("/" + page) }!
            let html = try renderer.renderMomentsPage(number)
            #expect(html.contains("data-month=\"\(month.key)\"") && html.contains("id=\"m-\(month.key)\""), "\(month.key): \(href) shows nothing of that month")
            // The page holds the first section of that month in page order.
            let first = map.moments.firstIndex { $0.photos.contains { $0.metadata.captureDate.localDay.description.hasPrefix(month.key) } }!
            #expect(map.momentSectionPage[first] == number)
            #expect(html.contains("id=\"\(map.momentAnchors[first])\""))
        }
        // The years page links every year and month the same way, with a cover.
        let years = renderer.yearsPage()
        #expect(years.years.allSatisfy { $0.cover != nil })
        #expect(years.years.flatMap(\.months).compactMap(\.href).count == months.compactMap(\.href).count)
        #expect(years.countLabel == "\(days.reduce(0) { $0 + $1.1 }) photos in 2 years")
    }

    @Test func theRailMarksThisPagesMonthsAndUnfoldsTheirYear() throws {
        let renderer = try Self.site(Self.photos([("2023:03:01", 8), ("2024:06:01", 8), ("2024:05:01", 8)]), perPage: 8)
        let html = try renderer.renderMomentsPage(0)  // newest first: June 2024
        #expect(html.contains("data-month=\"2024-06\" aria-current=\"true\""))
        #expect(!html.contains("data-month=\"2024-05\" aria-current"))
        #expect(html.contains("<details class=\"index-year\" name=\"index-year\" open>"))
        #expect(html.components(separatedBy: " open>").count - 1 == 1, "only this page's year unfolds")
        #expect(html.contains("<span class=\"index-empty\">Jan</span>"), "an empty month is not a link")
        #expect(html.contains("href=\"years.html\""))
        #expect(html.contains("<span class=\"moments-here\">June 2024</span>"))
    }

    @Test func quietDaysShareRowsBusyDaysKeepTheirBlock() throws {
        let renderer = try Self.site(Self.photos([("2024:05:01", 2), ("2024:05:02", 1), ("2024:05:04", 3), ("2024:05:05", 20), ("2024:05:09", 1)]))
        let model = renderer.momentsPage(0)
        // Newest first: 9 May alone (a quiet day between a busy day and the end) keeps a block,
        // 5 May (20 photos) its block, 4, 2 and 1 May share one grid.
        #expect(model.blocks.map { $0.section != nil ? "section" : "run" } == ["section", "section", "run"])
        let run = try #require(model.blocks[2].run)
        #expect(run.photos.count == 6)
        #expect(run.photos.compactMap(\.dayLabel).map(\.datetime) == ["2024-05-04", "2024-05-02", "2024-05-01"])
        #expect(run.photos.compactMap(\.dayLabel).map(\.text) == ["May 4, 2024", "May 2, 2024", "May 1, 2024"])
        #expect(run.photos[0].dayLabel?.title == "Saturday, May 4, 2024, 3 photos")
        let html = try renderer.renderMomentsPage(0)
        #expect(html.contains("<h2 class=\"day-label\" id=\"d-2024-05-04\" data-month=\"2024-05\""))
        #expect(html.contains("<section class=\"moment\" data-month=\"2024-05\" id=\"d-2024-05-05\">"))
        // Every picture keeps its size attributes; every id is unique.
        let images = html.components(separatedBy: "<img ").dropFirst()
        #expect(images.count == 27 && images.allSatisfy { $0.contains(" width=\"") && $0.contains(" height=\"") })
        let ids = html.matches(of: /id="([^"]+)"/).map { String($0.1) }
        #expect(Set(ids).count == ids.count, "duplicate ids: \(ids)")
    }

    @Test func placesAreNamedOnlyWhenAsked() throws {
        var items = Self.photos([("2025:05:03", 3), ("2025:05:04", 2), ("2025:05:10", 1)])
        for i in items.indices { items[i].metadata.place = i < 2 ? Place(name: "Kyoto") : (i < 3 ? Place(name: "Osaka") : nil) }
        items[3].metadata.place = Place(name: "Nara")
        let off = try Self.site(items)
        let offHTML = try off.renderMomentsPage(0) + ItemPageBuilder(inputs: off.inputs).render(off.gallery.albums[AlbumPath(components: ["a"])]!, index: 0, pagePath: "albums/a/x.html")
        for word in ["Kyoto", "Osaka", "Nara", "GeoNames"] { #expect(!offHTML.contains(word), "\(word) published with moment_places off") }
        let on = try Self.site(items) { $0.momentPlaces = true }
        let html = try on.renderMomentsPage(0)
        #expect(html.contains("title=\"Kyoto &amp; Osaka · Saturday, May 3, 2025, 3 photos\""))
        #expect(html.contains(">Kyoto &amp; Osaka</a> · <time datetime=\"2025-05-03\">May 3, 2025</time>"))
        #expect(html.contains(">Nara</a> · <time datetime=\"2025-05-04\">May 4, 2025</time>"))
        #expect(html.contains(">May 10, 2025</time>"), "no GPS: no name")
        #expect(html.contains("https://www.geonames.org/"), "GeoNames is credited where its names are shown")
        // Places are words of the search index only when published.
        let indexed = SearchIndexWriter(inputs: on.inputs).searchIndex().map(\.text).joined()
        #expect(indexed.contains("kyoto") || indexed.contains("Kyoto"))
        #expect(!SearchIndexWriter(inputs: off.inputs).searchIndex().map(\.text).joined().lowercased().contains("kyoto"))
    }

    /// A token's numbers, read as search.js reads them (slot, then the
    /// month's file and place), give the timeline's order either way it runs;
    /// each month's items are in its own files.
    @Test(arguments: [SortDirection.descending, .ascending])
    func searchNumbersFollowTheTimeline(order: SortDirection) throws {
        let renderer = try Self.site(Self.photos([("2024:05:10", 55), ("2024:05:02", 3), ("2024:03:01", 2), ("2023:12:31", 1)])) {
            $0.momentOrder = order
        }
        let files = Dictionary(uniqueKeysWithValues: SearchIndexWriter(inputs: renderer.inputs).searchIndex().map { ($0.path, $0.text) })
        func json(_ path: String, after prefix: String) throws -> Any {
            let text = try #require(files[path])
            let body = text.dropFirst(prefix.count).dropLast(3)  // ");\n"
            return try JSONSerialization.jsonObject(with: Data(("[" + body + "]").utf8))
        }
        let manifest = try #require((try json("search/index.js", after: "gallerygenSearch.manifest(") as? [Any])?.first as? [String: Any])
        let month = try #require(manifest["month"] as? Int), chunk = try #require(manifest["chunk"] as? Int)
        #expect(manifest["count"] as? Int == 61)
        // Every item's words hold its album's name, "a".
        let tokens = try #require((try json("search/t-61.js", after: "gallerygenSearch.tokens(") as? [Any])?.last as? [String: String])
        var number = 0
        let numbers = try #require(tokens["a"]).split(separator: ",").map { gap in number += Int(gap, radix: 36)!; return number }
        let pages = try numbers.map { n -> String in
            let slot = n / month, place = n % month
            let path = "search/d-\(slot)-\(place / chunk).js"
            let list = try #require((try json(path, after: "gallerygenSearch.docs(\"\(slot)-\(place / chunk)\",") as? [Any])?.first as? [[Any]])
            return try #require(list[place % chunk][0] as? String)
        }
        #expect(pages == renderer.plan.map.timelineItems.map { renderer.plan.map.photoPlaces[$0.source.relativePath]!.page })
        // Three months; May's 58 items in two files.
        #expect(files.keys.filter { $0.hasPrefix("search/d-") }.count == 4)
    }

    @Test func daysAndMonthsAreISO() {
        #expect(LocalDay(year: 2024, month: 5, day: 3).monthDescription == "2024-05")
        #expect(LocalDay(year: 987, month: 12, day: 1).monthDescription == "0987-12")
        #expect(LocalDay(year: 2024, month: 5, day: 3).description == "2024-05-03")
        #expect(LocalDay(year: 2024, month: 11, day: 30).description == "2024-11-30")
    }

    @Test func countsAreGroupedInThousands() throws {
        let site = try Self.site([])
        #expect(site.count(items: 30_000, videos: 1_234) == "28,766 photos, 1,234 videos")
        #expect(site.strings.grouped(999) == "999" && site.strings.grouped(1000) == "1,000" && site.strings.grouped(1_234_567) == "1,234,567")
        let french = try Self.site([]) { $0.language = "fr" }
        #expect(french.count(items: 30_000, videos: 1) == "29\u{202F}999 photos, 1 vidéo")
        #expect(french.count(items: 1, videos: 0) == "1 photo" && french.count(items: 0, videos: 0) == "0 photo")
    }

    /// A real build with GPS photos: place names appear when the setting is
    /// turned on (the files' GPS read again, nothing re-encoded), and vanish
    /// when it is turned off; coordinates are never published or cached.
    @Test func placesFollowTheSettingAcrossBuilds() async throws {
        let folder = try TemporaryFolder()
        let kyoto = (latitude: 35.0394, longitude: 135.7292), osaka = (latitude: 34.6873, longitude: 135.5262)
        for (i, (place, time)) in [(kyoto, "09:00"), (kyoto, "10:00"), (osaka, "18:00")].enumerated() {
            let exif = Fixtures.cameraExif(original: "2025:05:03 \(time):00", offset: "+09:00", location: place)
            try folder.write("src/Japan/p\(i).jpg", try IncrementalTests.photo(i, exif: exif))
        }
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 64, height: 48)], previewBoxes: [PixelSize(width: 128, height: 96)], jobs: 2)
        let moments = folder.url.appendingPathComponent("out/moments/index.html")
        func everything() throws -> String {
            let out = folder.url.appendingPathComponent("out")
            return try FileManager.default.subpathsOfDirectory(atPath: out.path).compactMap { relative -> String? in
                // Files with bytes only: Foundation's contents(atPath:) leaks its
                // buffer when given a folder or an empty file (the build lock).
                let path = out.appendingPathComponent(relative).path
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                      attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? Int ?? 0) > 0,
                      let data = FileManager.default.contents(atPath: path) else { return nil }
                return String(decoding: data, as: UTF8.self)
            }.joined()
        }
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(!(try everything()).contains("Kyoto"))

        settings.momentPlaces = true
        let before = try IncrementalTests.snapshot(settings.output)
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.renditionsMade == 0, "turning places on re-reads the GPS, it re-encodes nothing")
        let written = IncrementalTests.changed(before, try IncrementalTests.snapshot(settings.output)).written
        #expect(!written.contains { $0.hasPrefix("media/") })
        let page = try String(contentsOf: moments, encoding: .utf8)
        #expect(page.contains("Kyoto &amp; Osaka · Saturday, May 3, 2025"))
        #expect(try String(contentsOf: folder.url.appendingPathComponent("out/albums/japan/p0.html"), encoding: .utf8).contains(">Kyoto, Japan</a></dd>"))
        let state = try Data(contentsOf: BuildState.location(in: BuildSettings.defaultStateFolder(for: folder.url.appendingPathComponent("out"))))
        let site = try everything()
        for coordinate in ["35.03", "135.72", "34.68"] { #expect(!site.contains(coordinate), "\(coordinate) published") }
        #expect(!String(decoding: state, as: UTF8.self).contains("35.03"))
        // A no-op rebuild keeps the names from the cache.
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(try String(contentsOf: moments, encoding: .utf8).contains("Kyoto &amp; Osaka"))

        settings.momentPlaces = false
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(!(try everything()).contains("Kyoto"), "turned off: no place name anywhere, the build state included")
    }
}

/// Moments pages never span years and are named by year, so a photo added
/// to one year renders that year's pages (and the first page, which counts
/// the whole timeline), never the pages of other years.
@Suite struct MomentsByYearTests {
    @Test func aPhotoAddedToOneYearRendersOnlyThatYearsPages() async throws {
        let folder = try TemporaryFolder()
        var seed = 0
        for year in [2021, 2022, 2023] {
            for day in 1...10 {
                seed += 1
                try folder.write("src/Y\(year)/p\(day).jpg",
                                 try IncrementalTests.photo(seed, exif: IncrementalTests.exif("\(year):0\(day % 9 + 1):1\(day % 9) 12:00:00")))
            }
        }
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 64, height: 48)], previewBoxes: [PixelSize(width: 128, height: 96)], jobs: 2)
        settings.photosPerPage = 3
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = folder.url.appendingPathComponent("out")
        func momentsFiles() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: out.appendingPathComponent("moments").path).filter { $0.hasSuffix(".html") }.sorted()
        }
        // Newest year first: its first page is index.html, the others are in
        // their year's folder (a page number as p2, never read as a month),
        // beside a page for each month with photos.
        let moments = try momentsFiles()
        #expect(moments.contains("index.html") && moments.contains("2023/p2.html") && moments.contains("2022/index.html") && moments.contains("2021/index.html"))
        #expect(!moments.contains { $0.hasPrefix("index-") || $0.hasPrefix("2023/index") })
        #expect(moments.filter { $0.hasPrefix("2022/") && !$0.contains("index") && !$0.contains("/p") }.sorted()
                == (1...9).map { "2022/0\($0).html" }, "\(moments)")
        let before = try IncrementalTests.snapshot(settings.output)
        try folder.write("src/Y2022/added.jpg", try IncrementalTests.photo(99, exif: IncrementalTests.exif("2022:05:20 12:00:00")))
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        let written = IncrementalTests.changed(before, try IncrementalTests.snapshot(settings.output)).written.filter { $0.hasPrefix("moments/") && $0.hasSuffix(".html") }
        #expect(!written.isEmpty && written.allSatisfy { $0 == "moments/index.html" || $0 == "moments/years.html" || $0.hasPrefix("moments/2022") }, "\(written.sorted())")
        let pagesOf2022 = try momentsFiles().count { $0.hasPrefix("2022/index") || $0.hasPrefix("2022/p") }
        // 2022's moments pages, the first page, the years page, the album's pages and the new item's neighbours.
        // Besides them: the album's 4 pages, the new item and its neighbours, the home page's card, the years page.
        #expect(pagesOf2022 == 4 && report.pagesRendered <= 20, "rendered \(report.pagesRendered) of \(report.pages)")
        // And the site is the clean build's.
        let clean = try TemporaryFolder()
        try FileManager.default.copyItem(at: folder.url.appendingPathComponent("src"), to: clean.url.appendingPathComponent("src"))
        var cleanSettings = settings
        cleanSettings.source = clean.url.appendingPathComponent("src")
        cleanSettings.output = clean.url.appendingPathComponent("out")
        _ = try await GalleryBuilder().build(settings: cleanSettings, quiet: true)
        let a = try IncrementalTests.snapshot(settings.output).mapValues(\.bytes), b = try IncrementalTests.snapshot(cleanSettings.output).mapValues(\.bytes)
        #expect(a == b)
    }
}
