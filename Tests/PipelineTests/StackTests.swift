import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Planning

/// Bursts, edits and near misses built into a site: each stack one tile with
/// its count, each item its page with the stack's strip, the counts honest,
/// and a frame added re-rendering that stack's pages, not the album's others.
@Suite struct StackTests {
    /// A library: camera-named bursts of four makers, edits beside their
    /// originals, a numbered sequence in one second, two different scenes a
    /// second apart (not a stack), and an album whose album.yml turns bursts off.
    struct Library {
        let folder: TemporaryFolder
        var settings: BuildSettings
        var seed = 0
        var out: URL { settings.output }

        static let stacked: [[String]] = [
            ["00002IMG_00002_BURST20171111030039_COVER.jpg", "00001IMG_00001_BURST20171111030039.jpg", "00003IMG_00003_BURST20171111030039.jpg"],
            ["IMG_20180914_094602055_BURST000_COVER.jpg", "IMG_20180914_094602055_BURST001.jpg"],
            ["20231207_101605_001.jpg", "20231207_101605_002.jpg", "20231207_101605_003.jpg"],
            ["DSC_0052_BURST20230709220904977_COVER.JPG", "DSC_0053_BURST20230709220904977.JPG"],
            ["IMG_E1234.jpg", "IMG_1234.jpg"],
            ["IMG_2000-edited.jpg", "IMG_2000.jpg"],
            ["DSC01001.jpg", "DSC01002.jpg", "DSC01003.jpg"],
        ]
        static let alone = ["DSC01010.jpg", "DSC01011.jpg", "single.jpg"]

        init() throws {
            folder = try TemporaryFolder()
            settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 32, height: 24)], previewBoxes: [PixelSize(width: 64, height: 48)], jobs: 2)
            // Names and edits alone (the photos are gradients that look alike: NearDuplicateTests has real scenes).
            settings.values.stackNearDuplicates = false
            for (n, stack) in Self.stacked.enumerated() {
                for name in stack { try photo("Trip/" + name, "2024:03:0\(1 + n) 10:00:00") }
            }
            // Two different scenes a second apart: consecutive numbers, one camera, no burst.
            try photo("Trip/DSC01010.jpg", "2024:03:09 10:00:00")
            try photo("Trip/DSC01011.jpg", "2024:03:09 10:00:01")
            try photo("Trip/single.jpg", "2024:03:10 10:00:00", keywords: true)
            // Bursts off for this album; its edit still stacks.
            try photo("Home/IMG_20240101_120000_BURST001.jpg", "2024:01:01 12:00:00")
            try photo("Home/IMG_20240101_120000_BURST002.jpg", "2024:01:01 12:00:00")
            try photo("Home/IMG_5000.jpg", "2024:01:02 12:00:00")
            try photo("Home/IMG_E5000.jpg", "2024:01:02 12:00:00")
            try folder.write("src/Home/album.yml", Array("stacks:\n  bursts: false\n".utf8))
            // Where the camera picked no cover, album.yml picks the first frame (else the sharpest would be).
            try folder.write("src/Trip/album.yml", Array("photos:\n  20231207_101605_001.jpg:\n    stack: cover\n  DSC01001.jpg:\n    stack: cover\n".utf8))
        }

        mutating func photo(_ path: String, _ date: String, keywords: Bool = false) throws {
            seed += 1
            try folder.write("src/" + path, try IncrementalTests.photo(seed, exif: IncrementalTests.exif(date)))
            guard keywords else { return }
            let xmp = WordsTests.xmpPacket(#"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag><rdf:li>sea</rdf:li></rdf:Bag></dc:subject></rdf:Description>"#)
            try Data(xmp.utf8).write(to: settings.source.appendingPathComponent(String(path.dropLast(4)) + ".xmp"))
        }

        func page(_ path: String) throws -> String { try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8) }

        /// The tiles of a grid page: each tile's link and its badge's count (nil: none).
        func tiles(_ path: String) throws -> [(href: String, count: Int?)] {
            let html = try page(path)
            return html.components(separatedBy: "<li style=\"--grow:").dropFirst().map { tile in
                let href = tile.components(separatedBy: "<a href=\"")[1].components(separatedBy: "\"")[0]
                let count = tile.components(separatedBy: "badge-stack\" aria-hidden=\"true\">").dropFirst().first
                    .flatMap { Int($0.components(separatedBy: "<")[0]) }
                return (href, count)
            }
        }
    }

    static func slug(_ name: String) -> String { Slug.make(String(name[..<name.lastIndex(of: ".")!]), fallback: "photo") }

    @Test func eachStackIsOneTileAndEachItemKeepsItsPage() async throws {
        let library = try Library()
        let report = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        let stackedItems = Library.stacked.joined().count + 2  // and Home's edit
        #expect(report.stacks?.stacks == Library.stacked.count + 1 && report.stacks?.items == stackedItems, "\(report.summary)")
        #expect(report.summary.contains("Stacked \(stackedItems) photos as \(Library.stacked.count + 1) tiles"), "\(report.summary)")

        // The album: one tile per stack, its cover, with the count; the near misses alone.
        let trip = try library.tiles("albums/trip/index.html")
        let expected = Library.stacked.map { ($0[0], $0.count as Int?) } + Library.alone.map { ($0, nil as Int?) }
        #expect(trip.map(\.href) == expected.map { Self.slug($0.0) + ".html" })
        #expect(trip.map(\.count) == expected.map(\.1))
        let tripPhotos = Library.stacked.joined().count + Library.alone.count
        #expect(try library.page("albums/trip/index.html").contains("\(tripPhotos) photos, \(trip.count) shown"))
        // Home: bursts off there, its edit stacked.
        let home = try library.tiles("albums/home/index.html")
        #expect(home.map(\.href) == ["img-20240101-120000-burst001.html", "img-20240101-120000-burst002.html", "img-e5000.html"])
        #expect(home.map(\.count) == [nil, nil, 2])

        // Moments: fewer tiles than photos by exactly the stacked count.
        let momentTiles = try library.tiles("moments/index.html")
        let allPhotos = tripPhotos + 4
        #expect(momentTiles.count == allPhotos - (stackedItems - (Library.stacked.count + 1)))
        #expect(try library.page("moments/index.html").contains("\(allPhotos) photos, \(momentTiles.count) shown"))
        // A day's count line and the month index count a stack whole too (the burst's day: 3 photos, 1 shown).
        #expect(try library.page("moments/index.html").contains("3 photos, 1 shown"))
        #expect(try library.page("moments/years.html").contains("\(allPhotos) photos"))

        // Every item of a stack has its page with the strip, its own marked, in stack order.
        for stack in Library.stacked {
            for (position, name) in stack.enumerated() {
                let html = try library.page("albums/trip/\(Self.slug(name)).html")
                let strip = html.components(separatedBy: "<nav class=\"stack-strip\"")[1].components(separatedBy: "</nav>")[0]
                let links = strip.components(separatedBy: "<a href=\"").dropFirst().map { $0.components(separatedBy: "\"")[0] }
                #expect(links == stack.map { Self.slug($0) + ".html" }, "\(name)")
                #expect(strip.contains("\(position + 1) of \(stack.count)"))
                let current = strip.components(separatedBy: "aria-current=\"page\"")
                #expect(current.count == 2 && current[0].hasSuffix(Self.slug(name) + ".html\" "), "\(name)")
                // Back to the stack's tile on the album page.
                #expect(html.contains("index.html#p-\(Self.slug(stack[0]))\""), "\(name)")
            }
        }
        // Previous and next step over stacks: the second stack's member goes on to the third stack's cover.
        let member = try library.page("albums/trip/\(Self.slug(Library.stacked[1][1])).html")
        #expect(member.contains("href=\"\(Self.slug(Library.stacked[2][0])).html\" rel=\"next\""))
        #expect(member.contains("href=\"\(Self.slug(Library.stacked[0][0])).html\" rel=\"prev\""))
        // A photo in no stack has no strip.
        #expect(!(try library.page("albums/trip/single.html")).contains("stack-strip"))
    }

    @Test func aFrameAddedRerendersItsStacksPagesNotTheAlbumsOthers() async throws {
        var library = try Library()
        _ = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        try library.photo("Trip/00004IMG_00004_BURST20171111030039.jpg", "2024:03:01 10:00:00")
        let report = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        let written = Set(report.filesWritten.filter { $0.hasSuffix(".html") })
        let burst = Library.stacked[0] + ["00004IMG_00004_BURST20171111030039.jpg"]
        for name in burst { #expect(written.contains("albums/trip/\(Self.slug(name)).html"), "\(name): \(written.sorted())") }
        // The pages of other items are as they were; the album page and the timeline's say 4.
        let others = Library.stacked.dropFirst().joined().map { "albums/trip/\(Self.slug($0)).html" } + Library.alone.map { "albums/trip/\(Self.slug($0)).html" }
        #expect(written.isDisjoint(with: others), "\(written.sorted())")
        #expect(try library.tiles("albums/trip/index.html").first?.count == 4)
        #expect(try library.tiles("moments/index.html").contains { $0.count == 4 })

        // A cover's tag page shows its stack's count too: a frame added to a tagged cover's stack re-renders it.
        try library.photo("Trip/single_BURST002.jpg", "2024:03:10 10:00:00")
        try FileManager.default.moveItem(at: library.settings.source.appendingPathComponent("Trip/single.jpg"),
                                         to: library.settings.source.appendingPathComponent("Trip/single_BURST001_COVER.jpg"))
        try FileManager.default.moveItem(at: library.settings.source.appendingPathComponent("Trip/single.xmp"),
                                         to: library.settings.source.appendingPathComponent("Trip/single_BURST001_COVER.xmp"))
        _ = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        #expect(try library.tiles("tags/sea/index.html").map(\.count) == [2])
        try library.photo("Trip/single_BURST003.jpg", "2024:03:10 10:00:00")
        _ = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        #expect(try library.tiles("tags/sea/index.html").map(\.count) == [3])

        // Turning bursts off lists every frame again, as a clean build does.
        var off = library.settings
        off.values.stackBursts = false
        _ = try await GalleryBuilder().build(settings: off, quiet: true)
        let tiles = try library.tiles("albums/trip/index.html")
        #expect(tiles.count == Library.stacked.joined().count + Library.alone.count + 3 - 1 - 1, "the edits' stacks stay")
        #expect(tiles.compactMap(\.count) == [2, 2])
    }
}
