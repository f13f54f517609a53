import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
import Imaging

/// `formats: [avif, webp]` end to end: the AVIF renditions are made beside
/// the WebP ones (which keep their names and bytes), offered first in every
/// `<picture>` with the same sizes, preloaded with their type, never for a
/// private album; turning AVIF off prunes them; incremental equals clean.
@Suite struct AVIFTests {
    static func library() throws -> (TemporaryFolder, BuildSettings) {
        let folder = try TemporaryFolder()
        let settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 96, height: 72), PixelSize(width: 192, height: 144)],
                                     previewBoxes: [PixelSize(width: 320, height: 240)], jobs: 2)
        for (index, name) in ["DSC_0001.jpg", "DSC_0002.jpg", "DSC_0003.jpg"].enumerated() {
            try folder.write("src/Trip/" + name, try Fixtures.jpeg(Fixtures.scene(UInt64(index + 1), width: 480, height: 360),
                                                                   exif: Fixtures.cameraExif(original: "2024:05:0\(index + 1) 10:00:00", gps: false)))
        }
        // An animation: it stays animated WebP; only its still posters get an AVIF.
        try folder.write("src/Trip/wave.gif", Fixtures.gif(width: 8, height: 8, frames: [
            Fixtures.GIFFrame(width: 8, height: 8, indices: [UInt8](repeating: 0, count: 64)),
            Fixtures.GIFFrame(width: 8, height: 8, indices: [UInt8](repeating: 2, count: 64)),
        ]))
        return (folder, settings)
    }

    static func avifFiles(_ files: [String: Data]) -> [String] { files.keys.filter { $0.hasSuffix(".avif") }.sorted() }

    /// The mean of each colour channel of a WebP or an AVIF file.
    static func meanColour(_ data: Data, avif: Bool) throws -> (size: PixelSize, mean: [Double]) {
        try data.withUnsafeBytes { bytes in
            func mean(_ pixels: BorrowedPixels) -> (PixelSize, [Double]) {
                var sums = [0.0, 0.0, 0.0]
                for y in 0..<pixels.height {
                    for x in 0..<pixels.width {
                        for c in 0..<3 { sums[c] += Double(pixels.base[y * pixels.rowBytes + x * pixels.channels + c]) }
                    }
                }
                return (PixelSize(width: pixels.width, height: pixels.height), sums.map { $0 / Double(pixels.width * pixels.height) })
            }
            if avif { return try HEIFCodec.withDecoded(bytes, maximumPixels: 1 << 24) { pixels, _ in mean(pixels) } }
            let decoded = try WebPCodec.decode(bytes, maximumPixels: 1 << 24)
            return try decoded.image.withBorrowedPixels { pixels in mean(pixels) }
        }
    }

    @Test func avifIsOfferedFirstAndTurningItOnOrOffRenamesNothing() async throws {
        let (folder, webpOnly) = try Self.library()
        _ = try await GalleryBuilder().build(settings: webpOnly, quiet: true)
        let before = try PageIncrementalityTests.files(webpOnly.output)
        #expect(Self.avifFiles(before).isEmpty)

        var avif = webpOnly
        avif.values.formats = [.avif, .webp]
        let report = try await GalleryBuilder().build(settings: avif, quiet: true)
        let after = try PageIncrementalityTests.files(avif.output)
        // Three photos × three sizes, and the animation's poster (one file: 8 px fits both poster boxes whole).
        let made = Self.avifFiles(after)
        #expect(made.count == 3 * 3 + 1, "\(made)")
        #expect(report.renditionsMade == made.count, "\(report.summary)")
        // Every WebP is still there, byte for byte: AVIF is encoded from the same pixels and renames nothing.
        for (path, data) in before where path.hasPrefix("media/") {
            #expect(after[path] == data, "\(path) changed when AVIF was turned on")
        }
        // Each AVIF is the WebP of its size, in colour too.
        let webps = after.keys.filter { $0.hasPrefix("media/") && $0.hasSuffix(".webp") }
        for path in made {
            let size = path.split(separator: "-").last!.split(separator: ".")[0]
            let (avifSize, avifMean) = try Self.meanColour(after[path]!, avif: true)
            #expect("\(avifSize)" == size)
            let twins = try webps.filter { $0.hasSuffix("-\(size).webp") }.map { try Self.meanColour(after[$0]!, avif: false).mean }
            #expect(twins.contains { twin in zip(twin, avifMean).allSatisfy { abs($0 - $1) < 3 } }, "\(path): \(avifMean) against \(twins)")
        }

        // The grid: every still's <img> in a <picture> whose AVIF source has the same sizes and widths.
        let grid = try #require(String(data: after["albums/trip/index.html"]!, encoding: .utf8))
        let tiles = grid.components(separatedBy: "<li style=\"--grow:").dropFirst()
        #expect(tiles.count == 4)
        var offered = 0
        for tile in tiles {
            let img = try #require(tile.components(separatedBy: "<img ").dropFirst().first)
            let sizes = img.components(separatedBy: "sizes=\"")[1].components(separatedBy: "\"")[0]
            let widths = img.components(separatedBy: " srcset=\"")[1].components(separatedBy: "\"")[0]
                .split(separator: ",").map { $0.split(separator: " ").last! }
            guard let source = tile.components(separatedBy: "<source type=\"image/avif\" srcset=\"").dropFirst().first else {
                #expect(tile.contains("data-animated=\"true\""), "a still without AVIF: \(tile)")
                continue
            }
            offered += 1
            #expect(tile.contains("<picture>") && tile.contains("</picture>"))
            let candidates = source.components(separatedBy: "\"")[0].split(separator: ",")
            #expect(candidates.map { $0.split(separator: " ").last! } == widths)
            #expect(candidates.allSatisfy { $0.split(separator: " ").first!.hasSuffix(".avif") })
            #expect(source.components(separatedBy: "sizes=\"")[1].components(separatedBy: "\"")[0] == sizes)
            #expect(tile.contains("data-avif-srcset=\""))
        }
        #expect(offered == 3)
        // A photo page: its picture offers AVIF, and its neighbours' preloads are AVIF, typed.
        let page = try #require(String(data: after["albums/trip/dsc-0002.html"]!, encoding: .utf8))
        #expect(page.contains("<picture><source type=\"image/avif\""))
        let preloads = page.components(separatedBy: "<link rel=\"preload\" as=\"image\"").dropFirst()
        #expect(!preloads.isEmpty)
        for preload in preloads where !preload.contains("-8x8.") {
            #expect(preload.contains("type=\"image/avif\"") && preload.components(separatedBy: ">")[0].contains(".avif"))
        }

        // A clean build with AVIF is the same site.
        var clean = avif
        clean.output = folder.url.appendingPathComponent("clean")
        _ = try await GalleryBuilder().build(settings: clean, quiet: true)
        let fresh = try PageIncrementalityTests.files(clean.output)
        #expect(Set(fresh.keys) == Set(after.keys))
        #expect(fresh.keys.filter { fresh[$0] != after[$0] }.sorted() == [])

        // Off again: the AVIFs are pruned and the site is the WebP-only one, byte for byte.
        let off = try await GalleryBuilder().build(settings: webpOnly, quiet: true)
        #expect(off.renditionsMade == 0)
        let back = try PageIncrementalityTests.files(webpOnly.output)
        #expect(Self.avifFiles(back).isEmpty)
        #expect(Set(back.keys) == Set(before.keys))
        #expect(back.keys.filter { back[$0] != before[$0] }.sorted() == [])
    }

    @Test func aPrivateAlbumGetsNoAVIF() async throws {
        let library = try PrivateAlbumTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let sealedBefore = PrivateAlbumTests.files(library.output).filter { $0.hasPrefix(Vault.root) }
        settings.values.formats = [.avif, .webp]
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let files = PrivateAlbumTests.files(library.output)
        // The sealed files are the ones a WebP-only build seals: no AVIF was made for them.
        #expect(files.filter { $0.hasPrefix(Vault.root) } == sealedBefore)
        #expect(files.contains { $0.hasSuffix(".avif") })
    }
}
