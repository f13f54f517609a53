import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import SiteOutput
import Imaging

/// Near-duplicates built into a site from real pixels: one scene shot three
/// times within two seconds is one stack, another scene a second later is
/// not; turning the rule on for a site built without it gives the clean
/// build's site and makes nothing again.
@Suite struct NearDuplicateTests {
    static func library() throws -> (TemporaryFolder, BuildSettings) {
        let folder = try TemporaryFolder()
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 96, height: 72)], previewBoxes: [PixelSize(width: 200, height: 150)], jobs: 2)
        settings.values.stackNearDuplicates = false
        func shot(_ name: String, _ image: RGBAImage, _ time: String) throws {
            _ = try folder.write("src/Party/" + name, try Fixtures.jpeg(image, exif: Fixtures.cameraExif(original: "2024:06:01 " + time, gps: false)))
        }
        // Three tries at one group photo (numbers apart: no sequence), the middle one moved and lighter.
        try shot("DSC_0100.jpg", Fixtures.scene(7), "20:00:00")
        try shot("DSC_0103.jpg", Fixtures.scene(7, shift: 5, light: 8), "20:00:01")
        try shot("DSC_0107.jpg", Fixtures.scene(7, shift: 2), "20:00:02")
        // Another scene a second later, and the first scene again a minute later.
        try shot("DSC_0110.jpg", Fixtures.scene(8), "20:00:03")
        try shot("DSC_0120.jpg", Fixtures.scene(7), "20:01:03")
        return (folder, settings)
    }

    static func tiles(_ out: URL) throws -> [String] {
        let html = try String(contentsOf: out.appendingPathComponent("albums/party/index.html"), encoding: .utf8)
        return html.components(separatedBy: "<li style=\"--grow:").dropFirst().map { tile in
            let href = tile.components(separatedBy: "<a href=\"")[1].components(separatedBy: "\"")[0]
            let count = tile.components(separatedBy: "badge-stack\" aria-hidden=\"true\">").dropFirst().first?.components(separatedBy: "<")[0]
            return href + (count.map { " ×" + $0 } ?? "")
        }
    }

    @Test func oneSceneShotThriceIsOneStackAndTurningTheRuleOnGivesTheCleanSite() async throws {
        let (folder, off) = try Self.library()
        _ = try await GalleryBuilder().build(settings: off, quiet: true)
        #expect(try Self.tiles(off.output) == ["dsc-0100.html", "dsc-0103.html", "dsc-0107.html", "dsc-0110.html", "dsc-0120.html"])
        // On: nothing is made again (the looks were kept with the rule off), and the stack appears.
        var on = off
        on.values.stackNearDuplicates = true
        let report = try await GalleryBuilder().build(settings: on, quiet: true)
        #expect(report.renditionsMade == 0)
        let tiles = try Self.tiles(on.output)
        #expect(tiles.count == 3 && tiles[0].hasSuffix(" ×3") && tiles[1] == "dsc-0110.html" && tiles[2] == "dsc-0120.html", "\(tiles)")
        // The state keeps the looks: a no-op opens nothing.
        let again = try await GalleryBuilder().build(settings: on, quiet: true)
        #expect(again.pagesRendered == 0 && again.filesWritten.isEmpty)
        let state = try BuildState.decode(try Data(contentsOf: BuildState.location(in: on.stateFolder)))
        #expect(state.photos.values.allSatisfy { $0.looks != nil })
        // The same site as a clean build with the rule on.
        var clean = on
        clean.output = folder.url.appendingPathComponent("clean")
        _ = try await GalleryBuilder().build(settings: clean, quiet: true)
        let incremental = try PageIncrementalityTests.files(on.output), fresh = try PageIncrementalityTests.files(clean.output)
        #expect(Set(incremental.keys) == Set(fresh.keys))
        #expect(incremental.keys.filter { incremental[$0] != fresh[$0] }.isEmpty)
        // Two seconds is the window: with one, the third try (two seconds after the first, one after the second) still joins through the second.
        var narrow = on
        narrow.values.stackNearDuplicateSeconds = 1
        _ = try await GalleryBuilder().build(settings: narrow, quiet: true)
        #expect(try Self.tiles(narrow.output).first?.hasSuffix(" ×3") == true)
    }

    /// An iPhone frame of burst `burst` (its maker note's BurstUUID), of scene `seed`, taken at `time`.
    static func iPhoneFrame(_ seed: Int, burst: String, time: String) throws -> [UInt8] {
        let id = Array(burst.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + [0, 1]
        note += [0, 0x0B, 0, 2] + Fixtures.be32(UInt32(id.count)) + Fixtures.be32(UInt32(16 + 12 + 4)) + [0, 0, 0, 0] + id
        var tiff = CameraFixtures.TIFFBuilder()
        let exif = tiff.directory([0x9003: .ascii("2024:06:01 " + time), 0x927C: .bytes(note)])
        tiff.setFirstDirectory(tiff.directory([0x010F: .ascii("Apple"), 0x0110: .ascii("iPhone 15"), 0x8769: .longs([exif])]))
        return try Fixtures.jpeg(Fixtures.scene(UInt64(seed), width: 160, height: 120), exif: tiff.bytes)
    }

    @Test func anIPhoneBurstStacksByItsMakerNoteWithinAMinute() async throws {
        let folder = try TemporaryFolder()
        // Frames numbered apart (no sequence) of different scenes (no near-duplicate): only the note joins them.
        try folder.write("src/Beach/IMG_0501.JPG", try Self.iPhoneFrame(1, burst: "B1-UUID", time: "10:00:00"))
        try folder.write("src/Beach/IMG_0505.JPG", try Self.iPhoneFrame(2, burst: "B1-UUID", time: "10:00:00"))
        try folder.write("src/Beach/IMG_0509.JPG", try Self.iPhoneFrame(3, burst: "B1-UUID", time: "10:00:01"))
        // A note naming that burst twenty minutes later is not believed.
        try folder.write("src/Beach/IMG_0600.JPG", try Self.iPhoneFrame(4, burst: "B1-UUID", time: "10:20:00"))
        try folder.write("src/Beach/IMG_0700.JPG", try Self.iPhoneFrame(5, burst: "B2-UUID", time: "11:00:00"))
        try folder.write("src/Beach/IMG_0800.JPG", try Self.iPhoneFrame(6, burst: "B2-UUID", time: "11:00:00"))
        // The same burst's name in another album: a stack of its own there, never one across albums.
        try folder.write("src/Other/IMG_0502.JPG", try Self.iPhoneFrame(7, burst: "B1-UUID", time: "10:00:00"))
        let settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 96, height: 72)], previewBoxes: [PixelSize(width: 200, height: 150)], jobs: 2)
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.stacks?.stacks == 2 && report.stacks?.items == 5, "\(report.summary)")
        let html = try String(contentsOf: settings.output.appendingPathComponent("albums/beach/index.html"), encoding: .utf8)
        let tiles = html.components(separatedBy: "<li style=\"--grow:").dropFirst().map { tile in
            tile.components(separatedBy: "badge-stack\" aria-hidden=\"true\">").dropFirst().first?.components(separatedBy: "<")[0] ?? "-"
        }
        #expect(tiles.sorted() == ["-", "2", "3"], "\(tiles)")
    }
}
