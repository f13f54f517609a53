import Foundation
import GalleryCore
import GalleryTestSupport
import Imaging
import Metadata
import Testing

/// JPEG XL files made with `cjxl` (Debian's libjxl-tools), decoded by
/// `JXLCodec`: exact where the file is lossless, upright, the HDR path
/// through the same conversion HEIF's takes, the pixel limit on the header.
/// Where Debian's libjxl-tools puts the encoder (scripts/deps.sh installs it).
private let cjxlPath = "/usr/bin/cjxl"

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: cjxlPath), "needs cjxl (libjxl-tools, scripts/deps.sh)"))
struct JXLCodecTests {
    static let cjxl = cjxlPath

    /// `input` (a file of `name`) through cjxl with `arguments`.
    static func encode(_ input: [UInt8], name: String, _ arguments: [String]) throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent(name), output = folder.url.appendingPathComponent("out.jxl")
        try Data(input).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cjxl)
        process.arguments = [source.path, output.path, "--quiet"] + arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw JXLTestError.encoderFailed(arguments) }
        return Fixtures.contents(of: output)
    }

    static func decode(_ file: [UInt8], maximumPixels: Int = 100_000_000) throws -> (image: RGBAImage, icc: [UInt8]?) {
        try file.withUnsafeBytes { raw in
            try JXLCodec.withDecoded(raw, maximumPixels: maximumPixels) { (pixels, icc) throws(ImagingError) in
                (RGBAImage(copying: pixels), icc)
            }
        }
    }

    @Test func aLosslessSRGBPictureComesOutExactly() throws {
        let original = Fixtures.gradient(width: 64, height: 48)
        let file = try Self.encode(Fixtures.png(original), name: "in.png", ["-d", "0"])
        let (decoded, icc) = try Self.decode(file)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(decoded.pixels == original.pixels)
        #expect(icc == nil, "sRGB needs no profile")
    }

    @Test func anOrientedPhotoComesOutUpright() throws {
        // Stored on its side (EXIF orientation 6: turn 90° clockwise to show).
        let stored = Fixtures.quadrants(width: 64, height: 48)
        let jpeg = try Fixtures.jpeg(stored, exif: Fixtures.cameraExif(orientation: 6), quality: 95)
        let file = try Self.encode(jpeg, name: "in.jpg", [])
        let (decoded, _) = try Self.decode(file)
        #expect(decoded.width == 48 && decoded.height == 64, "turned")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(decoded.pixels[((y * decoded.width + x) * 4)..<((y * decoded.width + x) * 4 + 3)]) }
        // Turned clockwise, the red top-left quadrant is at the top right, the blue bottom-left at the top left.
        #expect(pixel(40, 8)[0] > 200 && pixel(40, 8)[2] < 60, "red at the top right: \(pixel(40, 8))")
        #expect(pixel(8, 8)[2] > 200 && pixel(8, 8)[0] < 60, "blue at the top left: \(pixel(8, 8))")
    }

    @Test func anHDRPictureInP3GoesThroughTheSameConversionAsHEIF() throws {
        // 16-bit PQ in Display P3 primaries: a ramp from black to past SDR white.
        let width = 32, height = 8
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width { samples += [UInt16(x * 2000), UInt16(y * 6000), UInt16(30_000)] }
        }
        let ppm = Array("P6\n\(width) \(height)\n65535\n".utf8) + samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let file = try Self.encode(ppm, name: "in.ppm", ["-d", "0", "-x", "color_space=RGB_D65_DCI_Rel_PeQ"])
        let (decoded, icc) = try Self.decode(file)
        #expect(icc == nil, "converted to sRGB, no profile carried")
        let p3 = SRGBConversion.Primaries(red: [0.680, 0.320], green: [0.265, 0.690], blue: [0.150, 0.060], white: [0.3127, 0.3290])
        let expected = samples.withUnsafeBytes { raw in
            SRGBConversion(transfer: .pq, primaries: p3, maximumValue: 65_535)
                .convert(base: raw.baseAddress!, width: width, height: height, rowBytes: width * 6, channels: 3, premultiplied: false)
        }
        let largest = zip(decoded.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1, "largest difference \(largest)")
        #expect(decoded.pixels != Fixtures.gradient(width: width, height: height).pixels)
    }

    @Test func thePixelLimitIsCheckedOnTheHeader() throws {
        let file = try Self.encode(Fixtures.png(Fixtures.gradient(width: 64, height: 48)), name: "in.png", ["-d", "0"])
        #expect(throws: ImagingError.tooLarge(pixels: 64 * 48, limit: 1_000)) { try Self.decode(file, maximumPixels: 1_000) }
        // Cut short anywhere, or not a JPEG XL at all: an error, never a crash.
        for length in stride(from: 0, to: file.count, by: max(1, file.count / 40)) {
            #expect(throws: ImagingError.self) { try Self.decode(Array(file.prefix(length))) }
        }
        var generator = SeededGenerator(seed: 54)
        for _ in 0..<50 {
            var damaged = file
            for _ in 0..<4 { damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = try? Self.decode(damaged)
        }
    }
}

enum JXLTestError: Error {
    case encoderFailed([String])
}

extension JXLCodecTests {
    @Test func itsMetadataIsReadUprightWithItsEXIF() throws {
        let stored = Fixtures.quadrants(width: 64, height: 48)
        let jpeg = try Fixtures.jpeg(stored, exif: Fixtures.cameraExif(orientation: 6), quality: 95)
        let file = try Self.encode(jpeg, name: "in.jpg", [])
        let metadata = try file.withUnsafeBytes { try MetadataReader.read($0, fileName: "photo.jxl", modificationDate: Date()) }
        #expect(metadata.format == .jxl)
        #expect(metadata.storedSize == PixelSize(width: 48, height: 64), "the size as shown")
        #expect(metadata.orientation == .up, "libjxl turns it: not turned again")
        #expect(metadata.captureDate.source == .original, "the EXIF date, from the Exif box")
        #expect(metadata.camera.model == "NIKON D70")
        // A bare codestream (no container, no boxes) is a JPEG XL too.
        let bare = try Self.encode(Fixtures.png(Fixtures.gradient(width: 16, height: 8)), name: "in.png", ["-d", "0", "--container=0"])
        #expect(bare.prefix(2) == [0xFF, 0x0A])
        #expect(try bare.withUnsafeBytes { try FormatSniffer.format(of: $0) } == .jxl)
    }
}

extension JXLCodecTests {
    @Test func aGreyPictureComesOutGrey() throws {
        let width = 16, height = 8
        let values = (0..<(width * height)).map { UInt8($0 * 2) }
        let file = try Self.encode(Array("P5\n\(width) \(height)\n255\n".utf8) + values, name: "in.pgm", ["-d", "0"])
        let (decoded, _) = try Self.decode(file)
        #expect(decoded.width == width && decoded.height == height)
        let pixels = decoded.pixels
        let starts = Array(stride(from: 0, to: pixels.count, by: 4))
        let grey: [UInt8] = starts.map { pixels[$0] }
        #expect(grey == values)
        let neutral = starts.allSatisfy { (start: Int) -> Bool in pixels[start] == pixels[start + 1] && pixels[start] == pixels[start + 2] }
        #expect(neutral)
    }
}

extension JXLCodecTests {
    /// `file` as libjxl's own tool decodes it (8-bit PNG, upright).
    static func djxl(_ file: [UInt8]) throws -> RGBAImage {
        let folder = try TemporaryFolder()
        let input = folder.url.appendingPathComponent("in.jxl"), output = folder.url.appendingPathComponent("out.png")
        try Data(file).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/djxl")
        process.arguments = [input.path, output.path, "--bits_per_sample=8"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw JXLTestError.encoderFailed(["djxl"]) }
        return try Fixtures.contents(of: output).withUnsafeBytes { try PNGCodec.decode($0, maximumPixels: 1 << 24).image }
    }

    /// Lossy files as cameras and tools write them (an 8-bit sRGB photo with
    /// an EXIF orientation; one with transparency) come out as djxl shows them.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/djxl"), "needs djxl (libjxl-tools)"))
    func lossyFilesComeOutAsLibjxlsOwnToolShowsThem() throws {
        var withAlpha = Fixtures.quadrants(width: 40, height: 30)
        for i in stride(from: 3, to: withAlpha.pixels.count, by: 4) { withAlpha.pixels[i] = UInt8(truncatingIfNeeded: i / 4 * 2) }
        let turned = try Fixtures.jpeg(Fixtures.gradient(width: 64, height: 48), exif: Fixtures.cameraExif(orientation: 6), quality: 95)
        for (input, name) in [(turned, "in.jpg"), (Fixtures.png(withAlpha), "in.png")] {
            let file = try Self.encode(input, name: name, ["-d", "1.5", "-j", "0"])
            let (ours, _) = try Self.decode(file)
            let theirs = try Self.djxl(file)
            #expect(ours.width == theirs.width && ours.height == theirs.height, "\(name): \(ours.width)×\(ours.height)")
            #expect(name != "in.jpg" || (ours.width == 48 && ours.height == 64), "upright")
            // Straight (not premultiplied) alpha, as PNG holds it; colour within rounding where the pixel is not transparent.
            var largest = 0
            for index in stride(from: 0, to: min(ours.pixels.count, theirs.pixels.count), by: 4) where theirs.pixels[index + 3] > 8 {
                for channel in 0..<4 { largest = max(largest, abs(Int(ours.pixels[index + channel]) - Int(theirs.pixels[index + channel]))) }
            }
            #expect(largest <= 2, "\(name): largest difference \(largest)")
        }
    }
}
