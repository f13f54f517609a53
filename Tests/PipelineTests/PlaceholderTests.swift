import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit

/// Every tile carries its placeholder (`data-ph`, a ThumbHash of the pixels
/// the build decoded anyway): a photo's, an animation's first frame, a
/// video's poster frame; a no-op makes nothing for them, and a clean build
/// writes the same pages as the incremental one.
@Suite(.serialized) struct PlaceholderTests {
    /// The average colour a ThumbHash carries in its header (its DC terms), 0…1.
    static func averageColour(_ base64: String) throws -> (r: Double, g: Double, b: Double) {
        let hash = try #require(Data(base64Encoded: base64).map { [UInt8]($0) })
        #expect((21...25).contains(hash.count), "\(hash.count) bytes")
        let header = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let l = Double(header & 63) / 63, p = Double((header >> 6) & 63) / 31.5 - 1, q = Double((header >> 12) & 63) / 31.5 - 1
        let b = l - 2.0 / 3.0 * p, r = (3 * l - b + q) / 2
        return (r, r - q, b)
    }

    static func placeholders(_ page: String) -> [String] {
        let grid = page.components(separatedBy: "<ul class=\"photo-grid\"").dropFirst().joined()
        return grid.components(separatedBy: "<img ").dropFirst().map { tag in
            let attributes = tag.components(separatedBy: ">")[0]
            guard let start = attributes.range(of: "data-ph=\"") else { return "" }
            return String(attributes[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func everyKindOfTileCarriesItsPlaceholder() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        // A blue photo, a red-and-green animation, a video.
        var blue = Fixtures.gradient(width: 320, height: 240)
        for i in stride(from: 0, to: blue.pixels.count, by: 4) { (blue.pixels[i], blue.pixels[i + 1], blue.pixels[i + 2]) = (20, 40, 220) }
        try folder.write("src/Trip/IMG_0001.jpg", try Fixtures.jpeg(blue))
        try folder.write("src/Trip/wave.gif", Fixtures.gif(width: 16, height: 12, frames: [
            .init(width: 16, height: 12, indices: [UInt8](repeating: 0, count: 192)),
            .init(width: 16, height: 12, indices: [UInt8](repeating: 1, count: 192)),
        ]))
        try VideoBuildTests.clip(source.appendingPathComponent("Trip/clip.mp4"), seconds: 1, VideoBuildTests.h264)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 120, height: 90), PixelSize(width: 240, height: 180)]
        settings.previewBoxes = [PixelSize(width: 320, height: 240)]
        let first = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(first.published == 3 && first.skipped.isEmpty, "\(first.summary)")
        let album = try String(contentsOf: settings.output.appendingPathComponent("albums/trip/index.html"), encoding: .utf8)
        let hashes = Self.placeholders(album)
        #expect(hashes.count == 3 && hashes.allSatisfy { !$0.isEmpty }, "\(hashes)")
        // Each is the colour of its own picture: the photo blue, the animation's first frame red.
        let photoPage = try String(contentsOf: settings.output.appendingPathComponent("albums/trip/img-0001.html"), encoding: .utf8)
        let photoHash = try #require(photoPage.components(separatedBy: "data-ph=\"").dropFirst().first?.prefix { $0 != "\"" })
        let blueish = try Self.averageColour(String(photoHash))
        #expect(blueish.b > 0.6 && blueish.r < 0.3, "\(blueish)")
        let gifPage = try String(contentsOf: settings.output.appendingPathComponent("albums/trip/wave.html"), encoding: .utf8)
        let gifHash = try #require(gifPage.components(separatedBy: "data-ph=\"").dropFirst().first?.prefix { $0 != "\"" })
        let red = try Self.averageColour(String(gifHash))
        #expect(red.r > 0.7 && red.g < 0.3 && red.b < 0.3, "\(red)")
        #expect(hashes.contains(String(gifHash)) && hashes.contains(String(photoHash)))
        // The years page's covers too.
        let years = try String(contentsOf: settings.output.appendingPathComponent("moments/years.html"), encoding: .utf8)
        let covers = years.components(separatedBy: "<img ").dropFirst().map { $0.components(separatedBy: ">")[0] }
        #expect(!covers.isEmpty && covers.allSatisfy { $0.contains(" data-ph=\"") }, "\(covers)")
        // A no-op makes nothing (the video's poster frame is not taken again) and writes nothing.
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.renditionsMade == 0 && again.filesWritten.isEmpty, "\(again.summary) \(again.filesWritten)")
        // A clean build writes the same album page.
        var clean = settings
        clean.output = folder.url.appendingPathComponent("clean")
        _ = try await GalleryBuilder().build(settings: clean, quiet: true)
        #expect(try String(contentsOf: clean.output.appendingPathComponent("albums/trip/index.html"), encoding: .utf8) == album)
    }

    /// The first screen's album covers load at once (a lazy image waits for
    /// the stylesheet and layout: on a slow phone that held the home page's
    /// largest paint back); the covers further down load as they come near.
    @Test func theFirstScreensCoversAreNotLazy() async throws {
        let folder = try TemporaryFolder()
        for n in 1...14 {
            var image = Fixtures.gradient(width: 64, height: 48)
            image.pixels[0] = UInt8(n)
            try folder.write("src/Album \(String(format: "%02d", n))/IMG_\(n).jpg", try Fixtures.jpeg(image))
        }
        let settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"))
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let home = try String(contentsOf: settings.output.appendingPathComponent("index.html"), encoding: .utf8)
        let covers = home.components(separatedBy: "<ul class=\"album-cards\"").dropFirst().joined()
            .components(separatedBy: "<img ").dropFirst().map { $0.components(separatedBy: ">")[0] }
        #expect(covers.count == 14)
        #expect(covers.prefix(12).allSatisfy { !$0.contains("loading=\"lazy\"") } && covers.suffix(2).allSatisfy { $0.contains("loading=\"lazy\"") },
                "\(covers.map { $0.contains("lazy") })")
    }
}
