import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Imaging
@testable import Metadata
@testable import Video

/// A library of hostile names and files: nothing injected reaches the HTML,
/// every URL works, nothing published carries a location, nothing crashes.
@Suite struct HostileInputTests {
    static let evilNames = [
        "<script>alert(1)<\\script>", "quote\"s & 'apostrophes'", "%2e%2e", "..%2f..%2fetc", "new\nline", "tab\there",
        String(repeating: "long-", count: 48), "#hash?query=1&x", "Léa 7", "日本の写真", "\u{202E}gpj.exe",
    ]

    /// Writes a file whose path below `folder` is raw bytes (possibly not UTF-8).
    static func writeRaw(_ folder: URL, _ name: [UInt8], _ bytes: [UInt8]) throws {
        let path = Array(folder.path.utf8) + [47] + name
        let descriptor = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        #expect(descriptor >= 0)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    static func photo(_ seed: Int, gps: Bool = true) throws -> [UInt8] {
        var image = Fixtures.gradient(width: 120, height: 90)
        image.pixels[0] = UInt8(seed)
        return try Fixtures.jpeg(image, exif: Fixtures.cameraExif(gps: gps))
    }

    @Test func hostileNamesAreEscapedAndLinkable() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        for (i, name) in Self.evilNames.enumerated() {
            try folder.write("src/\(name)/\(name).jpg", try Self.photo(i))
        }
        // Invalid UTF-8 in a folder and a file name.
        let badFolder: [UInt8] = [0x62, 0x61, 0x64, 0xFF, 0xFE]
        try FileManager.default.createDirectory(atPath: source.path, withIntermediateDirectories: true)
        _ = (Array(source.path.utf8) + [47] + badFolder).map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { buffer -> Int32 in
            var copy = Array(buffer) + [0]
            return copy.withUnsafeMutableBufferPointer { mkdir($0.baseAddress!, 0o755) }
        }
        try Self.writeRaw(source, badFolder + [47, 0xC3, 0x28, 0x2E, 0x6A, 0x70, 0x67], try Self.photo(90))
        try Self.writeRaw(source, [0x80, 0x81, 0x2E, 0x6A, 0x70, 0x67], try Self.photo(91))
        // A sidecar with hostile text and an escaping cover.
        try folder.write("src/Léa 7/album.yml", Array("title: \"<img src=x onerror=alert(1)>\"\ndescription: \"<script>x</script> [a](javascript:alert(1))\"\n".utf8))

        let settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 60, height: 45)], previewBoxes: [PixelSize(width: 100, height: 75)])
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        // Names starting with a dot are hidden files, so ignored; invalid UTF-8 names are read too.
        #expect(report.published == Self.evilNames.filter { !$0.hasPrefix(".") }.count + 2)

        let output = settings.output
        var pages = 0
        for relative in try FileManager.default.subpathsOfDirectory(atPath: output.path) where relative.hasSuffix(".html") {
            pages += 1
            // Paths of pages are plain ASCII slugs.
            #expect(relative.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-/._".contains($0)) }, "\(relative)")
            let html = try String(contentsOf: output.appendingPathComponent(relative), encoding: .utf8)
            #expect(!html.contains("<script>alert"), "\(relative)")
            #expect(!html.contains("<img src=x"), "\(relative)")
            #expect(!html.contains("javascript:"), "\(relative)")
            #expect(!html.contains("<script>x"), "\(relative)")
            // Every attribute value is closed properly: no raw quote from a name survives.
            #expect(!html.contains("quote\"s"), "\(relative)")
            for link in EndToEndTests.links(in: html) where !link.hasPrefix("data:") {
                // A link within the page (the skip link) names an element of it.
                if link.hasPrefix("#") {
                    #expect(html.contains("id=\"\(link.dropFirst())\""), "\(link) names nothing in \(relative)")
                    continue
                }
                #expect(!link.contains(" ") && !link.contains("\n") && !link.contains("<"), "unencoded URL \(link) in \(relative)")
                let target = EndToEndTests.normalize((relative as NSString).deletingLastPathComponent + "/"
                    + (link.split(separator: "#").first.map(String.init) ?? link).removingPercentEncoding!)
                #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(target).path), "broken \(link) in \(relative)")
            }
        }
        #expect(pages > Self.evilNames.count * 2)
        // Nothing published carries a location.
        for relative in try FileManager.default.subpathsOfDirectory(atPath: output.appendingPathComponent("media").path) where relative.contains(".") {
            let bytes = try [UInt8](Data(contentsOf: output.appendingPathComponent("media/" + relative)))
            let metadata = try bytes.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) }
            #expect(metadata.gps == nil)
            #expect(metadata.camera.make == nil, "no EXIF at all in renditions")
        }
        // Nothing was written outside OUT but the build state, beside it (never in it: OUT is published).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [".out.gallerygen", "out", "src"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test func symlinksAreNotFollowedByDefaultAndNeverOutOfSource() async throws {
        let folder = try TemporaryFolder()
        try folder.write("outside/secret.jpg", try Self.photo(1))
        try folder.write("src/inside/a.jpg", try Self.photo(2))
        let source = folder.url.appendingPathComponent("src")
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("escape").path,
                                                   withDestinationPath: folder.url.appendingPathComponent("outside").path)
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("inside/loop").path, withDestinationPath: source.path)
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("alias").path,
                                                   withDestinationPath: source.appendingPathComponent("inside").path)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 60, height: 45)], previewBoxes: [PixelSize(width: 100, height: 75)])
        var report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 1)
        settings.followSymlinks = true
        settings.output = folder.url.appendingPathComponent("out2")
        report = try await GalleryBuilder().build(settings: settings, quiet: true)
        // "alias" leads to a folder already walked, "loop" back to SOURCE, "escape" outside: each ends.
        #expect(report.published == 1)
        let everything = try FileManager.default.subpathsOfDirectory(atPath: settings.output.path).joined(separator: " ")
        #expect(!everything.contains("secret") && !everything.contains("escape"))
    }

    @Test func originalsArePublishedWithoutLocation() async throws {
        let folder = try TemporaryFolder()
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>".utf8)
        var jpeg = try Self.photo(5)
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)] + xmp, at: 2)
        // An MPF index and an appended second image with its own GPS, as phones write.
        let mpf = Array("MPF\0".utf8) + [UInt8](repeating: 0, count: 12)
        jpeg.insert(contentsOf: [0xFF, 0xE2, UInt8((mpf.count + 2) >> 8), UInt8((mpf.count + 2) & 0xFF)] + mpf, at: 2)
        let mainImage = jpeg
        jpeg += try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16),
                                  exif: Fixtures.tiff(ifd0: [0x010F: .ascii("APPENDED")], gps: [0x0001: .ascii("N"), 0x0002: .rationals([(10, 1), (0, 1), (0, 1)])]))
        try folder.write("src/a/photo.jpg", jpeg)
        try folder.write("src/a/graphic.png", Fixtures.png(Fixtures.gradient(width: 30, height: 20), exif: Fixtures.cameraExif()))
        try folder.write("src/a/w.webp", try Fixtures.webp(Fixtures.gradient(width: 30, height: 20), exif: Fixtures.cameraExif()))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 60, height: 45)], previewBoxes: [PixelSize(width: 100, height: 75)])
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let media = { try FileManager.default.subpathsOfDirectory(atPath: settings.output.appendingPathComponent("media").path) }
        #expect(try media().allSatisfy { !$0.contains("original") }, "originals are not published by default")

        settings.publishOriginals = true
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let originals = try media().filter { $0.contains("-original.") }
        #expect(originals.count == 3)
        for relative in originals {
            let bytes = try [UInt8](Data(contentsOf: settings.output.appendingPathComponent("media/" + relative)))
            let metadata = try bytes.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) }
            #expect(metadata.gps == nil, "\(relative)")
            #expect(metadata.camera.model == "NIKON D70", "other tags stay")
            #expect(metadata.captureDate.source == .original)
            #expect(!String(decoding: bytes, as: UTF8.self).contains("GPSLatitude"), "XMP dropped")
            #expect(!String(decoding: bytes, as: UTF8.self).contains("APPENDED"), "images after the main EOI dropped")
            #expect(!String(decoding: bytes, as: UTF8.self).contains("MPF\0"), "MPF index dropped")
            // Lossless: the pixels decode exactly as the source's.
            if relative.hasSuffix(".jpg") {
                let a = try bytes.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 24) }.image.pixels
                let b = try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 24) }.image.pixels
                #expect(a == b)
                #expect(bytes.count < mainImage.count, "ends at the main image's EOI")
            }
        }
        let page = try String(contentsOf: settings.output.appendingPathComponent("albums/a/photo.html"), encoding: .utf8)
        #expect(page.contains("download=\"photo.jpg\""))

        settings.keepLocation = true
        settings.output = folder.url.appendingPathComponent("out2")
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let kept = try FileManager.default.subpathsOfDirectory(atPath: settings.output.appendingPathComponent("media").path)
            .filter { $0.hasSuffix("-original.jpg") }
        let bytes = try [UInt8](Data(contentsOf: settings.output.appendingPathComponent("media/" + kept[0])))
        #expect(bytes == jpeg, "keep_location publishes the file unchanged")
    }

    @Test func decompressionBombsAndBrokenFilesAreRefusedCleanly() async throws {
        let folder = try TemporaryFolder()
        // A JPEG header declaring 60000 × 60000 (3.6 gigapixels), then nothing.
        var bomb = try Fixtures.jpeg(Fixtures.gradient(width: 8, height: 8))
        if let sof = (2..<bomb.count - 9).first(where: { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xC0 }) {
            bomb[sof + 5] = 0xEA; bomb[sof + 6] = 0x60; bomb[sof + 7] = 0xEA; bomb[sof + 8] = 0x60
        }
        try folder.write("src/bomb.jpg", bomb)
        // A GIF whose logical screen is 65535 × 65535.
        var gifBomb = Fixtures.gif(width: 2, height: 2, frames: [Fixtures.GIFFrame(width: 2, height: 2, indices: [0, 1, 2, 3])])
        gifBomb[6] = 0xFF; gifBomb[7] = 0xFF; gifBomb[8] = 0xFF; gifBomb[9] = 0xFF
        try folder.write("src/bomb.gif", gifBomb)
        // A PNG declaring 100000 × 100000.
        var pngBomb = Fixtures.png(Fixtures.gradient(width: 2, height: 2))
        pngBomb.replaceSubrange(16..<24, with: Fixtures.be32(100_000) + Fixtures.be32(100_000))
        try folder.write("src/bomb.png", pngBomb)
        try folder.write("src/zero.jpg", [])
        try folder.write("src/html.jpg", Array("<html><script>alert(1)</script></html>".utf8))
        try folder.write("src/png-named.jpg", Fixtures.png(Fixtures.gradient(width: 20, height: 10)))
        // EXIF with an IFD that points at itself, and offsets past the end.
        var loop = Fixtures.tiff(ifd0: [0x0112: .short(6), 0x8769: .long(8)])
        loop += [UInt8](repeating: 0xFF, count: 16)
        try folder.write("src/exif-loop.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 40, height: 30), exif: loop))
        var wild = Fixtures.tiff(ifd0: [0x010F: .ascii("Make"), 0x8825: .long(0x7FFF_FFF0), 0x8769: .long(0xFFFF_FFFF)])
        wild[10] = 0xFF; wild[11] = 0x7F
        try folder.write("src/exif-wild.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 40, height: 30), exif: wild))
        let settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 60, height: 45)], previewBoxes: [PixelSize(width: 100, height: 75)])
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.reason) })
        #expect(reasons["bomb.jpg"]?.contains("limit") == true, "\(reasons)")
        #expect(reasons["bomb.gif"]?.contains("limit") == true, "\(reasons)")
        #expect(reasons["bomb.png"]?.contains("limit") == true, "\(reasons)")
        #expect(reasons["zero.jpg"] == "empty file")
        #expect(reasons["html.jpg"]?.hasPrefix("not a photo format gallerygen reads") == true)
        #expect(reasons["png-named.jpg"] == nil, "a PNG named .jpg is read as PNG")
        #expect(reasons["exif-loop.jpg"] == nil && reasons["exif-wild.jpg"] == nil, "bad EXIF loses its tags, not the photo")
        #expect(report.published == 3)
    }
}

@Suite struct LocationStripperTests {
    /// A RAW file's ISO speed is a float libraw reads from the file: one no
    /// camera gives (infinite, past `Int`) is dropped, not converted.
    @Test func rawISOSpeedsOutOfRangeAreDropped() {
        #expect(RawStructure.iso(speed: 199.6) == 200)
        #expect(RawStructure.iso(speed: 3_276_800) == 3_276_800)
        for speed: Float in [0, -100, .infinity, .nan, 1e30, .greatestFiniteMagnitude] { #expect(RawStructure.iso(speed: speed) == nil) }
    }

    /// A file's own numbers as text: an XMP rating or a video's rotate tag of
    /// "1e300" or "inf" is clamped or dropped, not converted to Int (a trap).
    @Test func hugeRatingsAndRotationsAreFolded() {
        func rating(_ text: String) -> Int? {
            WordsReader.xmp(Array(WordsTests.xmpPacket(
                #"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Rating>\#(text)</xmp:Rating></rdf:Description>"#).utf8)).rating
        }
        #expect(rating("1e300") == 5 && rating("-1e300") == -1 && rating("3.6") == 4 && rating("inf") == nil)
        #expect(VideoProbe.rotation(["tags": ["rotate": "450"]]) == 90)
        #expect(VideoProbe.rotation(["side_data_list": [["rotation": -90.0]]]) == 90)
        #expect(VideoProbe.rotation(["tags": ["rotate": "inf"]]) == 0 && VideoProbe.rotation(["tags": ["rotate": "nan"]]) == 0)
        #expect([0, 90, 180, 270].contains(VideoProbe.rotation(["tags": ["rotate": "1e300"]])))
    }

    @Test func progressiveJPEGKeepsEveryScanAndDropsTheTrailer() throws {
        let image = Fixtures.quadrants(width: 64, height: 48)
        let progressive = try JPEGCodec.encode(image, quality: 90, progressive: true, iccProfile: nil)
        let trailer = Array("SEFT trailer with a place name".utf8)
        let stripped = try LocationStripper.strip(progressive + trailer)
        #expect(stripped == progressive, "several scans kept whole, only the trailer dropped")
    }

    @Test func gifXMPIsDroppedAndEverythingElseKept() throws {
        let frames = [Fixtures.GIFFrame(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16), disposal: 1),
                      Fixtures.GIFFrame(left: 1, top: 1, width: 2, height: 2, indices: [2, 3, 3, 2], disposal: 1)]
        let plain = Fixtures.gif(width: 4, height: 4, frames: frames)
        let packet = Array("<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>".utf8)
        let xmp = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + packet.chunked()
        var tagged = plain
        tagged.insert(contentsOf: xmp, at: 13 + 12)  // after the header and the 4-colour global palette
        let stripped = try LocationStripper.strip(tagged)
        #expect(stripped == plain, "only the XMP extension goes; the loop extension and both frames stay byte for byte")
        #expect(!String(decoding: stripped, as: UTF8.self).contains("GPSLatitude"))
        // A file cut short inside its last frame keeps what it had, without a trailer.
        let cut = Array(tagged.dropLast(3))
        #expect(try LocationStripper.strip(cut) == Array(plain.dropLast(3)))
    }

    @Test func pngRawProfilesAreDropped() throws {
        var png = Fixtures.png(Fixtures.gradient(width: 4, height: 4))
        let text = Array("Raw profile type exif\0\nexif\n  12\n4578696600004d4d\n".utf8)
        var chunk = Fixtures.be32(UInt32(text.count)) + Array("tEXt".utf8) + text
        chunk += Fixtures.be32(Fixtures.crc32(Array(chunk[4...])))
        png.insert(contentsOf: chunk, at: 33)  // after IHDR
        let stripped = try LocationStripper.strip(png)
        #expect(!String(decoding: stripped, as: UTF8.self).contains("Raw profile"))
        let decoded = try stripped.withUnsafeBytes { try PNGCodec.decode($0, maximumPixels: 1 << 20) }
        #expect(decoded.image.size == PixelSize(width: 4, height: 4))
    }
}
