import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Metadata

@Suite struct MetadataTests {
    let mtime = Date(timeIntervalSince1970: 1_700_000_000)

    func read(_ bytes: [UInt8]) throws -> PhotoMetadata {
        try bytes.withUnsafeBytes { try MetadataReader.read($0, modificationDate: mtime) }
    }

    @Test func jpegCameraFacts() throws {
        let bytes = try Fixtures.jpeg(Fixtures.quadrants(width: 64, height: 48), exif: Fixtures.cameraExif(orientation: 6))
        let m = try read(bytes)
        #expect(m.format == .jpeg)
        #expect(m.storedSize == PixelSize(width: 64, height: 48))
        #expect(m.orientation == .right)
        #expect(m.displaySize == PixelSize(width: 48, height: 64))
        #expect(m.camera.make == "NIKON CORPORATION")
        #expect(m.camera.model == "NIKON D70")
        #expect(m.camera.cameraName == "NIKON D70")
        #expect(m.camera.lens == "18-70mm f/3.5-4.5")
        #expect(m.camera.exposureTime == 1.0 / 250)
        #expect(m.camera.fNumber == 2.8)
        #expect(m.camera.iso == 400)
        #expect(m.camera.focalLength == 35)
        let gps = try #require(m.gps)
        #expect(abs(gps.latitude - (48 + 51.0 / 60 + 29.64 / 3600)) < 1e-9)
        #expect(abs(gps.longitude - (2 + 17.0 / 60 + 40.0 / 3600)) < 1e-9)
    }

    @Test func originalDateWithOffset() throws {
        let m = try read(try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16), exif: Fixtures.cameraExif()))
        #expect(m.captureDate.source == .original)
        #expect(m.captureDate.utcOffsetSeconds == 7200)
        // 23:30 on 10 March at +02:00: the local day is the 10th, the instant 21:30 UTC.
        #expect(m.captureDate.localDay == LocalDay(year: 2024, month: 3, day: 10))
        #expect(m.captureDate.instant == Date(timeIntervalSince1970: 1_710_106_200))
    }

    @Test func dateFallsBackToDigitizedThenDateTimeThenFileTime() throws {
        let digitized = Fixtures.cameraExif(original: nil, offset: nil, digitized: "2020:01:02 03:04:05", modified: "2021:01:01 00:00:00")
        var m = try read(try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16), exif: digitized))
        #expect(m.captureDate.source == .digitized)
        #expect(m.captureDate.localDay == LocalDay(year: 2020, month: 1, day: 2))

        let modified = Fixtures.cameraExif(original: nil, offset: nil, modified: "2021:05:06 07:08:09")
        m = try read(try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16), exif: modified))
        #expect(m.captureDate.source == .modified)
        #expect(m.captureDate.wallClock.hour == 7)

        // A blank original (cameras write "0000:00:00 00:00:00") falls through too.
        let blank = Fixtures.cameraExif(original: "0000:00:00 00:00:00", offset: nil)
        m = try read(try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16), exif: blank))
        #expect(m.captureDate.source == .fileTime)
        #expect(m.captureDate.instant == mtime)

        m = try read(try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16)))
        #expect(m.captureDate.source == .fileTime)
        #expect(m.captureDate.instant == mtime)
        #expect(m.gps == nil)
    }

    @Test func pngExifChunk() throws {
        let m = try read(Fixtures.png(Fixtures.gradient(width: 20, height: 10), exif: Fixtures.cameraExif(orientation: 3)))
        #expect(m.format == .png)
        #expect(m.storedSize == PixelSize(width: 20, height: 10))
        #expect(m.orientation == .down)
        #expect(m.captureDate.source == .original)
        #expect(m.gps != nil)
    }

    @Test func webpExifChunk() throws {
        let m = try read(try Fixtures.webp(Fixtures.gradient(width: 30, height: 20), exif: Fixtures.cameraExif(orientation: 8)))
        #expect(m.format == .webp)
        #expect(m.storedSize == PixelSize(width: 30, height: 20))
        #expect(m.orientation == .left)
        #expect(m.camera.model == "NIKON D70")
    }

    @Test func gifFramesAndSize() throws {
        let frame = Fixtures.GIFFrame(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16))
        let m = try read(Fixtures.gif(width: 4, height: 4, frames: [frame, frame, frame]))
        #expect(m.format == .gif)
        #expect(m.frameCount == 3)
        #expect(m.isAnimated)
        #expect(m.captureDate.source == .fileTime)
    }

    @Test func formatIsSniffedNotTakenFromTheName() throws {
        #expect(try read(Fixtures.png(Fixtures.gradient(width: 2, height: 2))).format == .png)
        #expect(throws: MetadataError.empty) { try read([]) }
        #expect(throws: MetadataError.unknownFormat(firstBytes: "0x68 65 6C 6C")) { try read(Array("hello world".utf8)) }
    }

    @Test func malformedContainersAreErrorsNotCrashes() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 32, height: 32), exif: Fixtures.cameraExif())
        // Every prefix of the header region either parses or throws; none may crash.
        for cut in stride(from: 1, to: min(jpeg.count, 600), by: 7) {
            _ = try? read(Array(jpeg.prefix(cut)))
        }
        #expect(throws: MetadataError.self) { try read(Array(jpeg.prefix(20))) }
        // EXIF whose offsets point anywhere: values are dropped, the photo is still read.
        var scrambled = jpeg
        for i in stride(from: 30, to: 200, by: 5) { scrambled[i] = 0xFF }
        _ = try? read(scrambled)
    }

    @Test func hostileExifStringsAreCleaned() throws {
        let exif = Fixtures.tiff(ifd0: [0x010F: .ascii("Evil\u{1B}[31m\n<script>"), 0x0110: .ascii(String(repeating: "x", count: 500))])
        let m = try read(try Fixtures.jpeg(Fixtures.gradient(width: 8, height: 8), exif: exif))
        #expect(m.camera.make == "Evil[31m<script>")
        #expect((m.camera.model ?? "").count <= 120)
    }
}
