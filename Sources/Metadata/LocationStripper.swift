import GalleryCore
import Containers

/// Removes where a photo was taken from a copy of the file, losslessly: the
/// pixels and every other tag stay byte for byte. Used when originals are
/// published for download.
///
/// - The EXIF GPS directory is emptied in place (its entries and their values
///   zeroed, its count set to 0), so no other offset moves.
/// - XMP packets (which repeat GPS, and often place names; in JPEG, PNG, WebP
///   and GIF application extensions) and IPTC blocks (city, country,
///   sub-location) are dropped whole.
/// - In JPEG, everything after the main image's end marker is dropped: phones
///   append further images there (MPF depth maps, previews) and vendor
///   trailers, each with EXIF and GPS of its own. The MPF index is dropped with them.
public enum LocationStripper {
    /// A copy of `bytes` without location data.
    public static func strip(_ bytes: [UInt8]) throws(MetadataError) -> [UInt8] {
        let sniffed: Result<SourceFormat, MetadataError> = bytes.withUnsafeBytes { raw in
            Result { () throws(MetadataError) in try FormatSniffer.format(of: raw) }
        }
        let format = try sniffed.get()
        switch format {
        case .jpeg: return try stripJPEG(bytes)
        case .png: return stripPNG(bytes)
        case .webp: return stripWebP(bytes)
        case .gif: return stripGIF(bytes)
        case .heif, .tiff, .jxl, .raw, .video:
            // Published as a full-size conversion (or a playback file) instead (SourceFormat.isPublishableAsIs).
            throw .malformed("location cannot be removed from a \(format.rawValue.uppercased()) file without re-encoding it")
        }
    }

    // MARK: TIFF

    /// The byte ranges (relative to the TIFF header) that hold the GPS
    /// directory: its count, its entries and the values they point to.
    static func gpsRanges(_ r: ByteReader) -> [Range<Int>] {
        let little = r.matches(0, "II")
        guard r.count >= 8, little || r.matches(0, "MM") else { return [] }
        func u16(_ o: Int) -> Int? { little ? r.u16le(o) : r.u16be(o) }
        func u32(_ o: Int) -> Int? { little ? r.u32le(o) : r.u32be(o) }
        guard let ifd0 = u32(4), let count = u16(ifd0) else { return [] }
        var gpsOffset: Int?
        for i in 0..<min(count, 1000) {
            guard let tag = u16(ifd0 + 2 + i * 12) else { break }
            if tag == 0x8825 { gpsOffset = u32(ifd0 + 2 + i * 12 + 8) }
        }
        guard let gps = gpsOffset, let entries = u16(gps) else { return [] }
        let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        // An empty directory: count 0, and the zeroed bytes after it read as "no next IFD".
        var ranges = [gps..<(gps + 2)]
        for i in 0..<min(entries, 1000) {
            let entry = gps + 2 + i * 12
            guard entry + 12 <= r.count, let type = u16(entry + 2), let n = u32(entry + 4) else { break }
            let size = (typeSizes[type] ?? 1) * n
            if size > 4, size < 1 << 20, let offset = u32(entry + 8), r.slice(offset, size) != nil {
                ranges.append(offset..<(offset + size))
            }
            ranges.append(entry..<(entry + 12))
        }
        return ranges
    }

    /// Empties, in place, the GPS directory of the TIFF block at `base..<end`.
    static func emptyGPS(_ data: inout [UInt8], base: Int, end: Int) {
        guard base >= 0, base <= end, end <= data.count else { return }
        let ranges = data.withUnsafeBytes { raw in gpsRanges(ByteReader(bytes: UnsafeRawBufferPointer(rebasing: raw[base..<end]))) }
        for range in ranges { data.replaceSubrange((base + range.lowerBound)..<(base + range.upperBound), with: repeatElement(0, count: range.count)) }
    }

    // MARK: Containers

    static func stripJPEG(_ bytes: [UInt8]) throws(MetadataError) -> [UInt8] {
        let walked: Result<[UInt8], MetadataError> = bytes.withUnsafeBytes { raw in
            let r = ByteReader(bytes: raw)
            var out: [UInt8] = [0xFF, 0xD8]
            var offset = 2
            while offset + 4 <= r.count {
                guard r.u8(offset) == 0xFF, let marker = r.u8(offset + 1) else {
                    return .failure(.malformed("JPEG marker expected at byte \(offset)"))
                }
                if marker == 0xDA || marker == 0xD9 { break }  // image data: copied as is below
                if marker == 0xFF { out.append(0xFF); offset += 1; continue }
                guard let length = r.u16be(offset + 2), length >= 2, r.slice(offset, 2 + length) != nil else {
                    return .failure(.malformed("JPEG segment runs past the end"))
                }
                let body = offset + 4
                var keep = true
                var segment = Array(bytes[offset..<(offset + 2 + length)])
                if marker == 0xE1, r.matches(body, "Exif\0\0") {
                    emptyGPS(&segment, base: 4 + 6, end: segment.count)
                } else if marker == 0xE1, r.matches(body, "http://ns.adobe.com/") {
                    keep = false  // XMP and extended XMP
                } else if marker == 0xED {
                    keep = false  // Photoshop IRB / IPTC
                } else if marker == 0xE2, r.matches(body, "MPF\0") {
                    keep = false  // index of the appended images, which are dropped below
                }
                if keep { out += segment }
                offset += 2 + length
            }
            out += bytes[offset..<mainImageEnd(r, from: offset)]
            return .success(out)
        }
        return try walked.get()
    }

    /// The offset just past the main image's EOI, walking scans and the
    /// segments between them (progressive JPEGs have several), so a byte pair
    /// FF D9 inside a table can never end it early. Without an EOI (a truncated
    /// file) it is the end of the data.
    static func mainImageEnd(_ r: ByteReader, from start: Int) -> Int {
        var offset = start
        while let byte = r.u8(offset), let marker = r.u8(offset + 1) {
            guard byte == 0xFF else { offset += 1; continue }  // entropy-coded data
            switch marker {
            case 0xD9:
                return offset + 2
            case 0x00, 0xFF, 0xD0...0xD7:
                offset += marker == 0xFF ? 1 : 2  // stuffed byte, fill byte, restart marker
            default:
                guard let length = r.u16be(offset + 2), length >= 2 else { return r.count }
                offset += 2 + length  // a segment (SOS header, DHT between scans…); its data follows
            }
        }
        return r.count
    }

    /// A GIF without its XMP application extensions ("XMP DataXMP"), which
    /// can hold GPS like any XMP packet. Everything else is copied; the walk
    /// stops where the source's blocks stop, then ends with a trailer.
    static func stripGIF(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { raw in
            let r = ByteReader(bytes: raw)
            guard let start = GIFStructure.blocksStart(r), start <= r.count else { return bytes }
            var out = Array(bytes[0..<start])
            var truncated = false
            GIFStructure.forEachBlock(r, from: start) { introducer, offset, end in
                let isXMP = introducer == 0x21 && r.u8(offset + 1) == 0xFF && r.u8(offset + 2) == 11 && r.matches(offset + 3, "XMP DataXMP")
                if !isXMP { out += bytes[offset..<(end ?? r.count)] }
                truncated = end == nil
            }
            if !truncated { out.append(0x3B) }
            return out
        }
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func stripPNG(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { raw in
            let r = ByteReader(bytes: raw)
            guard r.count >= 8 else { return bytes }
            var out = Array(bytes[0..<8])
            var offset = 8
            while let length = r.u32be(offset), r.slice(offset, 12 + length) != nil {
                var chunk = Array(bytes[offset..<(offset + 12 + length)])
                var keep = true
                if r.matches(offset + 4, "eXIf") {
                    emptyGPS(&chunk, base: 8, end: 8 + length)
                    let crc = crc32(chunk[4..<(8 + length)])
                    chunk[8 + length] = UInt8(crc >> 24); chunk[9 + length] = UInt8((crc >> 16) & 0xFF)
                    chunk[10 + length] = UInt8((crc >> 8) & 0xFF); chunk[11 + length] = UInt8(crc & 0xFF)
                } else if r.matches(offset + 4, "iTXt") || r.matches(offset + 4, "tEXt") || r.matches(offset + 4, "zTXt") {
                    // XMP, and ImageMagick's hex-encoded "Raw profile type exif/xmp/iptc".
                    let keyword = String(decoding: chunk[8..<(8 + length)].prefix { $0 != 0 }, as: UTF8.self).lowercased()
                    keep = !keyword.hasPrefix("xml:com.adobe.xmp") && !keyword.hasPrefix("raw profile type")
                }
                if keep { out += chunk }
                if r.matches(offset + 4, "IEND") { break }
                offset += 12 + length
            }
            return out
        }
    }

    static func stripWebP(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { raw in
            let r = ByteReader(bytes: raw)
            guard r.count >= 12 else { return bytes }
            var chunks: [UInt8] = []
            var offset = 12
            var droppedXMP = false
            while let size = r.u32le(offset + 4), r.slice(offset, 8 + size) != nil {
                let padded = size + (size & 1)
                var chunk = Array(bytes[offset..<min(r.count, offset + 8 + padded)])
                if r.matches(offset, "XMP ") {
                    droppedXMP = true
                } else {
                    if r.matches(offset, "EXIF") {
                        // The chunk may start with the "Exif\0\0" prefix some writers add.
                        emptyGPS(&chunk, base: r.matches(offset + 8, "Exif\0\0") ? 14 : 8, end: 8 + size)
                    }
                    chunks += chunk
                }
                offset += 8 + padded
            }
            if droppedXMP, chunks.count >= 9, Array(chunks[0..<4]) == Array("VP8X".utf8) {
                chunks[8] &= ~0x04  // clear the XMP flag
            }
            let riffSize = UInt32(chunks.count + 4)
            return Array("RIFF".utf8) + [UInt8(riffSize & 0xFF), UInt8((riffSize >> 8) & 0xFF), UInt8((riffSize >> 16) & 0xFF), UInt8(riffSize >> 24)]
                + Array("WEBP".utf8) + chunks
        }
    }
}
