import Synchronization
import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Planning
@testable import Rendering

@Suite struct SectioningTests {
    /// parallelMap hands out runs to helper threads: the results are in
    /// order, every one made once, whatever the threads' timing (and it is
    /// called from inside a concurrentPerform worker, as a page job is).
    /// Digests are written as hex nibble by nibble: the same digits as
    /// formatting each half in radix 16, zero-padded (every file name and
    /// cache key depends on them).
    @Test func digestHexIsRadixSixteenPadded() {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<2_000 {
            let digest = index == 0 ? StableHash.Digest.zero
                : StableHash.Digest(high: index == 1 ? .max : generator.next() >> (generator.next() % 64),
                                    low: generator.next() >> (generator.next() % 64))
            let h = String(digest.high, radix: 16), l = String(digest.low, radix: 16)
            let reference = String(repeating: "0", count: 16 - h.count) + h + String(repeating: "0", count: 16 - l.count) + l
            #expect(digest.description == reference)
            #expect(digest.hex(digits: 20) == String(reference.prefix(20)))
        }
    }

    /// A plan's pages held in runs read as one list: by index (each run's
    /// first and last, across empty runs) and in order.
    @Test func plannedPagesAreTheirRunsInOrder() {
        func page(_ n: Int) -> PlannedPage { PlannedPage(kind: .album(page: n), album: nil, id: "\(n).html", fingerprint: .zero) }
        for lengths in [[], [0], [0, 0], [1], [2, 0, 1, 3, 0], [0, 5], [1, 1, 1, 1, 1, 1, 1], [100, 0, 7, 33]] {
            var next = 0
            let runs = lengths.map { length in (0..<length).map { _ in defer { next += 1 }; return page(next) } }
            let pages = PlannedPages(runs)
            #expect(pages.count == next)
            #expect(pages.indices.map { pages[$0].id } == (0..<next).map { "\($0).html" }, "\(lengths)")
            #expect(Array(pages).map(\.id) == (0..<next).map { "\($0).html" }, "\(lengths)")
        }
    }

    /// An album's item pages, held as their items' indices, places and
    /// fingerprints, read as the pages they stand for, among whole runs.
    @Test func itemRunsReadAsTheirPages() {
        let album = AlbumPath(components: ["trip"])
        let places = (0..<6).map { PhotoPlace(pagePath: PagePath(folder: "trip/", name: "img-\($0)"), anchorSlug: "img-\($0)", albumPage: $0 / 4) }
        func digest(_ n: Int) -> StableHash.Digest { var h = StableHash(); h.add(n); return h.digest() }
        var items = PlannedPages.ItemRun(album: album, places: places)
        for (index, place) in [(1, 5), (2, 0), (4, 3)] { items.entries.append(.init(index: Int32(index), place: Int32(place), fingerprint: digest(index))) }
        let empty = PlannedPages.ItemRun(album: album, places: places)
        let pages = PlannedPages([.pages([PlannedPage(kind: .album(page: 0), album: album, id: "trip/index.html", fingerprint: .zero)]),
                                  .items(empty), .items(items), .pages([]),
                                  .pages([PlannedPage(kind: .search, album: nil, id: "search/index.html", fingerprint: .zero)])])
        let ids = ["trip/index.html", "trip/img-5.html", "trip/img-0.html", "trip/img-3.html", "search/index.html"]
        #expect(pages.count == 5)
        #expect(pages.indices.map { pages[$0].id } == ids)
        #expect(Array(pages).map(\.id) == ids)
        #expect(pages.indices.map { pages[$0].kind } == [.album(page: 0), .item(index: 1), .item(index: 2), .item(index: 4), .search])
        #expect(pages[1 ... 3].map(\.fingerprint) == [digest(1), digest(2), digest(4)])
        #expect(pages[1 ... 3].allSatisfy { $0.album == album })
    }

    @Test func parallelMapIsMapOnEveryCore() {
        let input = Array(0..<20_000)
        for _ in 0..<20 {
            #expect(parallelMap(input) { $0 &* 31 &+ 7 } == input.map { $0 &* 31 &+ 7 })
        }
        let nested = Mutex<[[String]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { run in
            let made = parallelMap(input) { String($0 + run) }
            nested.withLock { $0.append(made) }
        }
        #expect(nested.withLock { $0.count } == 4)
        #expect(nested.withLock { $0.allSatisfy { $0.count == input.count } })
    }

    /// A value made on its own thread is read as often as asked, then
    /// handed over once: held no more after (its storage freed).
    @Test func anEventualValueIsTakenOnce() {
        final class Held: Sendable {}
        weak var watched: Held?
        let eventually = Eventually { () -> [Held] in [Held()] }
        #expect(eventually.value.count == 1)
        watched = eventually.value[0]
        do {
            let taken = eventually.take()
            #expect(taken?.count == 1 && eventually.take() == nil)
        }
        #expect(watched == nil, "nothing holds the value once taken and dropped")
    }

    @Test func groupsByTheLocalDayEvenAcrossTimeZones() {
        // 23:30 in Tokyo on the 10th is 14:30 UTC on the 10th; 00:30 in New York
        // on the 11th is 05:30 UTC on the 11th. Each stays on its own local day.
        let photos = [
            samplePhoto("a/tokyo.jpg", "2024:03:10 23:30:00", offset: "+09:00"),
            samplePhoto("a/ny.jpg", "2024:03:11 00:30:00", offset: "-05:00"),
            samplePhoto("b/london.jpg", "2024:03:10 09:00:00", offset: "+00:00"),
        ]
        let sections = MomentSectioner.sections(photos, grouping: .day, order: .ascending)
        #expect(sections.map(\.datetime) == ["2024-03-10", "2024-03-11"])
        #expect(sections[0].photos.map(\.source.fileName) == ["london.jpg", "tokyo.jpg"])
        #expect(sections[0].albums == [AlbumPath(components: ["b"]), AlbumPath(components: ["a"])])
        #expect(sections[1].photos.map(\.source.fileName) == ["ny.jpg"])
    }

    @Test func midnightBelongsToTheNewDay() {
        let photos = [samplePhoto("a/1.jpg", "2024:05:01 23:59:59"), samplePhoto("a/2.jpg", "2024:05:02 00:00:00")]
        let sections = MomentSectioner.sections(photos, grouping: .day, order: .ascending)
        #expect(sections.map(\.datetime) == ["2024-05-01", "2024-05-02"])
    }

    @Test func newestFirstReversesSectionsAndPhotos() {
        let photos = [samplePhoto("a/1.jpg", "2024:05:01 10:00:00"), samplePhoto("a/2.jpg", "2024:05:01 11:00:00"),
                      samplePhoto("a/3.jpg", "2024:05:03 09:00:00")]
        let sections = MomentSectioner.sections(photos, grouping: .day, order: .descending)
        #expect(sections.map(\.datetime) == ["2024-05-03", "2024-05-01"])
        #expect(sections[1].photos.map(\.source.fileName) == ["2.jpg", "1.jpg"])
    }

    @Test func missingDatesUseTheFileTime() {
        let noDate = samplePhoto("scans/old.jpg", nil, fileTime: Date(timeIntervalSince1970: 1_600_000_000))  // 2020-09-13 12:26 UTC
        let sections = MomentSectioner.sections([noDate], grouping: .day, order: .ascending)
        #expect(sections.map(\.datetime) == ["2020-09-13"])
    }

    @Test func daylightSavingNightStaysOneDay() {
        // Europe/Berlin springs forward at 02:00 on 2024-03-31: wall-clock times
        // before and after the jump (offsets +01:00 and +02:00) are one local day,
        // and ordered by their real instants.
        let photos = [samplePhoto("a/before.jpg", "2024:03:31 01:30:00", offset: "+01:00"),
                      samplePhoto("a/after.jpg", "2024:03:31 03:10:00", offset: "+02:00")]
        let sections = MomentSectioner.sections(photos, grouping: .day, order: .ascending)
        #expect(sections.count == 1)
        #expect(sections[0].photos.map(\.source.fileName) == ["before.jpg", "after.jpg"])
        // And a file time in that zone lands on the right local day after the switch.
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let date = CaptureDate(fileTime: Date(timeIntervalSince1970: 1_711_846_800), timeZone: zone)  // 01:00 UTC = 03:00 CEST
        #expect(date.localDay == LocalDay(year: 2024, month: 3, day: 31))
        #expect(date.wallClock.hour == 3)
    }

    @Test func monthAndGapGrouping() {
        let photos = [samplePhoto("a/1.jpg", "2024:05:01 10:00:00"), samplePhoto("a/2.jpg", "2024:05:01 12:00:00"),
                      samplePhoto("a/3.jpg", "2024:05:20 09:00:00"), samplePhoto("a/4.jpg", "2024:06:02 09:00:00")]
        #expect(MomentSectioner.sections(photos, grouping: .month, order: .ascending).map(\.datetime) == ["2024-05", "2024-06"])
        let gaps = MomentSectioner.sections(photos, grouping: .gap(hours: 3), order: .ascending)
        #expect(gaps.map { $0.photos.count } == [2, 1, 1])
        // A wide gap still spans days; a new month starts a section where the
        // pause is a third of the gap (13 days of 20), so June is not hidden in May.
        let wide = MomentSectioner.sections(photos, grouping: .gap(hours: 24 * 20), order: .ascending)
        #expect(wide.map { $0.photos.count } == [3, 1])
        #expect(wide[0].firstDay == LocalDay(year: 2024, month: 5, day: 1))
        #expect(wide[0].lastDay == LocalDay(year: 2024, month: 5, day: 20))
        #expect(wide[1].datetime == "2024-06-02")
        // A party across the turn of the month (a short pause) stays one section.
        let party = [samplePhoto("b/1.jpg", "2024:05:31 23:10:00"), samplePhoto("b/2.jpg", "2024:06:01 00:20:00")]
        #expect(MomentSectioner.sections(party, grouping: .gap(hours: 6), order: .ascending).count == 1)
    }

    @Test func duplicatesAcrossAlbumsAppearOnce() {
        let photos = [samplePhoto("z/copy.jpg", "2024:05:01 10:00:00", hash: "same"),
                      samplePhoto("a/original.jpg", "2024:05:01 10:00:00", hash: "same"),
                      samplePhoto("a/other.jpg", "2024:05:01 10:00:01", hash: "other")]
        let unique = MomentSectioner.unique(photos)
        #expect(unique.count == 2)
        #expect(unique.contains { $0.source.relativePath == "a/original.jpg" })
        #expect(!unique.contains { $0.source.relativePath == "z/copy.jpg" })
    }
}

@Suite struct PagingTests {
    @Test func flatPagesNeverExceedTheBudget() {
        #expect(PageSplitter.pages(count: 0, budget: 10) == [0..<0])
        #expect(PageSplitter.pages(count: 10, budget: 10) == [0..<10])
        #expect(PageSplitter.pages(count: 11, budget: 10) == [0..<10, 10..<11])
        #expect(PageSplitter.pages(count: 25, budget: 10).map(\.count) == [10, 10, 5])
    }

    @Test func sectionsSplitAndContinue() {
        let pages = PageSplitter.pages(sectionSizes: [6, 7, 3], budget: 10)
        for page in pages { #expect(page.reduce(0) { $0 + $1.range.count } <= 10) }
        // Every photo placed exactly once, in order.
        var placed: [Int: [Int]] = [:]
        for page in pages { for slice in page { placed[slice.section, default: []] += Array(slice.range) } }
        #expect(placed[0] == Array(0..<6) && placed[1] == Array(0..<7) && placed[2] == Array(0..<3))
        // Section 1 continues from page 1 onto page 2.
        #expect(pages[0].last?.section == 1 && pages[0].last?.continuesOnNext == true)
        #expect(pages[1].first?.section == 1 && pages[1].first?.continuesFromPrevious == true)
    }

    @Test func aSliverLeftStartsAFreshPage() {
        // 9 of 10 used: a 5-photo section is not split 1 + 4.
        let pages = PageSplitter.pages(sectionSizes: [9, 5], budget: 10)
        #expect(pages.count == 2)
        #expect(pages[1].first == SectionSlice(section: 1, range: 0..<5, continuesFromPrevious: false, continuesOnNext: false))
    }

    @Test func hugeSectionsSpanManyPages() {
        let pages = PageSplitter.pages(sectionSizes: [35], budget: 10)
        #expect(pages.map { $0[0].range.count } == [10, 10, 10, 5])
        #expect(pages.dropFirst().allSatisfy { $0[0].continuesFromPrevious })
        #expect(pages.dropLast().allSatisfy { $0[0].continuesOnNext })
    }

    @Test func albumPagesAndPhotoBackLinks() {
        let photos = (1...25).map { samplePhoto("trip/\($0).jpg", String(format: "2024:05:01 10:%02d:00", $0)) }
        var options = Settings()
        options.photosPerPage = 10
        let gallery = Gallery.assemble(title: "T", photos: photos, options: options)
        let map = SiteMap(gallery: gallery, options: options)
        let trip = AlbumPath(components: ["trip"])
        #expect(map.albumPages[trip] == ["albums/trip/index.html", "albums/trip/index-2.html", "albums/trip/index-3.html"])
        #expect(map.photoPlaces["trip/1.jpg"]?.albumPage == 0)
        #expect(map.photoPlaces["trip/11.jpg"]?.albumPage == 1)
        #expect(map.photoPlaces["trip/25.jpg"]?.albumPage == 2)
        #expect(map.momentPages.count == 3)
    }
}

/// Rendition names follow from a spec's key: the typed encodings give the
/// keys the flat spec gave, so no published file is renamed.
@Suite struct RenditionKeyTests {
    @Test func keysAreTheNamesThePublishedFilesHave() {
        let box = PixelSize(width: 280, height: 210)
        #expect(RenditionSpec(role: .thumbnail, box: box, encoding: .webp(quality: 85)).key == "r1-280x210-webp-q85")
        #expect(RenditionSpec(role: .preview, box: box, encoding: .jpeg(quality: 90)).key == "r1-280x210-jpeg-q90")
        #expect(RenditionSpec(role: .preview, box: box, encoding: .jpeg(quality: 90)).asAnimation.key == "r1-280x210-webp-q90-anim")
        let video = RenditionSpec(role: .video, box: PixelSize(width: 1920, height: 1080), encoding: .h264(crf: 23, preset: "veryfast"))
        #expect(video.key == "v1-1920x1080-h264-crf23-veryfast" && video.format == .mp4)
        #expect(RenditionSpec(role: .original, box: box, encoding: .jpeg(quality: 85), keepsLocation: true).key == "original-with-location")
        #expect(Encoding.still(.webp, quality: 70) == .webp(quality: 70) && Encoding.still(.jpeg, quality: 70) == .jpeg(quality: 70))
    }
}
