import Foundation
import GalleryCore
import Containers

/// Finds the MP4 clip an Android "Motion Photo" carries inside its still:
///
/// - v1 (Google "MicroVideo"): XMP `GCamera:MicroVideo="1"` and
///   `GCamera:MicroVideoOffset` = bytes from the file's end to the MP4's start.
/// - v2 (Pixel, Samsung): XMP `Camera:MotionPhoto="1"` with a
///   `Container:Directory` whose `MotionPhoto` item's `Item:Length` is the
///   size of the MP4 at the file's end.
/// - Samsung HEIC: a top-level `mpvd` box holding the MP4; Pixel HEIC: the
///   MP4's own boxes (a second `ftyp`) appended after the HEIF's.
///
/// Every candidate must start with an MP4 `ftyp` box, so a stray XMP number
/// never turns ordinary bytes into a "video".
public enum MotionPhoto {
    /// The byte range of the embedded MP4, or nil. `xmp` is the JPEG's XMP
    /// packet as the metadata read found it (JPEGStructure), so the segments
    /// are not walked a second time.
    public static func clipRange(in bytes: UnsafeRawBufferPointer, format: SourceFormat, xmp: UnsafeRawBufferPointer? = nil) -> Range<Int>? {
        let r = ByteReader(bytes: bytes)
        switch format {
        case .jpeg:
            // Cheap test first: most photos are no Motion Photo.
            guard let packet = xmp, Self.contains(packet, "MicroVideo") || Self.contains(packet, "MotionPhoto") else { return nil }
            let xmp = String(decoding: packet, as: UTF8.self)
            let stillEnd = LocationStripper.mainImageEnd(r, from: 2)
            for length in lengthsFromEnd(xmp) where length > 8 && length <= r.count - stillEnd {
                let start = r.count - length
                if isMP4(r, at: start) { return start..<r.count }
            }
            return nil
        case .heif:
            var offset = 0
            var sawFileType = false
            while offset + 8 <= r.count, let size32 = r.u32be(offset) {
                var size = size32, header = 8
                if size == 1, let high = r.u32be(offset + 8), let low = r.u32be(offset + 12) {
                    size = high << 32 | low
                    header = 16
                } else if size == 0 {
                    size = r.count - offset
                }
                guard size >= header, size <= r.count - offset else { return nil }
                if r.matches(offset + 4, "mpvd"), isMP4(r, at: offset + header) { return (offset + header)..<(offset + size) }
                if r.matches(offset + 4, "ftyp") {
                    if sawFileType { return offset..<r.count }
                    sawFileType = true
                }
                offset += size
            }
            return nil
        default:
            return nil
        }
    }

    /// True when an MP4/QuickTime `ftyp` box starts at `offset`.
    static func isMP4(_ r: ByteReader, at offset: Int) -> Bool {
        guard offset >= 0, let size = r.u32be(offset), size >= 8 else { return false }
        return r.matches(offset + 4, "ftyp")
    }

    static func contains(_ bytes: UnsafeRawBufferPointer, _ ascii: String) -> Bool {
        let needle = Array(ascii.utf8)
        guard bytes.count >= needle.count else { return false }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Candidate MP4 sizes, from the XMP: v2's `MotionPhoto` item length
    /// (plus its padding), then v1's offset. Only when the XMP says it is a
    /// motion photo.
    static func lengthsFromEnd(_ xmp: String) -> [Int] {
        let isV1 = value(of: "MicroVideo", in: xmp) == "1"
        let isV2 = value(of: "MotionPhoto", in: xmp) == "1"
        guard isV1 || isV2 else { return [] }
        var lengths: [Int] = []
        // The directory's items in order; the motion one is the video/mp4 or MotionPhoto one.
        var rest = Substring(xmp)
        while let item = rest.range(of: "<Container:Item") ?? rest.range(of: "<rdf:li") {
            let end = rest[item.upperBound...].range(of: ">")?.upperBound ?? rest.endIndex
            let element = String(rest[item.lowerBound..<end])
            if element.contains("MotionPhoto") || element.contains("video/") {
                // Bounded: a hostile number must not overflow the sum below.
                if let length = value(of: "Length", in: element).flatMap({ Int($0) }), (1...Int(Int32.max)).contains(length) {
                    let padding = value(of: "Padding", in: element).flatMap { Int($0) } ?? 0
                    lengths.append(length)
                    if (1...Int(Int32.max)).contains(padding) { lengths.append(length + padding) }
                }
            }
            rest = rest[end...]
        }
        if let offset = value(of: "MicroVideoOffset", in: xmp).flatMap({ Int($0) }) { lengths.append(offset) }
        return lengths
    }

    /// The value of an XMP property written as `prefix:NAME="v"` or
    /// `<prefix:NAME>v</prefix:NAME>`, whatever the namespace prefix.
    static func value(of name: String, in xmp: String) -> String? {
        var search = Substring(xmp)
        while let found = search.range(of: ":" + name) {
            var after = search[found.upperBound...]
            if after.first == "=" {
                after = after.dropFirst()
                guard let quote = after.first, quote == "\"" || quote == "'" else { search = after; continue }
                let body = after.dropFirst()
                if let close = body.firstIndex(of: quote) { return String(body[..<close]).trimmingCharacters(in: .whitespaces) }
            } else if after.first == ">" {
                let body = after.dropFirst()
                if let close = body.firstIndex(of: "<") { return String(body[..<close]).trimmingCharacters(in: .whitespaces) }
            }
            search = after
        }
        return nil
    }
}
