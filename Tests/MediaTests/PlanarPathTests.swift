import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Imaging

/// The JPEG fast path: planes streamed from libjpeg, resampled one by one,
/// encoded without an RGB round trip. Each test compares it with the RGBA path
/// (full RGB decode, Lanczos on RGBA), which the rest of the suite pins down.
@Suite struct PlanarPathTests {
    static let variants = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("JPEGVariants")

    /// PSNR of the luma (BT.601 weights) of two same-sized images: 4:2:0
    /// outputs of a pattern with sharp colour edges differ in chroma by design
    /// (libjpeg box-averages chroma, the planar path filters it with Lanczos),
    /// so chroma is checked separately, on a flat patch.
    func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        precondition(a.size == b.size)
        func luma(_ p: [UInt8], _ i: Int) -> Double { 0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2]) }
        var squared = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let d = luma(a.pixels, i) - luma(b.pixels, i)
            squared += d * d
        }
        let mse = squared / Double(a.width * a.height)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The mean colour of the middle of the fixtures' red square (x 40..<60,
    /// y 20..<40 at 97×61), scaled to `image`.
    func squareColour(_ image: RGBAImage) -> (Double, Double, Double) {
        let sx = Double(image.width) / 97, sy = Double(image.height) / 61
        var sum = (0.0, 0.0, 0.0), n = 0.0
        for y in Int((25 * sy).rounded(.up))..<Int(35 * sy) {
            for x in Int((45 * sx).rounded(.up))..<Int(55 * sx) {
                let i = (y * image.width + x) * 4
                sum.0 += Double(image.pixels[i]); sum.1 += Double(image.pixels[i + 1]); sum.2 += Double(image.pixels[i + 2])
                n += 1
            }
        }
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    /// The reference: full-scale RGB decode, Lanczos on RGBA, turned upright.
    func reference(_ jpeg: [UInt8], size: PixelSize, orientation: Orientation = .up) throws -> RGBAImage {
        let decoded = try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) }
        let stored = orientation.storedSize(ofDisplayed: size)
        let resized = LanczosResampler.resize(decoded.image, width: stored.width, height: stored.height)
        return OrientationTransform.apply(orientation, to: resized)
    }

    func decodeOutput(_ bytes: [UInt8], format: OutputFormat) throws -> RGBAImage {
        try bytes.withUnsafeBytes { raw in
            switch format {
            case .jpeg: return try JPEGCodec.decode(raw, scaleDenominator: 1, maximumPixels: 1 << 30).image
            case .webp: return try WebPCodec.decode(raw, maximumPixels: 1 << 30).image
            case .avif:
                return try HEIFCodec.withDecoded(raw, maximumPixels: 1 << 30) { pixels, _ in
                    RGBAImage(width: pixels.width, height: pixels.height, hasAlpha: false) { out in
                        for y in 0..<pixels.height {
                            for x in 0..<pixels.width {
                                for c in 0..<4 {
                                    out[(y * pixels.width + x) * 4 + c] = c < pixels.channels ? pixels.base[y * pixels.rowBytes + x * pixels.channels + c] : 255
                                }
                            }
                        }
                    }
                }
            case .mp4: throw ImagingError.undecodable("not a still format")
            }
        }
    }

    /// Planes far taller than the picture asked of them (a hostile HEIF whose
    /// decoded size does not match its header; found by FuzzHEIF as a single
    /// 3 GB allocation) are refused as damaged before any ring is allocated.
    @Test func planesFarTallerThanTheirPictureAreRefused() {
        let layout = JPEGCodec.PlaneLayout(size: PixelSize(width: 4000, height: 60000),
                                           planes: [PixelSize(width: 4000, height: 60000), PixelSize(width: 2000, height: 30000),
                                                    PixelSize(width: 2000, height: 30000)])
        var rowsAsked = 0
        #expect(throws: ImagingError.self) {
            _ = try PlanarRenditionMaker.make(sizes: [PixelSize(width: 280, height: 2)], ranges: [.full], orientation: .up, sourceRange: .full,
                                              stream: { start, _ in _ = start(layout); rowsAsked += 1; return true },
                                              encode: { _, _ in [] })
        }
        #expect(rowsAsked == 1)
        // An ordinary large photo is well inside the bound.
        let ring = PlaneResampler.ringSamples(sourceWidth: 12000, sourceHeight: 9000, height: 210)
        #expect(ring != nil && ring! < PlanarRenditionMaker.largestRing)
    }

    @Test func planeResamplerMatchesTheRGBAResampler() {
        let (sw, sh, dw, dh) = (301, 203, 97, 61)
        let image = Fixtures.gradient(width: sw, height: sh)
        var grey = image
        for i in stride(from: 0, to: grey.pixels.count, by: 4) {
            let v = UInt8((Int(image.pixels[i]) * 7 + Int(image.pixels[i + 1]) * 3 + (i / 4) % 17) % 256)
            grey.pixels[i] = v; grey.pixels[i + 1] = v; grey.pixels[i + 2] = v
        }
        let plane = Plane(width: sw, height: sh, samples: stride(from: 0, to: grey.pixels.count, by: 4).map { grey.pixels[$0] })
        let resampler = PlaneResampler(sourceWidth: sw, sourceHeight: sh, width: dw, height: dh)
        resampler.push(plane)
        let planar = resampler.finish()
        let rgba = LanczosResampler.resize(grey, width: dw, height: dh)
        var worst = 0
        for i in 0..<(dw * dh) { worst = max(worst, abs(Int(planar.samples[i]) - Int(rgba.pixels[i * 4]))) }
        #expect(worst <= 1, "planar and RGBA Lanczos differ by up to \(worst)")
    }

    @Test func planeOrientationMatchesTheRGBATransform() throws {
        let image = Fixtures.quadrants(width: 9, height: 5)
        let plane = Plane(width: 9, height: 5, samples: (0..<45).map { UInt8($0) })
        var indexed = image
        for i in 0..<45 { indexed.pixels[i * 4] = UInt8(i) }
        for value in 1...8 {
            let orientation = try #require(Orientation(rawValue: value))
            let turned = plane.oriented(orientation)
            let expected = OrientationTransform.apply(orientation, to: indexed)
            #expect(turned.size == expected.size)
            #expect(turned.samples == stride(from: 0, to: expected.pixels.count, by: 4).map { expected.pixels[$0] }, "orientation \(value)")
        }
    }

    /// Planes larger than the turn's 8 x 8 blocks (and not multiples of
    /// them), exact multiples, and slivers turn exactly as the per-pixel map
    /// says, in every orientation.
    @Test(arguments: [PixelSize(width: 75, height: 41), PixelSize(width: 64, height: 16), PixelSize(width: 1, height: 9),
                      PixelSize(width: 9, height: 1), PixelSize(width: 7, height: 8)])
    func planesTurnBlockByBlock(stored: PixelSize) throws {
        let plane = Plane(width: stored.width, height: stored.height,
                          samples: (0..<(stored.width * stored.height)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / stored.width) })
        for orientation in Orientation.allCases {
            let turned = plane.oriented(orientation)
            let shown = orientation.displaySize(ofStored: stored)
            #expect(turned.size == shown)
            var expected = [UInt8](repeating: 0, count: shown.width * shown.height)
            for y in 0..<shown.height {
                for x in 0..<shown.width {
                    let p = orientation.sourcePixel(x: x, y: y, stored: stored)
                    expected[y * shown.width + x] = plane.samples[p.y * stored.width + p.x]
                }
            }
            #expect(turned.samples == expected, "\(orientation)")
        }
    }

    /// The planar encoder reads a strip where it lies when the width is whole
    /// blocks and no row is past the bottom, and copies it into a padded strip
    /// otherwise: both give back the planes (a row taken from the wrong place
    /// would not), at widths of whole blocks and not, heights of whole strips
    /// and not.
    @Test(arguments: [PixelSize(width: 64, height: 48), PixelSize(width: 64, height: 41), PixelSize(width: 70, height: 48),
                      PixelSize(width: 16, height: 16), PixelSize(width: 48, height: 7)])
    func planesEncodeAndDecodeBack(size: PixelSize) throws {
        func plane(_ width: Int, _ height: Int, _ seed: Int) -> Plane {
            // Smooth, different in every row and column: a misplaced row shows.
            Plane(width: width, height: height, samples: (0..<(width * height)).map { i in
                let x = Double(i % width), y = Double(i / width)
                return UInt8(128 + 100 * sin(x / 5 + Double(seed)) * cos(y / 4 - Double(seed)))
            })
        }
        let chroma = YCbCrImage.chromaSize(of: size)
        let image = YCbCrImage(luma: plane(size.width, size.height, 0), blue: plane(chroma.width, chroma.height, 1),
                               red: plane(chroma.width, chroma.height, 2), range: .full)
        let jpeg = try JPEGCodec.encode(image, quality: 95, iccProfile: nil)
        var planes: [[UInt8]] = [[], [], []]
        var icc: [UInt8]?
        var widths: [Int] = []
        let planar = try jpeg.withUnsafeBytes { bytes in
            try JPEGCodec.streamPlanes(bytes, scaleDenominator: 1, icc: &icc, start: { layout in
                widths = layout.planes.map(\.width)
                return layout.planes.map { _ in 1 }
            }, row: { plane, samples in
                planes[plane].append(contentsOf: UnsafeBufferPointer(start: samples, count: widths[plane]))
            })
        }
        #expect(widths == [size.width, chroma.width, chroma.width])
        #expect(planar)
        for (index, source) in [image.luma, image.blue, image.red].enumerated() {
            #expect(planes[index].count == source.samples.count, "plane \(index)")
            guard planes[index].count == source.samples.count else { continue }
            let squared = zip(planes[index], source.samples).reduce(0.0) { sum, pair in
                let d = Double(pair.0) - Double(pair.1)
                return sum + d * d
            }
            let psnr = squared == 0 ? 99 : 10 * log10(255 * 255 * Double(source.samples.count) / squared)
            #expect(psnr > 38, "\(size) plane \(index): \(psnr) dB")
        }
    }

    /// The resamplers read a JPEG's rows where the decoder left them, so the
    /// decoder keeps as many of each plane's latest rows intact as `start`
    /// asks: checked at every row against copies taken when each came.
    @Test(arguments: [1, 2, 17, 37])
    func theDecoderKeepsTheRowsItIsAskedToKeep(kept: Int) throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 203, height: 157), quality: 90)
        var icc: [UInt8]?
        var widths: [Int] = []
        var delivered: [[(pointer: UnsafePointer<UInt8>, copy: [UInt8])]] = [[], [], []]
        var overwritten = 0
        let planar = try jpeg.withUnsafeBytes { raw in
            try JPEGCodec.streamPlanes(raw, scaleDenominator: 1, icc: &icc, start: { layout in
                widths = layout.planes.map(\.width)
                return layout.planes.map { _ in kept }
            }, row: { plane, samples in
                delivered[plane].append((samples, Array(UnsafeBufferPointer(start: samples, count: widths[plane]))))
                for row in delivered[plane].suffix(kept) where !row.copy.elementsEqual(UnsafeBufferPointer(start: row.pointer, count: widths[plane])) {
                    overwritten += 1
                }
            })
        }
        #expect(planar && delivered[0].count == 157 && delivered[1].count == 79)
        #expect(overwritten == 0, "rows overwritten while they were to be kept")
        // Rows are not all identical (else the check above proves nothing).
        #expect(Set(delivered[0].map(\.copy)).count > 100)
    }

    /// A 10-bit HEIF plane (Sony HIF) is rounded to 8 bits into a ring the
    /// resamplers read in place: the rows asked to be kept stay intact, and
    /// each is its 10-bit row rounded.
    @Test(arguments: [1, 5, 37])
    func deeperHEIFRowsAreKeptInTheirRing(kept: Int) {
        let width = 33, height = 90
        let words = UnsafeMutablePointer<UInt16>.allocate(capacity: width * height)
        defer { words.deallocate() }
        for y in 0..<height { for x in 0..<width { words[y * width + x] = UInt16((y * 37 + x * 5) % 1024) } }
        let plane = HEIFCodec.SourcePlane(base: UnsafeRawPointer(words).assumingMemoryBound(to: UInt8.self), stride: width * 2,
                                          size: PixelSize(width: width, height: height), depth: 10)
        var delivered: [(pointer: UnsafePointer<UInt8>, copy: [UInt8])] = []
        var overwritten = 0, wrong = 0
        HEIFCodec.streamRows([plane], kept: [kept]) { _, samples in
            let row = Array(UnsafeBufferPointer(start: samples, count: width))
            let y = delivered.count
            wrong += (0..<width).filter { x in Int(row[x]) != (Int(words[y * width + x]) * 255 + 511) / 1023 }.count
            delivered.append((samples, row))
            overwritten += delivered.suffix(kept).filter { !$0.copy.elementsEqual(UnsafeBufferPointer(start: $0.pointer, count: width)) }.count
        }
        #expect(delivered.count == height && wrong == 0)
        #expect(overwritten == 0, "rows overwritten while they were to be kept")
    }

    /// A source that stops short without an error is refused, never read past.
    @Test func aStreamThatEndsEarlyIsDamaged() {
        let layout = JPEGCodec.PlaneLayout(size: PixelSize(width: 64, height: 48), planes: [PixelSize(width: 64, height: 48)])
        let row = [UInt8](repeating: 90, count: 64)
        #expect(throws: ImagingError.self) {
            _ = try PlanarRenditionMaker.make(sizes: [PixelSize(width: 16, height: 12)], ranges: [.full], orientation: .up, sourceRange: .full,
                                              stream: { start, push in
                _ = start(layout)
                row.withUnsafeBufferPointer { for _ in 0..<30 { push(0, $0.baseAddress!) } }
                return true
            }, encode: { _, _ in [] })
        }
    }

    @Test(arguments: ["ycc444.jpg", "ycc422.jpg", "ycc420-progressive.jpg", "grey.jpg", "cmyk.jpg"])
    func everyLayoutMatchesTheRGBAPath(name: String) throws {
        let jpeg = try [UInt8](Data(contentsOf: Self.variants.appendingPathComponent(name)))
        var icc: [UInt8]?
        var layout: JPEGCodec.PlaneLayout?
        var rows = [0, 0, 0]
        let planar = try jpeg.withUnsafeBytes { raw in
            try JPEGCodec.streamPlanes(raw, scaleDenominator: 1, icc: &icc, start: { layout = $0; return [] }, row: { plane, _ in rows[plane] += 1 })
        }
        if name == "cmyk.jpg" {
            #expect(!planar && layout == nil, "CMYK goes through the RGBA path")
        } else {
            let found = try #require(layout)
            #expect(found.size == PixelSize(width: 97, height: 61))
            let expectedChroma: PixelSize? = switch name {
            case "ycc444.jpg": PixelSize(width: 97, height: 61)
            case "ycc422.jpg": PixelSize(width: 49, height: 61)
            case "ycc420-progressive.jpg": PixelSize(width: 49, height: 31)
            default: nil
            }
            #expect(found.planes.count == (expectedChroma == nil ? 1 : 3))
            if let expectedChroma { #expect(Array(found.planes.dropFirst()) == [expectedChroma, expectedChroma]) }
            for (plane, size) in found.planes.enumerated() { #expect(rows[plane] == size.height, "every row of plane \(plane) delivered once") }
        }
        // Same size, a smaller one, and one needing 2× headroom from the first;
        // then a small size alone, which is decoded at DCT scale 1/2.
        let sizes = [PixelSize(width: 97, height: 61), PixelSize(width: 60, height: 38), PixelSize(width: 24, height: 15)]
        #expect(DCTScale.denominator(stored: PixelSize(width: 97, height: 61), largestTarget: PixelSize(width: 24, height: 15)) == 2)
        // AVIF after a JPEG (full-range planes) or a WebP (limited): encoded
        // from the same planes as the job of its size, in either range.
        for (format, sizes, avif) in [(OutputFormat.jpeg, sizes, false), (.webp, sizes, false), (.jpeg, [PixelSize(width: 24, height: 15)], false),
                                      (.webp, [PixelSize(width: 24, height: 15)], false), (.jpeg, sizes, true), (.webp, sizes, true)] {
            var jobs = sizes.map { RenditionJob(spec: RenditionSpec(role: .preview, box: $0, encoding: .still(format, quality: 95)), size: $0) }
            if avif { jobs += sizes.map { RenditionJob(spec: RenditionSpec(role: .preview, box: $0, encoding: .avif(quality: 95, speed: 8)), size: $0) } }
            let outputs = try jpeg.withUnsafeBytes { raw in
                try RenditionMaker.make(raw, format: .jpeg, storedSize: PixelSize(width: 97, height: 61), orientation: .up,
                                        jobs: jobs, maximumPixels: 1 << 30)
            }
            for (job, output) in zip(jobs, outputs) {
                let size = job.size, format = job.spec.format
                let image = try decodeOutput(output, format: format)
                #expect(image.size == size)
                let quality = psnr(image, try reference(jpeg, size: size))
                #expect(quality > 33, "\(name) \(format) \(size): luma \(quality) dB")
                if name != "grey.jpg", size.width >= 60 {
                    let (r, g, b) = squareColour(image)
                    #expect(abs(r - 220) < 14 && abs(g - 20) < 14 && abs(b - 40) < 14, "\(name) \(format): red square is \((r, g, b))")
                }
            }
        }
    }

    @Test(arguments: [1, 6, 8, 3])
    func scaledDecodeOfAnOddSizedPhotoWithOrientation(value: Int) throws {
        let orientation = try #require(Orientation(rawValue: value))
        let stored = PixelSize(width: 1001, height: 757)
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: stored.width, height: stored.height), quality: 95)
        let upright = orientation.displaySize(ofStored: stored)
        let size = upright.fitting(in: PixelSize(width: 240, height: 240))
        let storedTarget = orientation.storedSize(ofDisplayed: size)
        #expect(DCTScale.denominator(stored: stored, largestTarget: storedTarget) == 2, "the test must exercise DCT scaling")
        let job = RenditionJob(spec: RenditionSpec(role: .preview, box: PixelSize(width: 240, height: 240), encoding: .jpeg(quality: 95)), size: size)
        let output = try jpeg.withUnsafeBytes { raw in
            try RenditionMaker.make(raw, format: .jpeg, storedSize: stored, orientation: orientation, jobs: [job], maximumPixels: 1 << 30)
        }
        let image = try decodeOutput(output[0], format: .jpeg)
        #expect(image.size == size)
        let quality = psnr(image, try reference(jpeg, size: size, orientation: orientation))
        #expect(quality > 36, "orientation \(value): \(quality) dB")
    }

    @Test func truncatedJPEGIsReportedAsDamaged() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 400, height: 300))
        let cut = Array(jpeg.prefix(jpeg.count * 2 / 3))
        let job = RenditionJob(spec: RenditionSpec(role: .preview, box: PixelSize(width: 100, height: 75), encoding: .jpeg(quality: 85)),
                               size: PixelSize(width: 100, height: 75))
        #expect(throws: ImagingError.self) {
            try cut.withUnsafeBytes { raw in
                try RenditionMaker.make(raw, format: .jpeg, storedSize: PixelSize(width: 400, height: 300), orientation: .up,
                                        jobs: [job], maximumPixels: 1 << 30)
            }
        }
    }
}
