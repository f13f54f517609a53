import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Imaging

@Suite struct ImagingTests {
    typealias RGB = (Int, Int, Int)
    static let red: RGB = (230, 20, 20), green: RGB = (20, 200, 20), blue: RGB = (20, 20, 230), white: RGB = (245, 245, 245)

    func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> RGB {
        let i = (y * image.width + x) * 4
        return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }

    func close(_ a: RGB, _ b: RGB, tolerance: Int = 40) -> Bool {
        abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
    }

    /// Expected corner colours (TL, TR, BL, BR) of the upright image for a stored
    /// image with red/green over blue/white quadrants, per the EXIF definition.
    static let expectedCorners: [Int: [RGB]] = [
        1: [red, green, blue, white], 2: [green, red, white, blue], 3: [white, blue, green, red], 4: [blue, white, red, green],
        5: [red, blue, green, white], 6: [blue, red, white, green], 7: [white, green, blue, red], 8: [green, white, red, blue],
    ]

    @Test(arguments: 1...8)
    func orientationThroughTheWholePipeline(value: Int) throws {
        let stored = Fixtures.quadrants(width: 96, height: 64)
        let jpeg = try Fixtures.jpeg(stored, exif: Fixtures.cameraExif(orientation: UInt16(value)))
        let orientation = try #require(Orientation(rawValue: value))
        let shown = orientation.displaySize(ofStored: stored.size).fitting(in: PixelSize(width: 48, height: 48))
        let spec = RenditionSpec(role: .preview, box: PixelSize(width: 48, height: 48), encoding: .jpeg(quality: 95))
        let outputs = try jpeg.withUnsafeBytes {
            try RenditionMaker.make($0, format: .jpeg, storedSize: stored.size, orientation: orientation,
                                    jobs: [RenditionJob(spec: spec, size: shown)], maximumPixels: 1 << 30)
        }
        let decoded = try outputs[0].withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) }.image
        #expect(decoded.size == shown)
        #expect(decoded.width < decoded.height || value < 5, "orientations 5-8 swap width and height")
        let corners = [pixel(decoded, 2, 2), pixel(decoded, decoded.width - 3, 2), pixel(decoded, 2, decoded.height - 3),
                       pixel(decoded, decoded.width - 3, decoded.height - 3)]
        let expected = try #require(Self.expectedCorners[value])
        for (got, want) in zip(corners, expected) {
            #expect(close(got, want), "orientation \(value): got \(got), want \(want)")
        }
    }

    @Test func dctScaleKeepsTwiceTheTarget() {
        let photo = PixelSize(width: 4000, height: 3000)
        #expect(DCTScale.denominator(stored: photo, largestTarget: PixelSize(width: 1600, height: 1200)) == 1)
        #expect(DCTScale.denominator(stored: photo, largestTarget: PixelSize(width: 1000, height: 750)) == 2)
        #expect(DCTScale.denominator(stored: photo, largestTarget: PixelSize(width: 280, height: 210)) == 4)
        #expect(DCTScale.denominator(stored: photo, largestTarget: PixelSize(width: 250, height: 187)) == 8)
        #expect(DCTScale.denominator(stored: PixelSize(width: 100, height: 100), largestTarget: PixelSize(width: 100, height: 100)) == 1)
        // Both directions count: a panorama limited by its height.
        #expect(DCTScale.denominator(stored: PixelSize(width: 8000, height: 1000), largestTarget: PixelSize(width: 400, height: 50)) == 8)
        #expect(DCTScale.denominator(stored: PixelSize(width: 8000, height: 1000), largestTarget: PixelSize(width: 400, height: 126)) == 2)
    }

    @Test func dctScaledDecodeHasTheExpectedSize() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 203, height: 101))
        for (denominator, size) in [(1, PixelSize(width: 203, height: 101)), (2, PixelSize(width: 102, height: 51)),
                                    (4, PixelSize(width: 51, height: 26)), (8, PixelSize(width: 26, height: 13))] {
            let image = try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: denominator, maximumPixels: 1 << 30) }.image
            #expect(image.size == size)
        }
    }

    /// A signal with smooth content that survives the resize plus fine detail
    /// (period 2.6 px) far above the output's Nyquist limit, which a correct
    /// low-pass resampler removes and a naive one aliases into false patterns.
    static func signal(_ x: Double, _ y: Double, includeDetail: Bool) -> Double {
        var v = 128 + 50 * sin(2 * .pi * x / 157) + 40 * cos(2 * .pi * y / 131)
        if includeDetail { v += 30 * sin(2 * .pi * (x + y) / 2.6) }
        return v
    }

    func psnr(_ image: RGBAImage, reference: (Int, Int) -> Double) -> Double {
        var squared = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let d = Double(image.pixels[(y * image.width + x) * 4]) - reference(x, y)
                squared += d * d
            }
        }
        let mse = squared / Double(image.width * image.height)
        return 10 * log10(255 * 255 / mse)
    }

    @Test func lanczosQualityAgainstReference() {
        let (sw, sh, dw, dh) = (1200, 900, 300, 225)
        let source = RGBAImage(width: sw, height: sh, hasAlpha: false) { buffer in
            for y in 0..<sh {
                for x in 0..<sw {
                    let v = UInt8(max(0, min(255, Self.signal(Double(x) + 0.5, Double(y) + 0.5, includeDetail: true).rounded())))
                    let i = (y * sw + x) * 4
                    buffer[i] = v; buffer[i + 1] = v; buffer[i + 2] = v; buffer[i + 3] = 255
                }
            }
        }
        let scale = Double(sw) / Double(dw)
        let reference = { (x: Int, y: Int) in Self.signal((Double(x) + 0.5) * scale, (Double(y) + 0.5) * scale, includeDetail: false) }
        let resized = LanczosResampler.resize(source, width: dw, height: dh)
        let quality = psnr(resized, reference: reference)
        #expect(quality > 38, "Lanczos-3 PSNR \(quality) dB")

        // The same measure fails a nearest-neighbour resize, so the bound means something.
        let nearest = RGBAImage(width: dw, height: dh, hasAlpha: false) { buffer in
            for y in 0..<dh {
                for x in 0..<dw {
                    let s = (Int(Double(y) * scale + scale / 2) * sw + Int(Double(x) * scale + scale / 2)) * 4
                    for c in 0..<4 { buffer[(y * dw + x) * 4 + c] = source.pixels[s + c] }
                }
            }
        }
        #expect(psnr(nearest, reference: reference) < 25)
    }

    @Test func resamplerKeepsFlatColourAndTransparentEdgesClean() {
        // Opaque red next to fully transparent *green*: premultiplied filtering
        // must not let the invisible green bleed into the red edge.
        let source = RGBAImage(width: 64, height: 8, hasAlpha: true) { buffer in
            for y in 0..<8 {
                for x in 0..<64 {
                    let i = (y * 64 + x) * 4
                    if x < 32 { buffer[i] = 255; buffer[i + 1] = 0; buffer[i + 2] = 0; buffer[i + 3] = 255 }
                    else { buffer[i] = 0; buffer[i + 1] = 255; buffer[i + 2] = 0; buffer[i + 3] = 0 }
                }
            }
        }
        let out = LanczosResampler.resize(source, width: 16, height: 2)
        for x in 0..<16 {
            let i = x * 4
            if out.pixels[i + 3] > 16 { #expect(out.pixels[i + 1] < 8, "green bled into column \(x)") }
        }
        #expect(out.pixels[3] == 255)
        #expect(out.pixels[15 * 4 + 3] == 0)
    }

    @Test func truncatedJPEGIsDamaged() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.quadrants(width: 256, height: 256), quality: 95)
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10))
        #expect(throws: ImagingError.self) {
            try cut.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) }
        }
        do {
            _ = try cut.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) }
        } catch let error as ImagingError {
            guard case .damaged = error else { Issue.record("expected .damaged, got \(error)"); return }
        }
    }

    @Test func garbageIsUndecodableForEveryCodec() {
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(throws: ImagingError.self) { try garbage.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) } }
        #expect(throws: ImagingError.self) { try garbage.withUnsafeBytes { try PNGCodec.decode($0, maximumPixels: 1 << 30) } }
        #expect(throws: ImagingError.self) { try garbage.withUnsafeBytes { try WebPCodec.decode($0, maximumPixels: 1 << 30) } }
        #expect(throws: ImagingError.self) { try garbage.withUnsafeBytes { try GIFAnimation.decodeFirstFrame($0, maximumPixels: 1 << 30) } }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 100, height: 100))
        #expect(throws: ImagingError.tooLarge(pixels: 10_000, limit: 5_000)) {
            try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 5_000) }
        }
    }

    @Test func pngAndWebPDecode() throws {
        let image = Fixtures.quadrants(width: 40, height: 30)
        let png = try Fixtures.png(image).withUnsafeBytes { try PNGCodec.decode($0, maximumPixels: 1 << 30) }.image
        #expect(png.pixels == image.pixels)
        #expect(!png.hasAlpha)
        let webp = try Fixtures.webp(image).withUnsafeBytes { try WebPCodec.decode($0, maximumPixels: 1 << 30) }.image
        #expect(webp.size == image.size)
        #expect(close(pixel(webp, 5, 5), Self.red))
    }

    @Test func iccProfileIsCarriedToRenditions() throws {
        let profile = Array("fake-icc-profile-".utf8) + [UInt8](repeating: 7, count: 300)
        let jpeg = try JPEGCodec.encode(Fixtures.gradient(width: 32, height: 32), quality: 90, iccProfile: profile)
        let decoded = try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) }
        #expect(decoded.iccProfile == profile)
        let webp = try WebPCodec.encode(decoded.image, quality: 80, iccProfile: decoded.iccProfile)
        #expect(webp.withUnsafeBytes { WebPCodec.iccProfile($0) } == profile)
    }
}
