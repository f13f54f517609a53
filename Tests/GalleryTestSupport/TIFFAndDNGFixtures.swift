import Foundation
import GalleryCore
import Imaging

/// TIFF and DNG test files, made in code.
extension CameraFixtures {
    // MARK: TIFF

    /// A TIFF entry value.
    public enum Value: Sendable {
        case bytes([UInt8]), ascii(String), shorts([UInt16]), longs([UInt32]), rationals([(UInt32, UInt32)])
        case srationals([(Int32, Int32)])

        public var type: UInt16 {
            switch self {
            case .bytes: return 1
            case .ascii: return 2
            case .shorts: return 3
            case .longs: return 4
            case .rationals: return 5
            case .srationals: return 10
            }
        }

        public var count: Int {
            switch self {
            case .bytes(let b): return b.count
            case .ascii(let s): return s.utf8.count + 1
            case .shorts(let v): return v.count
            case .longs(let v): return v.count
            case .rationals(let v): return v.count
            case .srationals(let v): return v.count
            }
        }

        public var encoded: [UInt8] {
            switch self {
            case .bytes(let b): return b
            case .ascii(let s): return Array(s.utf8) + [0]
            case .shorts(let v): return v.flatMap(Fixtures.le16)
            case .longs(let v): return v.flatMap(Fixtures.le32)
            case .rationals(let v): return v.flatMap { Fixtures.le32($0.0) + Fixtures.le32($0.1) }
            case .srationals(let v): return v.flatMap { Fixtures.le32(UInt32(bitPattern: $0.0)) + Fixtures.le32(UInt32(bitPattern: $0.1)) }
            }
        }
    }

    /// Assembles a little-endian TIFF: data first, directories after it (as
    /// libtiff writes them, so they can sit megabytes into the file).
    public struct TIFFBuilder {
        public var bytes: [UInt8] = Array("II".utf8) + Fixtures.le16(42) + Fixtures.le32(0)

        public init() {}

        /// Appends data and returns its offset.
        public mutating func append(_ data: [UInt8]) -> UInt32 {
            if bytes.count % 2 == 1 { bytes.append(0) }
            let offset = UInt32(bytes.count)
            bytes += data
            return offset
        }

        /// Appends a directory (its large values first) and returns its offset.
        public mutating func directory(_ entries: [UInt16: Value]) -> UInt32 {
            var large: [UInt16: UInt32] = [:]
            for (tag, value) in entries where value.encoded.count > 4 { large[tag] = append(value.encoded) }
            if bytes.count % 2 == 1 { bytes.append(0) }
            let offset = UInt32(bytes.count)
            bytes += Fixtures.le16(UInt16(entries.count))
            for tag in entries.keys.sorted() {
                let value = entries[tag]!
                bytes += Fixtures.le16(tag) + Fixtures.le16(value.type) + Fixtures.le32(UInt32(value.count))
                if let at = large[tag] { bytes += Fixtures.le32(at) } else {
                    bytes += value.encoded + [UInt8](repeating: 0, count: 4 - value.encoded.count)
                }
            }
            bytes += Fixtures.le32(0)
            return offset
        }

        public mutating func setFirstDirectory(_ offset: UInt32) {
            bytes.replaceSubrange(4..<8, with: Fixtures.le32(offset))
        }
    }

    /// EXIF sub-directory tags of a camera photo taken at `date` with `offset`.
    public static func exifTags(date: String, offset: String) -> [UInt16: Value] {
        [0x9003: .ascii(date), 0x9011: .ascii(offset), 0x829A: .rationals([(1, 125)]), 0x829D: .rationals([(56, 10)]),
         0x8827: .shorts([200])]
    }

    /// GPS tags (which must never reach the site).
    public static let gpsTags: [UInt16: Value] = [0x0001: .ascii("N"), 0x0002: .rationals([(48, 1), (51, 1), (2964, 100)]),
                                           0x0003: .ascii("E"), 0x0004: .rationals([(2, 1), (17, 1), (4000, 100)])]

    /// The TIFF layouts the tests cover.
    public enum Layout: String, CaseIterable, Sendable {
        case rgb8, rgb16, grey8, palette, cmyk, rgbaUnassociated
    }

    /// An uncompressed single-strip TIFF of the quadrant pattern in `layout`,
    /// with an Orientation tag, camera tags and EXIF + GPS directories after the pixels.
    public static func tiff(_ image: RGBAImage, layout: Layout, orientation: UInt16 = 1, date: String = "2023:08:14 09:15:00",
                     offset: String = "-04:00") -> [UInt8] {
        var builder = TIFFBuilder()
        var pixels: [UInt8] = []
        var tags: [UInt16: Value] = [:]
        let palette: [(UInt8, UInt8, UInt8)] = [(230, 20, 20), (20, 200, 20), (20, 20, 230), (245, 245, 245)]
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let r = image.pixels[i], g = image.pixels[i + 1], b = image.pixels[i + 2]
            switch layout {
            case .rgb8: pixels += [r, g, b]
            case .rgb16: for v in [r, g, b] { pixels += Fixtures.le16(UInt16(v) * 257) }
            case .grey8:
                let luma: Int = (Int(r) * 299 + Int(g) * 587 + Int(b) * 114) / 1000
                pixels.append(UInt8(luma))
            case .palette:
                func distance(_ c: (UInt8, UInt8, UInt8)) -> Int {
                    let dr: Int = abs(Int(c.0) - Int(r)), dg: Int = abs(Int(c.1) - Int(g)), db: Int = abs(Int(c.2) - Int(b))
                    return dr + dg + db
                }
                let index: Int = palette.indices.min { distance(palette[$0]) < distance(palette[$1]) }!
                pixels.append(UInt8(index))
            case .cmyk: pixels += [255 - r, 255 - g, 255 - b, 0]
            case .rgbaUnassociated: pixels += [r, g, b, i / 4 % image.width < image.width / 8 ? 0 : 255]
            }
        }
        let samples: Int, bits: Int, photometric: UInt16
        switch layout {
        case .rgb8: (samples, bits, photometric) = (3, 8, 2)
        case .rgb16: (samples, bits, photometric) = (3, 16, 2)
        case .grey8: (samples, bits, photometric) = (1, 8, 1)
        case .palette: (samples, bits, photometric) = (1, 8, 3)
        case .cmyk: (samples, bits, photometric) = (4, 8, 5)
        case .rgbaUnassociated: (samples, bits, photometric) = (4, 8, 2)
        }
        if layout == .palette {
            var map = [UInt16](repeating: 0, count: 768)
            for (i, c) in palette.enumerated() { map[i] = UInt16(c.0) * 257; map[256 + i] = UInt16(c.1) * 257; map[512 + i] = UInt16(c.2) * 257 }
            tags[320] = .shorts(map)
        }
        if layout == .cmyk { tags[332] = .shorts([1]) }
        if layout == .rgbaUnassociated { tags[338] = .shorts([2]) }
        let stripOffset = builder.append(pixels)
        let exif = builder.directory(exifTags(date: date, offset: offset))
        let gps = builder.directory(gpsTags)
        tags[256] = .longs([UInt32(image.width)])
        tags[257] = .longs([UInt32(image.height)])
        tags[258] = .shorts([UInt16](repeating: UInt16(bits), count: samples))
        tags[259] = .shorts([1])
        tags[262] = .shorts([photometric])
        tags[271] = .ascii("Epson")
        tags[272] = .ascii("Perfection V600")
        tags[273] = .longs([stripOffset])
        tags[274] = .shorts([orientation])
        tags[277] = .shorts([UInt16(samples)])
        tags[278] = .longs([UInt32(image.height)])
        tags[279] = .longs([UInt32(pixels.count)])
        tags[284] = .shorts([1])
        tags[0x8769] = .longs([exif])
        tags[0x8825] = .longs([gps])
        builder.setFirstDirectory(builder.directory(tags))
        return builder.bytes
    }

    // MARK: DNG

    /// A DNG of `image` through an RGGB Bayer filter (16-bit, uncompressed),
    /// optionally with the camera's full-size JPEG preview in a sub-directory.
    public static func dng(_ image: RGBAImage, orientation: UInt16 = 1, preview: [UInt8]? = nil,
                    date: String = "2022:05:01 18:45:10", offset: String = "+01:00") -> [UInt8] {
        var builder = TIFFBuilder()
        var cfa: [UInt8] = []
        cfa.reserveCapacity(image.width * image.height * 2)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                let channel = (y % 2 == 0) ? (x % 2 == 0 ? 0 : 1) : (x % 2 == 0 ? 1 : 2)
                // Mid-range: demosaicing must neither clip nor lose the pattern.
                cfa += Fixtures.le16(UInt16(image.pixels[i + channel]) * 200)
            }
        }
        let stripOffset = builder.append(cfa)
        let exif = builder.directory(exifTags(date: date, offset: offset))
        var subIFDs: [UInt32] = []
        if let preview {
            let jpegOffset = builder.append(preview)
            var previewTags: [UInt16: Value] = [:]
            previewTags[254] = .longs([1])
            previewTags[256] = .longs([UInt32(image.width)])
            previewTags[257] = .longs([UInt32(image.height)])
            previewTags[258] = .shorts([8, 8, 8])
            previewTags[259] = .shorts([7])
            previewTags[262] = .shorts([6])
            previewTags[273] = .longs([jpegOffset])
            previewTags[277] = .shorts([3])
            previewTags[278] = .longs([UInt32(image.height)])
            previewTags[279] = .longs([UInt32(preview.count)])
            subIFDs.append(builder.directory(previewTags))
        }
        let colourMatrix: [(Int32, Int32)] = [(3240, 10000), (-1580, 10000), (-500, 10000), (-970, 10000), (18760, 10000),
                                              (420, 10000), (550, 10000), (-2040, 10000), (10570, 10000)]
        var tags: [UInt16: Value] = [:]
        tags[254] = .longs([0])
        tags[256] = .longs([UInt32(image.width)])
        tags[257] = .longs([UInt32(image.height)])
        tags[258] = .shorts([16])
        tags[259] = .shorts([1])
        tags[262] = .shorts([32803])
        tags[271] = .ascii("Fixture")
        tags[272] = .ascii("Bayer One")
        tags[273] = .longs([stripOffset])
        tags[274] = .shorts([orientation])
        tags[277] = .shorts([1])
        tags[278] = .longs([UInt32(image.height)])
        tags[279] = .longs([UInt32(cfa.count)])
        tags[284] = .shorts([1])
        tags[33421] = .shorts([2, 2])
        tags[33422] = .bytes([0, 1, 1, 2])
        tags[50706] = .bytes([1, 4, 0, 0])
        tags[50708] = .ascii("Fixture Bayer One")
        tags[50717] = .longs([65535])
        tags[50721] = .srationals(colourMatrix)
        tags[50778] = .shorts([21])
        tags[50728] = .rationals([(1, 1), (1, 1), (1, 1)])
        tags[0x8769] = .longs([exif])
        if !subIFDs.isEmpty { tags[330] = .longs(subIFDs) }
        builder.setFirstDirectory(builder.directory(tags))
        return builder.bytes
    }
}
