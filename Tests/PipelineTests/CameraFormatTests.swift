import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Containers
@testable import GalleryKit
@testable import Imaging
@testable import Metadata

/// HEIC/HEIF/AVIF, TIFF and RAW as first-class photos: upright, dated,
/// coloured right, refused when hostile, paired when shot as RAW+JPEG.
@Suite struct CameraFormatTests {
    /// Reads metadata and makes one WebP rendition fitted in `box`, decoded.
    static func render(_ bytes: [UInt8], fileName: String, box: PixelSize = PixelSize(width: 96, height: 96))
        throws -> (metadata: PhotoMetadata, image: RGBAImage) {
        let metadata = try bytes.withUnsafeBytes { try MetadataReader.read($0, fileName: fileName, modificationDate: Date()) }
        let size = metadata.displaySize.fitting(in: box)
        let spec = RenditionSpec(role: .preview, box: box, encoding: .webp(quality: 95))
        let outputs = try bytes.withUnsafeBytes {
            try RenditionMaker.make($0, format: metadata.format, storedSize: metadata.storedSize, orientation: metadata.orientation,
                                    jobs: [RenditionJob(spec: spec, size: size)], maximumPixels: 1 << 30)
        }
        let image = try CameraFixtures.decode(outputs[0])
        #expect(image.size == size)
        return (metadata, image)
    }

    static func expectPattern(_ image: RGBAImage, _ expected: [(Int, Int, Int)], tolerance: Int = 40,
                              _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (got, want) in zip(CameraFixtures.quadrantColours(image), expected) {
            #expect(CameraFixtures.close(got, want, tolerance: tolerance), "\(comment): got \(got), want \(want)",
                    sourceLocation: sourceLocation)
        }
    }

    // MARK: HEIF

    /// An iPhone-like HEIC: EXIF Orientation 6 (informational in HEIF) on
    /// pixels that are either stored upright or stored turned with an `irot`
    /// that turns them back. Upright either way, landscape, with the date,
    /// offset and camera from the Exif item.
    @Test(arguments: [false, true])
    func heifIsUprightWithOrWithoutIrotWhateverExifSays(withIrot: Bool) throws {
        let folder = try TemporaryFolder()
        let upright = Fixtures.quadrants(width: 128, height: 96)
        // Stored turned clockwise; irot 1 (a quarter turn anticlockwise) shows it upright.
        let stored = withIrot ? OrientationTransform.apply(.right, to: upright) : upright
        var url = try CameraFixtures.heif(Fixtures.png(stored), in: folder.url, name: "IMG_0001.HEIC", arguments: ["--no-alpha"])
        if withIrot {
            let rotated = try CameraFixtures.addRotation(try [UInt8](Data(contentsOf: url)), quarterTurns: 1)
            url = try folder.write("IMG_0001.HEIC", rotated)
        }
        try CameraFixtures.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", "-Make=Apple", "-Model=iPhone 14 Pro",
                                            "-DateTimeOriginal=2024:07:15 00:30:05", "-OffsetTimeOriginal=+09:00",
                                            "-GPSLatitude=35.6586", "-GPSLatitudeRef=N", "-GPSLongitude=139.7454", "-GPSLongitudeRef=E",
                                            url.path])
        let bytes = try [UInt8](Data(contentsOf: url))
        let (metadata, image) = try Self.render(bytes, fileName: "IMG_0001.HEIC")
        #expect(metadata.format == .heif)
        #expect(metadata.orientation == .up, "EXIF Orientation must not be applied on top of the HEIF transforms")
        #expect(metadata.displaySize == PixelSize(width: 128, height: 96))
        #expect(metadata.captureDate.source == .original)
        #expect(metadata.captureDate.utcOffsetSeconds == 9 * 3600)
        #expect(metadata.captureDate.localDay == LocalDay(year: 2024, month: 7, day: 15))
        #expect(metadata.camera.cameraName == "Apple iPhone 14 Pro")
        #expect(metadata.gps != nil, "GPS is read (and never published)")
        Self.expectPattern(image, CameraFixtures.quadrantPattern, "irot \(withIrot)")
    }

    /// AVIF (AV1 in HEIF) reads like HEIC.
    @Test func avifIsRead() throws {
        let folder = try TemporaryFolder()
        let url = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 96, height: 64)), in: folder.url, name: "photo.avif",
                                          arguments: ["--no-alpha"])
        let (metadata, image) = try Self.render(try [UInt8](Data(contentsOf: url)), fileName: "photo.avif")
        #expect(metadata.format == .heif)
        Self.expectPattern(image, CameraFixtures.quadrantPattern, tolerance: 20, "avif")
    }

    /// 10-bit HEIC (like Sony HIF): 8-bit with rounding, colours kept.
    /// (libaom 3.6 aborts on 10-bit 4:4:4 input from heif-enc, so no 10-bit AVIF is made here.)
    @Test(arguments: ["IMG.HIF"])
    func tenBitImagesBecomeEightBit(name: String) throws {
        let folder = try TemporaryFolder()
        let colours: [(UInt16, UInt16, UInt16)] = [(0xE6E6, 0x1414, 0x1414), (0x1414, 0xC8C8, 0x1414), (0x1414, 0x1414, 0xE6E6), (0xF5F5, 0xF5F5, 0xF5F5)]
        let url = try CameraFixtures.heif(CameraFixtures.png16(width: 96, height: 64, quadrants: colours), in: folder.url, name: name,
                                          arguments: ["-b", "10", "-p", "chroma=444"])
        let (metadata, image) = try Self.render(try [UInt8](Data(contentsOf: url)), fileName: name)
        #expect(metadata.format == .heif)
        Self.expectPattern(image, CameraFixtures.quadrantPattern, tolerance: 16, name)
    }

    /// PQ inverse EOTF: the signal for `nits`.
    static func pqSignal(nits: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let y = pow(nits / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// HDR (PQ and HLG, BT.2020) is tone-mapped: SDR reference white comes
    /// out near white, not the flat grey of the raw signal, highlights stay
    /// brighter than it, and shadows stay dark.
    @Test(arguments: ["pq", "hlg"])
    func hdrIsToneMappedNotTruncated(transfer: String) throws {
        let folder = try TemporaryFolder()
        func code(_ signal: Double) -> UInt16 { UInt16((signal * 65535).rounded()) }
        let signals: [Double] = transfer == "pq"
            ? [Self.pqSignal(nits: 203), Self.pqSignal(nits: 1000), Self.pqSignal(nits: 2), 0]
            : [0.75, 1.0, 0.12, 0]  // BT.2408: HLG reference white at 75 %
        let quadrants = signals.map { s in (code(s), code(s), code(s)) }
        let url = try CameraFixtures.heif(CameraFixtures.png16(width: 96, height: 64, quadrants: quadrants), in: folder.url, name: "hdr.heic",
                                          arguments: ["-b", "10", "-p", "chroma=444"])
        // BT.2020 primaries with the HDR transfer; the matrix stays the one
        // heif-enc encoded with (the greys here are neutral in any matrix).
        let hdr = try CameraFixtures.addNCLX(try [UInt8](Data(contentsOf: url)), primaries: 9, transfer: transfer == "pq" ? 16 : 18, matrix: 6)
        let info = try CameraFixtures.run("heif-info", [try folder.write("check.heic", hdr).path])
        #expect(info.contains("color profile: nclx"), "\(info)")
        let (_, image) = try Self.render(hdr, fileName: "hdr.heic")
        let q = CameraFixtures.quadrantColours(image).map { ($0.0 + $0.1 + $0.2) / 3 }
        let truncated = Int(signals[0] * 255)
        #expect(q[0] >= 215, "\(transfer): reference white came out \(q[0]) (the raw signal would be \(truncated))")
        #expect(q[1] >= q[0] && q[1] >= 245, "\(transfer): highlights \(q[1]) must stay above reference white \(q[0])")
        #expect(q[2] <= 60, "\(transfer): shadows came out \(q[2])")
        #expect(q[3] <= 8, "\(transfer): black came out \(q[3])")
    }

    /// The planar path (libheif's YCbCr planes resampled as they are) gives
    /// the picture the RGB path gives: same range, same matrix, no shift.
    @Test func planarHEIFMatchesTheRGBPath() throws {
        let folder = try TemporaryFolder()
        let url = try CameraFixtures.heif(Fixtures.png(Fixtures.gradient(width: 160, height: 120)), in: folder.url, name: "g.heic",
                                          arguments: ["--no-alpha"])
        let bytes = try [UInt8](Data(contentsOf: url))
        let size = PixelSize(width: 80, height: 60)
        let planar = try bytes.withUnsafeBytes { raw in
            try HEIFCodec.planarRenditions(raw, maximumPixels: 1 << 30, sizes: [size], ranges: [.full]) { (_, image, icc) throws(ImagingError) in
                try JPEGCodec.encode(image, quality: 100, iccProfile: icc)
            }
        }
        let planarImage = try CameraFixtures.decode(try #require(planar?.first))
        let rgb = try bytes.withUnsafeBytes { raw in
            try HEIFCodec.withDecoded(raw, maximumPixels: 1 << 30) { (pixels, _) throws(ImagingError) in
                LanczosResampler.resize(pixels, width: size.width, height: size.height)
            }
        }
        var total = 0
        for i in 0..<(size.area * 4) where i % 4 != 3 { total += abs(Int(planarImage.pixels[i]) - Int(rgb.pixels[i])) }
        let mean = Double(total) / Double(size.area * 3)
        #expect(mean < 3, "planar and RGB renditions differ by \(mean) per sample")
    }

    /// A grid image (tiles coded separately, as phones store them) decodes whole.
    @Test func gridHEIFDecodesWhole() throws {
        let folder = try TemporaryFolder()
        let picture = Fixtures.quadrants(width: 128, height: 96)
        func half(_ x0: Int) -> RGBAImage {
            RGBAImage(width: 64, height: 96, hasAlpha: false) { out in
                for y in 0..<96 { for x in 0..<64 { for c in 0..<4 { out[(y * 64 + x) * 4 + c] = picture.pixels[(y * 128 + x0 + x) * 4 + c] } } }
            }
        }
        let left = try CameraFixtures.heif(Fixtures.png(half(0)), in: folder.url, name: "left.heic", arguments: ["--no-alpha"])
        let right = try CameraFixtures.heif(Fixtures.png(half(64)), in: folder.url, name: "right.heic", arguments: ["--no-alpha"])
        let grid = try CameraFixtures.gridHEIF(left: try [UInt8](Data(contentsOf: left)), right: try [UInt8](Data(contentsOf: right)),
                                               tile: PixelSize(width: 64, height: 96), output: PixelSize(width: 128, height: 96))
        let info = try CameraFixtures.run("heif-info", [try folder.write("grid.heic", grid).path])
        #expect(info.contains("image: 128x96"), "\(info)")
        let (metadata, image) = try Self.render(grid, fileName: "grid.heic", box: PixelSize(width: 128, height: 96))
        #expect(metadata.displaySize == PixelSize(width: 128, height: 96))
        Self.expectPattern(image, CameraFixtures.quadrantPattern, tolerance: 24, "grid")
    }

    @Test func heifAlphaIsKept() throws {
        let folder = try TemporaryFolder()
        var image = Fixtures.quadrants(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<16 { image.pixels[(y * 64 + x) * 4 + 3] = 0 } }
        let url = try CameraFixtures.heif(Fixtures.png(image), in: folder.url, name: "alpha.heic")
        let (_, rendered) = try Self.render(try [UInt8](Data(contentsOf: url)), fileName: "alpha.heic", box: PixelSize(width: 64, height: 48))
        #expect(rendered.hasAlpha)
        #expect(rendered.pixels[(24 * 64 + 4) * 4 + 3] < 30, "the transparent strip stays transparent")
        #expect(rendered.pixels[(24 * 64 + 48) * 4 + 3] > 225, "the rest stays opaque")
    }

    /// Truncated, garbage and lying files are named with a reason; a header
    /// claiming 200 MP is refused before decoding; the build goes on.
    @Test func hostileHEIFsAreNamedAndTheBuildGoesOn() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let good = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 128, height: 96)), in: source, name: "good.heic",
                                           arguments: ["--no-alpha"])
        let bytes = try [UInt8](Data(contentsOf: good))
        try folder.write("src/truncated.heic", Array(bytes.prefix(bytes.count / 2)))
        try folder.write("src/garbage.heic", [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
                         + (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try folder.write("src/huge.heic", try CameraFixtures.claimSize(bytes, width: 20_000, height: 10_000))
        let settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 1)
        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.reason) })
        #expect(reasons["truncated.heic"]?.contains("libheif") == true, "\(reasons)")
        #expect(reasons["garbage.heic"]?.contains("libheif") == true, "\(reasons)")
        #expect(reasons["huge.heic"]?.contains("too large: 200 MP") == true, "\(reasons) \(report.published)")
    }

    /// The coded-size check reads the real SPS of an x265 stream, so a
    /// stream larger than its header is refused before decoding.
    @Test func codedSizeIsReadFromTheStream() throws {
        let name = "coded.heic"
        let folder = try TemporaryFolder()
        let url = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 200, height: 120)), in: folder.url, name: name,
                                          arguments: ["--no-alpha"])
        let bytes = try [UInt8](Data(contentsOf: url))
        try bytes.withUnsafeBytes { raw in
            let r = ByteReader(bytes: raw)
            let meta = try #require(HEIFCodedSize.child("meta", in: 0..<raw.count, r))
            let iprp = try #require(HEIFCodedSize.child("iprp", in: (meta.lowerBound + 4)..<meta.upperBound, r))
            let ipco = try #require(HEIFCodedSize.child("ipco", in: iprp, r))
            let config = try #require(HEIFCodedSize.child("hvcC", in: ipco, r))
            let coded = try #require(HEIFCodedSize.hevcSize(r, config))
            #expect(coded.width >= 200 && coded.width <= 264 && coded.height >= 120 && coded.height <= 184, "\(coded)")
            #expect(HEIFCodedSize.violation(raw) == nil)
        }
        // The same file with every ispe claiming 32×32: the stream is larger, refused before decoding.
        let lying = try CameraFixtures.claimSize(bytes, width: 32, height: 32)
        #expect(throws: MetadataError.self) { _ = try lying.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) } }
    }

    /// The same for AV1: the sequence header of an aom stream (in the
    /// item's data, where heif-enc puts it) gives the coded size, and an
    /// AVIF whose header claims less is refused before dav1d sizes its buffers.
    @Test func av1CodedSizeIsReadFromTheStream() throws {
        let folder = try TemporaryFolder()
        let url = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 200, height: 120)), in: folder.url, name: "coded.avif",
                                          arguments: ["--no-alpha"])
        let bytes = try [UInt8](Data(contentsOf: url))
        try bytes.withUnsafeBytes { raw in
            let r = ByteReader(bytes: raw)
            let meta = try #require(HEIFCodedSize.child("meta", in: 0..<raw.count, r))
            let sizes = HEIFCodedSize.itemSizes(r, meta: (meta.lowerBound + 4)..<meta.upperBound)
            #expect(sizes.count == 1 && sizes[0].width == 200 && sizes[0].height == 120, "\(sizes)")
            #expect(HEIFCodedSize.violation(raw) == nil)
        }
        let lying = try CameraFixtures.claimSize(bytes, width: 32, height: 32)
        #expect(throws: MetadataError.self) { _ = try lying.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) } }
    }

    /// A grid canvas far taller than its thin header (found by FuzzHEIF) is
    /// refused by the metadata read and by the decoder on its own, which
    /// libheif's one-number size limit alone would have let allocate 767 MB.
    @Test func gridCanvasBeyondItsHeaderIsRefusedBeforeDecoding() throws {
        let url = TestData.regressions.appendingPathComponent("heif-grid-square-canvas-under-a-thin-header.heic")
        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(throws: MetadataError.self) { _ = try bytes.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) } }
        #expect {
            try bytes.withUnsafeBytes { raw in try HEIFCodec.withDecoded(raw, maximumPixels: 1 << 30) { _, _ in } }
        } throws: { error in
            (error as? ImagingError)?.description.contains("header says at most 17456x64") == true
        }
    }

    // MARK: TIFF

    /// Every layout, orientation 6 applied, EXIF read from a directory that
    /// sits after the pixels.
    @Test(arguments: CameraFixtures.Layout.allCases)
    func tiffLayoutsAreReadUpright(layout: CameraFixtures.Layout) throws {
        let stored = Fixtures.quadrants(width: 240, height: 160)
        let bytes = CameraFixtures.tiff(stored, layout: layout, orientation: 6)
        #expect(bytes.count > 65_536 || layout == .grey8 || layout == .palette)
        let (metadata, image) = try Self.render(bytes, fileName: "scan.tif")
        #expect(metadata.format == .tiff)
        #expect(metadata.orientation == .right)
        #expect(metadata.displaySize == PixelSize(width: 160, height: 240))
        #expect(metadata.captureDate.localDay == LocalDay(year: 2023, month: 8, day: 14))
        #expect(metadata.captureDate.utcOffsetSeconds == -4 * 3600)
        #expect(metadata.camera.cameraName == "Epson Perfection V600")
        #expect(metadata.gps != nil)
        let expected = CameraFixtures.quadrantColours(OrientationTransform.apply(.right, to: stored))
        if layout == .grey8 {
            let greys = expected.map { c in (c.0 * 299 + c.1 * 587 + c.2 * 114) / 1000 }
            Self.expectPattern(image, greys.map { ($0, $0, $0) }, tolerance: 12, "grey")
        } else {
            Self.expectPattern(image, expected, tolerance: 12, layout.rawValue)
        }
        if layout == .rgbaUnassociated {
            #expect(image.hasAlpha)
        }
    }

    /// Compressions, tiles and several pages, as libtiff's own tiffcp writes them.
    @Test(arguments: [["-c", "lzw"], ["-c", "zip"], ["-c", "jpeg", "-r", "16"], ["-c", "packbits"], ["-t", "-w", "32", "-l", "32", "-c", "zip"], ["multipage"]])
    func tiffCompressionsTilesAndPages(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let stored = Fixtures.quadrants(width: 120, height: 80)
        let input = try folder.write("in.tif", CameraFixtures.tiff(stored, layout: .rgb8, orientation: 1))
        let output = folder.url.appendingPathComponent("out.tif")
        if arguments == ["multipage"] {
            let second = try folder.write("second.tif", CameraFixtures.tiff(Fixtures.gradient(width: 50, height: 50), layout: .grey8))
            try CameraFixtures.run("tiffcp", [input.path, second.path, output.path])
        } else {
            try CameraFixtures.run("tiffcp", arguments + [input.path, output.path])
        }
        let (metadata, image) = try Self.render(try [UInt8](Data(contentsOf: output)), fileName: "out.tif")
        #expect(metadata.displaySize == stored.size)
        Self.expectPattern(image, CameraFixtures.quadrantPattern, tolerance: arguments.contains("jpeg") ? 24 : 12, arguments.joined(separator: " "))
    }

    @Test func brokenTIFFsAreNamed() throws {
        let good = CameraFixtures.tiff(Fixtures.quadrants(width: 120, height: 80), layout: .rgb8)
        // The directory is at the end: cut it off and nothing is left to read.
        let truncated = Array(good.prefix(good.count - 40))
        #expect(throws: (any Error).self) { _ = try Self.render(truncated, fileName: "cut.tif") }
        // The pixels cut short: the directory is intact, the strip is not.
        var shortStrip = good
        shortStrip.replaceSubrange(8..<2000, with: [])
        let directory = Int(shortStrip[4]) | Int(shortStrip[5]) << 8 | Int(shortStrip[6]) << 16 | Int(shortStrip[7]) << 24
        shortStrip.replaceSubrange(4..<8, with: Fixtures.le32(UInt32(directory - 1992)))
        #expect(throws: (any Error).self) { _ = try Self.render(shortStrip, fileName: "short.tif") }
    }

    // MARK: RAW

    /// A DNG demosaiced by libraw: the picture's bright corner lands where
    /// the orientation says, and the EXIF date and the camera are read.
    @Test func rawIsDemosaicedUpright() throws {
        // Bright top-left, dark elsewhere: robust to the camera colour matrix.
        let stored = RGBAImage(width: 160, height: 120, hasAlpha: false) { buffer in
            for y in 0..<120 { for x in 0..<160 {
                let v: UInt8 = (x < 80 && y < 60) ? 240 : 40
                let i = (y * 160 + x) * 4
                buffer[i] = v; buffer[i + 1] = v; buffer[i + 2] = v; buffer[i + 3] = 255
            } }
        }
        let (metadata, image) = try Self.render(CameraFixtures.dng(stored, orientation: 6), fileName: "DSC_0001.DNG")
        #expect(metadata.format == .raw)
        #expect(metadata.orientation == .right)
        #expect(metadata.displaySize == PixelSize(width: 120, height: 160))
        #expect(metadata.captureDate.localDay == LocalDay(year: 2022, month: 5, day: 1))
        #expect(metadata.captureDate.utcOffsetSeconds == 3600)
        #expect(metadata.camera.model?.contains("Bayer One") == true)
        // Turned clockwise, the stored top-left corner is now top-right.
        let brightness = CameraFixtures.quadrantColours(image).map { ($0.0 + $0.1 + $0.2) / 3 }
        #expect(brightness[1] > brightness[0] + 60 && brightness[1] > brightness[2] + 60 && brightness[1] > brightness[3] + 60,
                "bright corner expected top-right: \(brightness)")
    }

    /// With an embedded full-size JPEG preview, the preview is what is shown
    /// (the camera's own rendering, and far faster than demosaicing).
    @Test func rawUsesTheEmbeddedPreviewWhenLargeEnough() throws {
        let sensor = RGBAImage(width: 160, height: 120, hasAlpha: false) { $0.update(repeating: 90) }
        let preview = try Fixtures.jpeg(Fixtures.quadrants(width: 160, height: 120))
        let (_, image) = try Self.render(CameraFixtures.dng(sensor, preview: preview), fileName: "DSC_0002.dng")
        Self.expectPattern(image, CameraFixtures.quadrantPattern, tolerance: 24, "preview")
    }

    // MARK: The whole pipeline

    /// RAW+JPEG: one item by default, both with `raw_pairs: both`.
    @Test(arguments: [RawPairs.preferJPEG, .both])
    func rawAndJPEGOfOneShotAreOneItem(pairs: RawPairs) async throws {
        let folder = try TemporaryFolder()
        let picture = Fixtures.quadrants(width: 160, height: 120)
        try folder.write("src/IMG_0001.CR2.txt", Array("notes".utf8))
        try folder.write("src/IMG_0001.dng", CameraFixtures.dng(picture))
        try folder.write("src/IMG_0001.JPG", try Fixtures.jpeg(picture, exif: Fixtures.cameraExif()))
        try folder.write("src/IMG_0002.dng", CameraFixtures.dng(picture))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"))
        settings.rawPairs = pairs
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        if pairs == .preferJPEG {
            #expect(report.published == 2)
            #expect(report.pairedRaw == ["IMG_0001.dng"])
            #expect(report.summary.contains("Showed 1 RAW file through the JPEG or HEIC of the same name"))
        } else {
            #expect(report.published == 3)
            #expect(report.pairedRaw.isEmpty)
        }
        #expect(report.ignored == ["IMG_0001.CR2.txt"])
    }

    /// A phone-and-camera library: on its local day in moments, facts on
    /// the page, downloads as metadata-free JPEGs, nothing published that
    /// carries EXIF or GPS, and a rebuild that reuses everything.
    @Test func mixedLibraryBuildsEndToEnd() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("src")
        let phone = source.appendingPathComponent("Phone")
        try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: true)
        let heic = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 128, height: 96)), in: phone, name: "IMG_0001.HEIC",
                                           arguments: ["--no-alpha"])
        try CameraFixtures.run("exiftool", ["-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 14 Pro",
                                            "-DateTimeOriginal=2024:07:15 00:30:05", "-OffsetTimeOriginal=+09:00",
                                            "-GPSLatitude=35.6586", "-GPSLatitudeRef=N", heic.path])
        _ = try CameraFixtures.heif(Fixtures.png(Fixtures.quadrants(width: 96, height: 96)), in: phone, name: "photo.avif",
                                    arguments: ["--no-alpha"])
        try folder.write("src/Scans/scan.tiff", CameraFixtures.tiff(Fixtures.quadrants(width: 120, height: 80), layout: .rgb16))
        try folder.write("src/Camera/DSC_0001.DNG", CameraFixtures.dng(Fixtures.quadrants(width: 160, height: 120)))
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.publishOriginals = true
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(report.published == 4)
        #expect(report.ignored.isEmpty)

        let out = settings.output
        let moments = try String(contentsOf: out.appendingPathComponent("moments/index.html"), encoding: .utf8)
        #expect(moments.contains("datetime=\"2024-07-15\""), "the HEIC on its local day (it was the 14th in UTC)")
        let page = try String(contentsOf: out.appendingPathComponent("albums/phone/img-0001.html"), encoding: .utf8)
        #expect(page.contains("iPhone 14 Pro"))
        #expect(page.contains("width=\"128\" height=\"96\"") || page.contains("128 × 96"))
        let media = try FileManager.default.subpathsOfDirectory(atPath: out.appendingPathComponent("media").path).filter { $0.contains(".") }
        #expect(media.filter { $0.contains("-original.") }.count == 4)
        for path in media {
            let data = try Data(contentsOf: out.appendingPathComponent("media").appendingPathComponent(path))
            #expect(data.range(of: Data("Exif".utf8)) == nil, "\(path) carries EXIF")
            #expect(data.range(of: Data("iPhone".utf8)) == nil && data.range(of: Data("Epson".utf8)) == nil, "\(path) carries camera tags")
            if path.contains("-original.") { #expect(path.hasSuffix(".jpg") && data.prefix(2) == Data([0xFF, 0xD8])) }
        }
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.renditionsMade == 0)
        #expect(again.published == 4)
    }
}
