import Foundation
import GalleryCore
import Imaging

/// Builds test images and EXIF blocks in code, so the tests need no files.
public enum Fixtures {
    // MARK: EXIF (little-endian TIFF)

    /// An EXIF value.
    public enum Value: Sendable {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case rationals([(UInt32, UInt32)])

        public var type: UInt16 {
            switch self {
            case .ascii: return 2
            case .short: return 3
            case .long: return 4
            case .rationals: return 5
            }
        }

        public var bytes: [UInt8] {
            switch self {
            case .ascii(let s): return Array(s.utf8) + [0]
            case .short(let v): return le16(v)
            case .long(let v): return le32(v)
            case .rationals(let list): return list.flatMap { le32($0.0) + le32($0.1) }
            }
        }

        public var count: UInt32 {
            switch self {
            case .ascii(let s): return UInt32(s.utf8.count + 1)
            case .rationals(let list): return UInt32(list.count)
            default: return 1
            }
        }
    }

    public static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    public static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    public static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }

    /// A file's bytes by plain read(2) ([] when it cannot be opened):
    /// Foundation's file reading leaks a buffer (LeakSanitizer) when the
    /// file is empty or grows while it reads, which these tests do on purpose.
    public static func contents(of url: URL) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    /// A file's size, 0 when it is missing.
    public static func size(of url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// A TIFF block with IFD0 tags, an EXIF sub-IFD and a GPS sub-IFD.
    public static func tiff(ifd0: [UInt16: Value], exif: [UInt16: Value] = [:], gps: [UInt16: Value] = [:]) -> [UInt8] {
        var out: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
        // Lay out: IFD0, its data, EXIF IFD, its data, GPS IFD, its data.
        func ifdSize(_ tags: [UInt16: Value]) -> Int { 2 + tags.count * 12 + 4 }
        func write(_ tags: [UInt16: Value], at start: Int, extra: [UInt16: UInt32]) -> [UInt8] {
            var all = tags.mapValues { $0 }
            for (tag, offset) in extra { all[tag] = .long(offset) }
            var table: [UInt8] = le16(UInt16(all.count))
            var data: [UInt8] = []
            let dataStart = start + 2 + all.count * 12 + 4
            for tag in all.keys.sorted() {
                let value = all[tag]!
                table += le16(tag) + le16(value.type) + le32(value.count)
                var bytes = value.bytes
                if bytes.count <= 4 {
                    bytes += [UInt8](repeating: 0, count: 4 - bytes.count)
                    table += bytes
                } else {
                    table += le32(UInt32(dataStart + data.count))
                    data += bytes
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            return table + le32(0) + data
        }
        func total(_ tags: [UInt16: Value], extras: Int) -> Int {
            var t = tags
            for i in 0..<extras { t[UInt16(0xFFF0 + i)] = .long(0) }
            return write(t, at: 0, extra: [:]).count
        }
        let extras0 = (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
        let ifd0Length = total(ifd0, extras: extras0)
        let exifStart = 8 + ifd0Length
        let exifLength = exif.isEmpty ? 0 : total(exif, extras: 0)
        let gpsStart = exifStart + exifLength
        var pointers: [UInt16: UInt32] = [:]
        if !exif.isEmpty { pointers[0x8769] = UInt32(exifStart) }
        if !gps.isEmpty { pointers[0x8825] = UInt32(gpsStart) }
        _ = ifdSize
        out += write(ifd0, at: 8, extra: pointers)
        if !exif.isEmpty { out += write(exif, at: exifStart, extra: [:]) }
        if !gps.isEmpty { out += write(gps, at: gpsStart, extra: [:]) }
        return out
    }

    /// A typical camera EXIF block.
    public static func cameraExif(orientation: UInt16 = 1, original: String? = "2024:03:10 23:30:00", offset: String? = "+02:00",
                           digitized: String? = nil, modified: String? = nil, gps: Bool = true,
                           location: (latitude: Double, longitude: Double)? = nil) -> [UInt8] {
        var ifd0: [UInt16: Value] = [0x010F: .ascii("NIKON CORPORATION"), 0x0110: .ascii("NIKON D70"), 0x0112: .short(orientation)]
        if let modified { ifd0[0x0132] = .ascii(modified) }
        var exif: [UInt16: Value] = [
            0x829A: .rationals([(1, 250)]), 0x829D: .rationals([(28, 10)]), 0x8827: .short(400),
            0x920A: .rationals([(350, 10)]), 0xA434: .ascii("18-70mm f/3.5-4.5"),
        ]
        if let original { exif[0x9003] = .ascii(original) }
        if let offset { exif[0x9011] = .ascii(offset) }
        if let digitized { exif[0x9004] = .ascii(digitized) }
        var gpsTags: [UInt16: Value] = [:]
        if let location {
            // Degrees and minutes whole, seconds to 1/100.
            func dms(_ value: Double) -> Value {
                let degrees = abs(value), whole = Int(degrees), minutes = Int((degrees - Double(whole)) * 60)
                let seconds = Int((((degrees - Double(whole)) * 60 - Double(minutes)) * 60 * 100).rounded())
                return .rationals([(UInt32(whole), 1), (UInt32(minutes), 1), (UInt32(seconds), 100)])
            }
            gpsTags = [0x0001: .ascii(location.latitude >= 0 ? "N" : "S"), 0x0002: dms(location.latitude),
                       0x0003: .ascii(location.longitude >= 0 ? "E" : "W"), 0x0004: dms(location.longitude)]
        } else if gps {
            gpsTags = [0x0001: .ascii("N"), 0x0002: .rationals([(48, 1), (51, 1), (2964, 100)]),
                       0x0003: .ascii("E"), 0x0004: .rationals([(2, 1), (17, 1), (4000, 100)])]
        }
        return tiff(ifd0: ifd0, exif: exif, gps: gpsTags)
    }

    // MARK: Pixels

    /// A test pattern: four coloured quadrants (red top-left, green top-right,
    /// blue bottom-left, white bottom-right), so orientation is easy to check.
    public static func quadrants(width: Int, height: Int) -> RGBAImage {
        RGBAImage(width: width, height: height, hasAlpha: false) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let colour: (UInt8, UInt8, UInt8) = y < height / 2 ? (x < width / 2 ? (230, 20, 20) : (20, 200, 20))
                        : (x < width / 2 ? (20, 20, 230) : (245, 245, 245))
                    let i = (y * width + x) * 4
                    buffer[i] = colour.0
                    buffer[i + 1] = colour.1
                    buffer[i + 2] = colour.2
                    buffer[i + 3] = 255
                }
            }
        }
    }

    /// A smooth gradient image.
    public static func gradient(width: Int, height: Int) -> RGBAImage {
        RGBAImage(width: width, height: height, hasAlpha: false) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    buffer[i] = UInt8(x * 255 / max(1, width - 1))
                    buffer[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    buffer[i + 2] = 128
                    buffer[i + 3] = 255
                }
            }
        }
    }

    // MARK: Files

    /// A JPEG of `image`, with an EXIF APP1 segment when `exif` is given.
    public static func jpeg(_ image: RGBAImage, exif: [UInt8]? = nil, quality: Int = 92) throws -> [UInt8] {
        let plain = try JPEGCodec.encode(image, quality: quality, iccProfile: nil)
        guard let exif else { return plain }
        let payload = Array("Exif\0\0".utf8) + exif
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + plain.dropFirst(2)
    }

    /// A WebP of `image`, wrapped in a VP8X container with an EXIF chunk when given.
    public static func webp(_ image: RGBAImage, exif: [UInt8]? = nil) throws -> [UInt8] {
        let plain = try WebPCodec.encode(image, quality: 90, iccProfile: nil)
        guard let exif else { return plain }
        let bitstreamChunk = Array(plain[12...])
        var vp8x: [UInt8] = Array("VP8X".utf8) + le32(10) + [0x08, 0, 0, 0]
        let w = UInt32(image.width - 1), h = UInt32(image.height - 1)
        vp8x += Array(le32(w).prefix(3)) + Array(le32(h).prefix(3))
        var exifChunk = Array("EXIF".utf8) + le32(UInt32(exif.count)) + exif
        if exif.count % 2 == 1 { exifChunk.append(0) }
        let body = Array("WEBP".utf8) + vp8x + bitstreamChunk + exifChunk
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    /// An uncompressed-deflate PNG of `image` (RGBA, 8-bit) with optional eXIf chunk.
    public static func png(_ image: RGBAImage, exif: [UInt8]? = nil) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return be32(UInt32(data.count)) + typed + be32(crc32(typed))
        }
        var raw: [UInt8] = []
        for y in 0..<image.height {
            raw.append(0)
            raw += image.pixels[(y * image.width * 4)..<((y + 1) * image.width * 4)]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let final: UInt8 = offset + n >= raw.count ? 1 : 0
            zlib += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            zlib += raw[offset..<offset + n]
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += be32(b << 16 | a)
        let ihdr = be32(UInt32(image.width)) + be32(UInt32(image.height)) + [8, 6, 0, 0, 0]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", ihdr)
        if let exif { out += chunk("eXIf", exif) }
        out += chunk("IDAT", zlib) + chunk("IEND", [])
        return out
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A GIF frame for `gif(...)`.
    public struct GIFFrame: Sendable {
        public var left = 0, top = 0, width: Int, height: Int
        /// Palette indices, row-major.
        public var indices: [UInt8]
        public var disposal = 0
        public var delayCentiseconds = 10
        public var transparentIndex: Int?
        public var interlaced = false
        public var localPalette: [(UInt8, UInt8, UInt8)]?
        /// LZW minimum code size; larger than the palette's bits to write
        /// indices past the colour table.
        public var minCodeSize: Int?

        public init(left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8], disposal: Int = 0, delayCentiseconds: Int = 10,
                    transparentIndex: Int? = nil, interlaced: Bool = false, localPalette: [(UInt8, UInt8, UInt8)]? = nil, minCodeSize: Int? = nil) {
            self.left = left
            self.top = top
            self.width = width
            self.height = height
            self.indices = indices
            self.disposal = disposal
            self.delayCentiseconds = delayCentiseconds
            self.transparentIndex = transparentIndex
            self.interlaced = interlaced
            self.localPalette = localPalette
            self.minCodeSize = minCodeSize
        }
    }

    /// A GIF with a 4-colour global palette (0 red, 1 green, 2 blue, 3 white unless
    /// given), written with an LZW stream of literal codes (clear code before
    /// the table grows), which every decoder accepts.
    public static func gif(width: Int, height: Int, frames: [GIFFrame], loop: Int? = 0,
                    palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]) -> [UInt8] {
        func paletteBytes(_ colours: [(UInt8, UInt8, UInt8)]) -> (bits: Int, bytes: [UInt8]) {
            var bits = 1
            while (1 << bits) < colours.count { bits += 1 }
            var bytes: [UInt8] = []
            for i in 0..<(1 << bits) {
                let c = i < colours.count ? colours[i] : (0, 0, 0)
                bytes += [c.0, c.1, c.2]
            }
            return (bits, bytes)
        }
        let global = paletteBytes(palette)
        var out = Array("GIF89a".utf8) + le16(UInt16(width)) + le16(UInt16(height))
        out += [0x80 | UInt8(global.bits - 1), 0, 0] + global.bytes
        if let loop {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(UInt16(loop)) + [0]
        }
        for frame in frames {
            let packed = UInt8(frame.disposal << 2) | (frame.transparentIndex != nil ? 1 : 0)
            out += [0x21, 0xF9, 4, packed] + le16(UInt16(frame.delayCentiseconds)) + [UInt8(frame.transparentIndex ?? 0), 0]
            var flags: UInt8 = frame.interlaced ? 0x40 : 0
            var bits = global.bits
            var local: [UInt8] = []
            if let lp = frame.localPalette {
                let p = paletteBytes(lp)
                flags |= 0x80 | UInt8(p.bits - 1)
                bits = p.bits
                local = p.bytes
            }
            out += [0x2C] + le16(UInt16(frame.left)) + le16(UInt16(frame.top)) + le16(UInt16(frame.width)) + le16(UInt16(frame.height)) + [flags] + local
            // Rows in file order (interlaced frames store passes).
            var order = Array(0..<frame.height)
            if frame.interlaced {
                order = []
                for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { order += Swift.stride(from: start, to: frame.height, by: step) }
            }
            var pixels: [UInt8] = []
            for row in order { pixels += frame.indices[row * frame.width..<(row + 1) * frame.width] }
            let minCodeSize = frame.minCodeSize ?? max(2, bits)
            out.append(UInt8(minCodeSize))
            out += lzwLiteral(pixels, minCodeSize: minCodeSize).chunked()
        }
        out.append(0x3B)
        return out
    }

    public static func lzwLiteral(_ pixels: [UInt8], minCodeSize: Int) -> [UInt8] {
        let clear = 1 << minCodeSize, end = clear + 1
        let codeSize = minCodeSize + 1
        var bitBuffer: UInt32 = 0, bitCount = 0
        var out: [UInt8] = []
        func emit(_ code: Int) {
            bitBuffer |= UInt32(code) << UInt32(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                out.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        emit(clear)
        var sinceClear = 0
        // Each literal after the first adds a table entry; clear before the code size would grow.
        let limit = (1 << codeSize) - clear - 3
        for p in pixels {
            if sinceClear == limit { emit(clear); sinceClear = 0 }
            emit(Int(p))
            sinceClear += 1
        }
        emit(end)
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        return out
    }
}

extension Array where Element == UInt8 {
    /// GIF data sub-blocks: length-prefixed runs of up to 255 bytes, then a 0.
    public func chunked() -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < count {
            let n = Swift.min(255, count - i)
            out.append(UInt8(n))
            out += self[i..<i + n]
            i += n
        }
        out.append(0)
        return out
    }
}

/// A temporary folder removed when the test ends.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("gallerygen-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    public func write(_ relative: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }
}
