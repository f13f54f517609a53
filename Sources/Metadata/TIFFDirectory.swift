import GalleryCore
import Containers

/// The first directory of a TIFF-shaped file (TIFF, and the RAW formats built
/// on it: NEF, ARW, DNG, PEF, CR2, …), read with bounds checks and no pixels.
///
/// libexif reads only the first 64 KiB it is given (a JPEG APP1 segment's
/// limit), but in a TIFF the directories can sit anywhere, often after many
/// megabytes of image data. So the tags gallerygen uses are gathered into a
/// compact EXIF block (IFD0's camera and date tags, the whole EXIF directory
/// without its MakerNote, the GPS directory) that the one EXIF reader reads.
struct TIFFDirectory {
    /// An entry: tag, type, count, and where its value bytes are.
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        var valueOffset: Int
        var valueSize: Int
    }

    static let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]
    /// More entries than any real directory has: a hostile count is cut here.
    static let maximumEntries = 1000

    let r: ByteReader
    let littleEndian: Bool
    /// IFD0's entries.
    let entries: [Entry]

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        r = ByteReader(bytes: bytes)
        if r.matches(0, "II") { littleEndian = true } else if r.matches(0, "MM") { littleEndian = false } else {
            throw .malformed("TIFF header missing")
        }
        let first = littleEndian ? r.u32le(4) : r.u32be(4)
        guard let first, let parsed = Self.entries(r, littleEndian: littleEndian, at: first) else {
            throw .malformed("TIFF directory is cut short or points outside the file")
        }
        entries = parsed
    }

    func u16(_ o: Int) -> Int? { littleEndian ? r.u16le(o) : r.u16be(o) }
    func u32(_ o: Int) -> Int? { littleEndian ? r.u32le(o) : r.u32be(o) }

    static func entries(_ r: ByteReader, littleEndian: Bool, at offset: Int) -> [Entry]? {
        let count = littleEndian ? r.u16le(offset) : r.u16be(offset)
        guard let count, count > 0 else { return nil }
        var entries: [Entry] = []
        for i in 0..<min(count, maximumEntries) {
            let at = offset + 2 + i * 12
            guard at + 12 <= r.count else { return entries.isEmpty ? nil : entries }
            let tag = (littleEndian ? r.u16le(at) : r.u16be(at)) ?? 0
            let type = (littleEndian ? r.u16le(at + 2) : r.u16be(at + 2)) ?? 0
            let n = (littleEndian ? r.u32le(at + 4) : r.u32be(at + 4)) ?? 0
            let (size, overflow) = (typeSizes[type] ?? 1).multipliedReportingOverflow(by: n)
            guard !overflow else { continue }
            let valueOffset = size <= 4 ? at + 8 : ((littleEndian ? r.u32le(at + 8) : r.u32be(at + 8)) ?? -1)
            entries.append(Entry(tag: tag, type: type, count: n, valueOffset: valueOffset, valueSize: size))
        }
        return entries
    }

    /// The first SHORT or LONG value of `tag` in `entries`.
    func number(_ tag: Int, in entries: [Entry]? = nil) -> Int? {
        guard let e = (entries ?? self.entries).first(where: { $0.tag == tag }), e.count >= 1 else { return nil }
        switch e.type {
        case 3: return u16(e.valueOffset)
        case 4, 13: return u32(e.valueOffset)
        case 1: return r.u8(e.valueOffset)
        default: return nil
        }
    }

    /// Width and height (tags 256 and 257).
    var size: PixelSize? {
        guard let w = number(256), let h = number(257), w > 0, h > 0 else { return nil }
        return PixelSize(width: w, height: h)
    }

    /// The Orientation tag (274).
    var orientation: Orientation? { number(274).flatMap(Orientation.init(rawValue:)) }

    /// The raw bytes of tag `tag` of IFD0, when they lie inside the file.
    func bytes(of tag: Int, maximum: Int) -> UnsafeRawBufferPointer? {
        guard let e = entries.first(where: { $0.tag == tag }), e.valueSize > 0, e.valueSize <= maximum else { return nil }
        return r.slice(e.valueOffset, e.valueSize)
    }

    /// The XMP packet (tag 700) and the IPTC block (tag 33723) of IFD0:
    /// where Lightroom and Photoshop put a TIFF's or DNG's words.
    var xmp: UnsafeRawBufferPointer? { bytes(of: 700, maximum: WordsReader.maximumXMPBytes) }
    var iptc: UnsafeRawBufferPointer? { bytes(of: 33723, maximum: 1 << 20) }

    /// A self-contained EXIF block (TIFF header, IFD0 → EXIF IFD, GPS IFD) in
    /// the file's byte order, holding only what `ExifReader` reads.
    func compactExif() -> [UInt8]? {
        let ifd0Tags: Set<Int> = [0x010F, 0x0110, 0x0112, 0x0132]
        let exifPointer = 0x8769, gpsPointer = 0x8825
        var directories: [(pointer: Int?, entries: [Entry])] = [(nil, entries.filter { ifd0Tags.contains($0.tag) })]
        for pointer in [exifPointer, gpsPointer] {
            guard let offset = number(pointer), var sub = Self.entries(r, littleEndian: littleEndian, at: offset) else { continue }
            sub.removeAll { $0.tag == 0x927C || $0.tag == 0xA005 }  // MakerNote (where libexif's CVEs live), interop pointer
            directories.append((pointer, sub))
        }
        guard directories.count > 1 || !directories[0].entries.isEmpty else { return nil }

        var out: [UInt8] = littleEndian ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42]
        func put16(_ v: Int, at o: Int? = nil) {
            let b: [UInt8] = littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            if let o { out[o] = b[0]; out[o + 1] = b[1] } else { out += b }
        }
        func put32(_ v: Int, at o: Int? = nil) {
            let b: [UInt8] = littleEndian
                ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)]
                : [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            if let o { for i in 0..<4 { out[o + i] = b[i] } } else { out += b }
        }
        put32(8)
        // IFD0 gets one pointer entry per sub-directory, filled in once placed.
        var pointerSlots: [Int: Int] = [:]
        for (index, directory) in directories.enumerated() {
            if index > 0 {
                guard let pointer = directory.pointer, let slot = pointerSlots[pointer] else { continue }
                put32(out.count, at: slot)
            }
            let extraPointers = index == 0 ? directories.compactMap(\.pointer) : []
            // Values at most 4 KiB each; anything larger is not a tag gallerygen reads.
            let kept = directory.entries.filter { $0.valueSize <= 4 || (r.slice($0.valueOffset, $0.valueSize) != nil && $0.valueSize <= 4096) }
                .sorted { $0.tag < $1.tag }
            let all = (kept.map { ($0.tag, Optional($0)) } + extraPointers.map { ($0, nil) }).sorted { $0.0 < $1.0 }
            let start = out.count
            put16(all.count)
            var valueArea = start + 2 + all.count * 12 + 4
            var pending: [(slot: Int, entry: Entry)] = []
            for (tag, entry) in all {
                put16(tag)
                if let entry {
                    put16(entry.type)
                    put32(entry.count)
                    if entry.valueSize <= 4 {
                        let slice = r.slice(entry.valueOffset, 4).map(Array.init) ?? [0, 0, 0, 0]
                        out += slice
                    } else {
                        pending.append((out.count, entry))
                        put32(0)
                    }
                } else {
                    put16(4)
                    put32(1)
                    pointerSlots[tag] = out.count
                    put32(0)
                }
            }
            put32(0)  // no next directory
            for (slot, entry) in pending {
                guard let bytes = r.slice(entry.valueOffset, entry.valueSize) else { continue }
                put32(valueArea, at: slot)
                out += bytes
                if out.count % 2 == 1 { out.append(0) }
                valueArea = out.count
            }
        }
        return out
    }
}
