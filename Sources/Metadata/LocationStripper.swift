import GalleryCore

/// Removes where a photo was taken from a copy of the file, losslessly: the
/// pixels and every other tag stay byte for byte. Used when originals are
/// published for download.
///
/// - The EXIF GPS directory is emptied in place (its entries and their values
///   zeroed, its count set to 0), so no other offset moves.
/// - XMP packets (which repeat GPS, and often place names) and IPTC blocks
///   (city, country, sub-location) are dropped whole.
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
        case .gif: return bytes  // GIF has no EXIF; nothing standard holds a location
        }
    }

    // MARK: TIFF

    /// Empties the GPS IFD of the TIFF block at `base..<end` in place.
    static func emptyGPS(_ data: inout [UInt8], base: Int, end: Int) {
        func u16(_ o: Int, _ little: Bool) -> Int? {
            guard o >= base, o + 2 <= end else { return nil }
            return little ? Int(data[o]) | Int(data[o + 1]) << 8 : Int(data[o]) << 8 | Int(data[o + 1])
        }
        func u32(_ o: Int, _ little: Bool) -> Int? {
            guard let a = u16(o, little), let b = u16(o + 2, little) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard base + 8 <= end else { return }
        let little = data[base] == 0x49 && data[base + 1] == 0x49
        guard little || (data[base] == 0x4D && data[base + 1] == 0x4D) else { return }
        guard let ifd0Offset = u32(base + 4, little), let count = u16(base + ifd0Offset, little) else { return }
        var gpsOffset: Int?
        for i in 0..<min(count, 1000) {
            let entry = base + ifd0Offset + 2 + i * 12
            guard let tag = u16(entry, little) else { break }
            if tag == 0x8825 { gpsOffset = u32(entry + 8, little) }
        }
        guard let gps = gpsOffset, let entries = u16(base + gps, little) else { return }
        let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        for i in 0..<min(entries, 1000) {
            let entry = base + gps + 2 + i * 12
            guard entry + 12 <= end, let type = u16(entry + 2, little), let n = u32(entry + 4, little) else { break }
            let size = (typeSizes[type] ?? 1) * n
            if size > 4, let offset = u32(entry + 8, little), base + offset >= base, base + offset + size <= end, size < 1 << 20 {
                for j in (base + offset)..<(base + offset + size) { data[j] = 0 }
            }
            for j in entry..<(entry + 12) { data[j] = 0 }
        }
        // An empty directory: count 0, and the zeroed bytes after it read as "no next IFD".
        let at = base + gps
        if at + 2 <= end { data[at] = 0; data[at + 1] = 0 }
    }

    // MARK: Containers

    static func stripJPEG(_ bytes: [UInt8]) throws(MetadataError) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { throw .malformed("JPEG marker expected at byte \(offset)") }
            let marker = bytes[offset + 1]
            if marker == 0xDA || marker == 0xD9 { break }  // image data: copied as is below
            if marker == 0xFF { out.append(0xFF); offset += 1; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { throw .malformed("JPEG segment runs past the end") }
            var segment = Array(bytes[offset..<(offset + 2 + length)])
            let body = 4
            func starts(_ text: String) -> Bool {
                let t = Array(text.utf8)
                return segment.count >= body + t.count && Array(segment[body..<(body + t.count)]) == t
            }
            var keep = true
            if marker == 0xE1, starts("Exif\0\0") {
                emptyGPS(&segment, base: body + 6, end: segment.count)
            } else if marker == 0xE1, starts("http://ns.adobe.com/") {
                keep = false  // XMP and extended XMP
            } else if marker == 0xED {
                keep = false  // Photoshop IRB / IPTC
            } else if marker == 0xE2, starts("MPF\0") {
                keep = false  // index of the appended images, which are dropped below
            }
            if keep { out += segment }
            offset += 2 + length
        }
        out += bytes[offset..<mainImageEnd(bytes, from: offset)]
        return out
    }

    /// The offset just past the main image's EOI, walking scans and the
    /// segments between them (progressive JPEGs have several), so a byte pair
    /// FF D9 inside a table can never end it early. Without an EOI (a truncated
    /// file) it is the end of the data.
    static func mainImageEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var offset = start
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { offset += 1; continue }  // entropy-coded data
            let marker = bytes[offset + 1]
            switch marker {
            case 0xD9:
                return offset + 2
            case 0x00, 0xFF, 0xD0...0xD7:
                offset += marker == 0xFF ? 1 : 2  // stuffed byte, fill byte, restart marker
            default:
                guard offset + 3 < bytes.count else { return bytes.count }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2 else { return bytes.count }
                offset += 2 + length  // a segment (SOS header, DHT between scans…); its data follows
            }
        }
        return bytes.count
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
        guard bytes.count >= 8 else { return bytes }
        var out = Array(bytes[0..<8])
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 0, offset + 12 + length <= bytes.count else { break }
            var chunk = Array(bytes[offset..<(offset + 12 + length)])
            let type = String(decoding: chunk[4..<8], as: UTF8.self)
            var keep = true
            if type == "eXIf" {
                emptyGPS(&chunk, base: 8, end: 8 + length)
                let crc = crc32(chunk[4..<(8 + length)])
                chunk[8 + length] = UInt8(crc >> 24); chunk[9 + length] = UInt8((crc >> 16) & 0xFF)
                chunk[10 + length] = UInt8((crc >> 8) & 0xFF); chunk[11 + length] = UInt8(crc & 0xFF)
            } else if type == "iTXt" || type == "tEXt" || type == "zTXt" {
                // XMP, and ImageMagick's hex-encoded "Raw profile type exif/xmp/iptc".
                let keyword = String(decoding: chunk[8..<(8 + length)].prefix { $0 != 0 }, as: UTF8.self).lowercased()
                keep = !keyword.hasPrefix("xml:com.adobe.xmp") && !keyword.hasPrefix("raw profile type")
            }
            if keep { out += chunk }
            offset += 12 + length
            if type == "IEND" { break }
        }
        return out
    }

    static func stripWebP(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 12 else { return bytes }
        var chunks: [UInt8] = []
        var offset = 12
        var droppedXMP = false
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let padded = size + (size & 1)
            guard size >= 0, offset + 8 + size <= bytes.count else { break }
            var chunk = Array(bytes[offset..<min(bytes.count, offset + 8 + padded)])
            if type == "XMP " {
                droppedXMP = true
            } else {
                if type == "EXIF" {
                    // The chunk may start with the "Exif\0\0" prefix some writers add.
                    let base = chunk.count >= 14 && Array(chunk[8..<14]) == Array("Exif\0\0".utf8) ? 14 : 8
                    emptyGPS(&chunk, base: base, end: 8 + size)
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
