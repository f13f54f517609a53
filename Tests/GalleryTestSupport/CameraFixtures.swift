import Foundation
import GalleryCore
import Imaging

/// HEIF, TIFF and RAW test files, made in code and with the tools
/// `scripts/deps.sh test` installs (heif-enc from libheif-examples, tiffcp
/// from libtiff-tools, exiftool), so no binary fixture is committed.
public enum CameraFixtures {
    public struct ToolFailure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Runs a tool from PATH; a missing tool fails the test with the install hint.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { throw ToolFailure(description: "\(tool) is not installed: run `bash scripts/deps.sh test`") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    // MARK: PNG input for heif-enc

    /// A PNG of any bit depth and colour type from raw rows (no filtering, stored deflate).
    public static func png(width: Int, height: Int, bitDepth: UInt8, colourType: UInt8, rows: [UInt8]) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return Fixtures.be32(UInt32(data.count)) + typed + Fixtures.be32(Fixtures.crc32(typed))
        }
        let rowBytes = rows.count / height
        var raw: [UInt8] = []
        for y in 0..<height { raw.append(0); raw += rows[(y * rowBytes)..<((y + 1) * rowBytes)] }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            zlib += [offset + n >= raw.count ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            zlib += raw[offset..<offset + n]
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += Fixtures.be32(b << 16 | a)
        let header = Fixtures.be32(UInt32(width)) + Fixtures.be32(UInt32(height)) + [bitDepth, colourType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// A 16-bit RGB PNG of one colour per quadrant (top-left, top-right, bottom-left, bottom-right).
    public static func png16(width: Int, height: Int, quadrants: [(UInt16, UInt16, UInt16)]) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let q = quadrants[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
                for v in [q.0, q.1, q.2] { rows += [UInt8(v >> 8), UInt8(v & 0xFF)] }
            }
        }
        return png(width: width, height: height, bitDepth: 16, colourType: 2, rows: rows)
    }

    /// Encodes `png` with heif-enc (HEVC, or AV1 for `.avif`) into `name` in `folder`.
    public static func heif(_ png: [UInt8], in folder: URL, name: String, arguments: [String] = []) throws -> URL {
        let input = folder.appendingPathComponent(name + ".input.png")
        try Data(png).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let output = folder.appendingPathComponent(name)
        try run("heif-enc", ["-q", "90"] + arguments + ["-o", output.path, input.path])
        return output
    }

    // MARK: ISO BMFF editing

    /// Adds a property box (`irot`, `colr`, …) to item 1 of a HEIF written by
    /// heif-enc: the box goes at the end of `ipco`, item 1's `ipma` entry
    /// gets its index, and every size and `iloc` offset after the insertion
    /// moves with it.
    public static func addProperty(_ file: [UInt8], box: [UInt8], essential: Bool) throws -> [UInt8] {
        var bytes = file
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        func put32(_ o: Int, _ v: Int) { for i in 0..<4 { bytes[o + i] = UInt8((v >> (24 - 8 * i)) & 0xFF) } }
        func find(_ type: String, in range: Range<Int>) -> Int? {
            var o = range.lowerBound
            while o + 8 <= range.upperBound {
                let size = u32(o)
                if String(decoding: bytes[(o + 4)..<(o + 8)], as: UTF8.self) == type { return o }
                guard size >= 8 else { return nil }
                o += size
            }
            return nil
        }
        guard let meta = find("meta", in: 0..<bytes.count) else { throw ToolFailure(description: "no meta box") }
        let metaChildren = (meta + 12)..<(meta + u32(meta))
        guard let iprp = find("iprp", in: metaChildren), let iloc = find("iloc", in: metaChildren) else {
            throw ToolFailure(description: "no iprp/iloc")
        }
        let iprpChildren = (iprp + 8)..<(iprp + u32(iprp))
        guard let ipco = find("ipco", in: iprpChildren), let ipma = find("ipma", in: iprpChildren), ipco < ipma, iloc < iprp else {
            throw ToolFailure(description: "unexpected box order")
        }
        // Count the properties already in ipco: the new one is index count + 1.
        var count = 0
        var o = ipco + 8
        while o < ipco + u32(ipco) { count += 1; o += u32(o) }
        let ipcoEnd = ipco + u32(ipco)
        // ipma (version 0, flags 0 here): entry_count (32 bit), then item_ID
        // (16 bit), n, n × (essential bit + 7-bit index). Edited first: it
        // comes after ipco, so the ipco insertion below does not move it yet.
        guard bytes[ipma + 8] == 0, bytes[ipma + 11] & 1 == 0 else { throw ToolFailure(description: "unexpected ipma layout") }
        let itemEntry = ipma + 16
        let associations = Int(bytes[itemEntry + 2])
        bytes[itemEntry + 2] = UInt8(associations + 1)
        bytes.insert((essential ? 0x80 : 0) | UInt8(count + 1), at: itemEntry + 3 + associations)
        put32(ipma, u32(ipma) + 1)
        bytes.insert(contentsOf: box, at: ipcoEnd)
        let grown = 1 + box.count
        put32(ipco, u32(ipco) + box.count)
        put32(iprp, u32(iprp) + grown)
        put32(meta, u32(meta) + grown)
        // iloc (version 0 or 1, before iprp so not moved): offsets are
        // absolute and the data (mdat) comes after meta.
        let version = bytes[iloc + 8]
        let offsetSize = Int(bytes[iloc + 12] >> 4), lengthSize = Int(bytes[iloc + 12] & 0xF), baseSize = Int(bytes[iloc + 13] >> 4)
        guard offsetSize == 4, version < 2, baseSize == 0 || baseSize == 4 else { throw ToolFailure(description: "unexpected iloc layout") }
        var p = iloc + 14
        let items = Int(bytes[p]) << 8 | Int(bytes[p + 1])
        p += 2
        for _ in 0..<items {
            p += 2  // item ID
            if version == 1 { p += 2 }  // construction method
            p += 2  // data reference index
            if baseSize == 4 { put32(p, u32(p) + grown); p += 4 }
            let extents = Int(bytes[p]) << 8 | Int(bytes[p + 1])
            p += 2
            for _ in 0..<extents {
                if baseSize == 0 { put32(p, u32(p) + grown) }
                p += offsetSize + lengthSize
            }
        }
        return bytes
    }

    /// Adds an `irot` (anticlockwise quarter turns) to item 1.
    public static func addRotation(_ file: [UInt8], quarterTurns: UInt8) throws -> [UInt8] {
        try addProperty(file, box: [0, 0, 0, 9] + Array("irot".utf8) + [quarterTurns & 3], essential: true)
    }

    /// Adds an `nclx` colour box (heif-enc 1.15 writes none for HEVC).
    public static func addNCLX(_ file: [UInt8], primaries: UInt16, transfer: UInt16, matrix: UInt16) throws -> [UInt8] {
        let body: [UInt8] = Array("colr".utf8) + Array("nclx".utf8) + [UInt8(primaries >> 8), UInt8(primaries & 0xFF),
                                                                      UInt8(transfer >> 8), UInt8(transfer & 0xFF),
                                                                      UInt8(matrix >> 8), UInt8(matrix & 0xFF), 0x80]
        return try addProperty(file, box: Fixtures.be32(UInt32(body.count + 4)) + body, essential: false)
    }

    /// The `hvcC` box (whole) and the coded data of item 1 of a file heif-enc wrote.
    public static func hevcItem(_ file: [UInt8]) throws -> (config: [UInt8], data: [UInt8]) {
        func u16(_ o: Int) -> Int { Int(file[o]) << 8 | Int(file[o + 1]) }
        func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
        func find(_ type: String, in range: Range<Int>) -> Range<Int>? {
            var o = range.lowerBound
            while o + 8 <= range.upperBound {
                let size = u32(o)
                guard size >= 8 else { return nil }
                if file[(o + 4)..<(o + 8)].elementsEqual(type.utf8) { return o..<(o + size) }
                o += size
            }
            return nil
        }
        guard let meta = find("meta", in: 0..<file.count), let iloc = find("iloc", in: (meta.lowerBound + 12)..<meta.upperBound),
              let iprp = find("iprp", in: (meta.lowerBound + 12)..<meta.upperBound),
              let ipco = find("ipco", in: (iprp.lowerBound + 8)..<iprp.upperBound),
              let hvcC = find("hvcC", in: (ipco.lowerBound + 8)..<ipco.upperBound) else { throw ToolFailure(description: "not a heif-enc file") }
        let version = file[iloc.lowerBound + 8]
        let offsetSize = Int(file[iloc.lowerBound + 12] >> 4), lengthSize = Int(file[iloc.lowerBound + 12] & 0xF)
        let baseSize = Int(file[iloc.lowerBound + 13] >> 4)
        guard offsetSize == 4, lengthSize == 4, version < 2 else { throw ToolFailure(description: "unexpected iloc") }
        var p = iloc.lowerBound + 16 + 2  // header, sizes, item count; then item 1's ID
        if version == 1 { p += 2 }
        p += 2  // data reference index
        let base = baseSize == 4 ? u32(p) : 0
        p += baseSize + 2  // base offset, extent count (1)
        let offset = base + u32(p), length = u32(p + 4)
        return (Array(file[hvcC]), Array(file[offset..<(offset + length)]))
    }

    /// A grid HEIF (as iPhones and Samsungs store photos: tiles coded
    /// separately, a `grid` item composing them) of two tiles side by side.
    public static func gridHEIF(left: [UInt8], right: [UInt8], tile: PixelSize, output: PixelSize) throws -> [UInt8] {
        let a = try hevcItem(left), b = try hevcItem(right)
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { Fixtures.be32(UInt32(body.count + 8)) + Array(type.utf8) + body }
        func full(_ type: String, version: UInt8 = 0, _ body: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + body) }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func ispe(_ size: PixelSize) -> [UInt8] { full("ispe", Fixtures.be32(UInt32(size.width)) + Fixtures.be32(UInt32(size.height))) }
        func infe(_ id: Int, _ type: String) -> [UInt8] { full("infe", version: 2, be16(id) + be16(0) + Array(type.utf8) + [0]) }
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let grid: [UInt8] = [0, 0, 0, 1] + be16(output.width) + be16(output.height)
        let hdlr = full("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let pitm = full("pitm", be16(3))
        let iinf = full("iinf", be16(3) + infe(1, "hvc1") + infe(2, "hvc1") + infe(3, "grid"))
        let iref = full("iref", box("dimg", be16(3) + be16(2) + be16(1) + be16(2)))
        let idat = box("idat", grid)
        let ipco = box("ipco", a.config + ispe(tile) + b.config + ispe(output))
        let ipma = full("ipma", Fixtures.be32(3) + be16(1) + [2, 0x81, 0x02] + be16(2) + [2, 0x83, 0x02] + be16(3) + [1, 0x04])
        let iprp = box("iprp", ipco + ipma)
        // iloc version 1: offsets 4 bytes, lengths 4, no base offset; the
        // tiles in mdat (offsets filled in once the meta box's size is known),
        // the grid descriptor in idat (construction method 1).
        func iloc(_ mdatData: Int) -> [UInt8] {
            full("iloc", version: 1, [0x44, 0x00] + be16(3)
                 + be16(1) + be16(0) + be16(0) + be16(1) + Fixtures.be32(UInt32(mdatData)) + Fixtures.be32(UInt32(a.data.count))
                 + be16(2) + be16(0) + be16(0) + be16(1) + Fixtures.be32(UInt32(mdatData + a.data.count)) + Fixtures.be32(UInt32(b.data.count))
                 + be16(3) + be16(1) + be16(0) + be16(1) + Fixtures.be32(0) + Fixtures.be32(UInt32(grid.count)))
        }
        func meta(_ mdatData: Int) -> [UInt8] { full("meta", hdlr + pitm + iloc(mdatData) + iinf + iref + idat + iprp) }
        let dataStart = ftyp.count + meta(0).count + 8
        return ftyp + meta(dataStart) + box("mdat", a.data + b.data)
    }

    /// Overwrites every `ispe` box's size (a header that lies about its size).
    public static func claimSize(_ file: [UInt8], width: UInt32, height: UInt32) throws -> [UInt8] {
        var bytes = file
        let found = (0..<(bytes.count - 16)).filter { bytes[$0..<($0 + 4)].elementsEqual("ispe".utf8) }
        guard !found.isEmpty else { throw ToolFailure(description: "no ispe box") }
        for at in found { bytes.replaceSubrange((at + 8)..<(at + 16), with: Fixtures.be32(width) + Fixtures.be32(height)) }
        return bytes
    }

    // MARK: Looking at results

    /// The colour at the centre of each quadrant (top-left, top-right, bottom-left, bottom-right).
    public static func quadrantColours(_ image: RGBAImage) -> [(Int, Int, Int)] {
        [(1, 1), (3, 1), (1, 3), (3, 3)].map { qx, qy in
            let x = image.width * qx / 4, y = image.height * qy / 4
            let i = (y * image.width + x) * 4
            return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
        }
    }

    /// True when `got` is within `tolerance` of `want` in every channel.
    public static func close(_ got: (Int, Int, Int), _ want: (Int, Int, Int), tolerance: Int = 40) -> Bool {
        abs(got.0 - want.0) <= tolerance && abs(got.1 - want.1) <= tolerance && abs(got.2 - want.2) <= tolerance
    }

    /// The quadrant pattern's colours, in `quadrantColours` order.
    public static let quadrantPattern: [(Int, Int, Int)] = [(230, 20, 20), (20, 200, 20), (20, 20, 230), (245, 245, 245)]

    /// Decodes a WebP or JPEG rendition.
    public static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        try bytes.withUnsafeBytes { raw in
            if raw.first == 0xFF { return try JPEGCodec.decode(raw, scaleDenominator: 1, maximumPixels: 1 << 30).image }
            return try WebPCodec.decode(raw, maximumPixels: 1 << 30).image
        }
    }
}

extension Fixtures {
    /// A made-up scene: soft blobs of colour on a gradient, drawn at
    /// `width`×`height`, seen from `shift` pixels across and `light` lighter
    /// (a camera's next frame of it); another seed is another scene.
    public static func scene(_ seed: UInt64, width: Int = 300, height: Int = 220, shift: Int = 0, light: Int = 0) -> RGBAImage {
        var random = SeededGenerator(seed: seed)
        let blobs = (0..<9).map { _ in
            (x: Double.random(in: 0...1, using: &random), y: Double.random(in: 0...1, using: &random), r: Double.random(in: 0.06...0.25, using: &random),
             colour: (Double(UInt8.random(in: 0...255, using: &random)), Double(UInt8.random(in: 0...255, using: &random)),
                      Double(UInt8.random(in: 0...255, using: &random))))
        }
        return RGBAImage(width: width, height: height, hasAlpha: false) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x + shift) / Double(width), v = Double(y) / Double(height)
                    var pixel = (40 + 120 * v, 60 + 100 * u, 90.0)
                    for blob in blobs {
                        let d = ((u - blob.x) * (u - blob.x) + (v - blob.y) * (v - blob.y)).squareRoot()
                        let weight = max(0, 1 - d / blob.r)
                        pixel = (pixel.0 * (1 - weight) + blob.colour.0 * weight, pixel.1 * (1 - weight) + blob.colour.1 * weight,
                                 pixel.2 * (1 - weight) + blob.colour.2 * weight)
                    }
                    let at = (y * width + x) * 4
                    buffer[at] = UInt8(max(0, min(255, pixel.0 + Double(light))))
                    buffer[at + 1] = UInt8(max(0, min(255, pixel.1 + Double(light))))
                    buffer[at + 2] = UInt8(max(0, min(255, pixel.2 + Double(light))))
                    buffer[at + 3] = 255
                }
            }
        }
    }
}
