import CExif
import GalleryCore
import Containers

/// The EXIF facts gallerygen uses, read through libexif from a TIFF block.
struct ExifFacts {
    var orientation: Orientation?
    var original: String?
    var originalOffset: String?
    var digitized: String?
    var digitizedOffset: String?
    var modified: String?
    var modifiedOffset: String?
    var camera = CameraFacts()
    var gps: GPSCoordinate?
    /// An iPhone's Live Photo identifier (Apple maker note tag 0x11).
    var appleContentIdentifier: String?
    /// Tag 0x0B of an Apple maker note: the burst the photo is a frame of.
    var appleBurstIdentifier: String?
    /// ImageDescription, XPTitle/XPComment/XPKeywords, UserComment, Rating.
    var words = PhotoWords()
    /// A date found outside the EXIF tags (libraw's, for RAW files), used
    /// after them.
    var rawDate: CaptureDate?

    /// The best capture date the tags give, following the documented fallback order.
    var captureDate: CaptureDate? {
        if let text = original, let date = CaptureDate(exif: text, offset: originalOffset, source: .original) { return date }
        if let text = digitized, let date = CaptureDate(exif: text, offset: digitizedOffset, source: .digitized) { return date }
        if let text = modified, let date = CaptureDate(exif: text, offset: modifiedOffset, source: .modified) { return date }
        return rawDate
    }
}

/// Reads EXIF with libexif. Every string is treated as hostile: bounded, decoded
/// as UTF-8 with replacement, and stripped of control characters.
enum ExifReader {
    /// Tags (numeric, so no libexif macro is needed).
    private enum Tag {
        static let orientation: UInt32 = 0x0112
        static let make: UInt32 = 0x010F
        static let model: UInt32 = 0x0110
        static let dateTime: UInt32 = 0x0132
        static let exposureTime: UInt32 = 0x829A
        static let fNumber: UInt32 = 0x829D
        static let iso: UInt32 = 0x8827
        static let dateTimeOriginal: UInt32 = 0x9003
        static let dateTimeDigitized: UInt32 = 0x9004
        static let offsetTime: UInt32 = 0x9010
        static let offsetTimeOriginal: UInt32 = 0x9011
        static let offsetTimeDigitized: UInt32 = 0x9012
        static let focalLength: UInt32 = 0x920A
        static let lensModel: UInt32 = 0xA434
        static let latitudeRef: UInt32 = 0x0001
        static let latitude: UInt32 = 0x0002
        static let longitudeRef: UInt32 = 0x0003
        static let longitude: UInt32 = 0x0004
    }

    /// Parses `payload`, which starts with `Exif\0\0` (as in a JPEG APP1) or
    /// directly with the TIFF header (WebP EXIF chunk, PNG eXIf): the latter gets
    /// the prefix libexif needs.
    static func read(_ payload: UnsafeRawBufferPointer) -> ExifFacts? {
        guard payload.count >= 8 else { return nil }
        let hasPrefix = ByteReader(bytes: payload).matches(0, "Exif\0\0")
        var buffer = [UInt8]()
        buffer.reserveCapacity(payload.count + 6)
        if !hasPrefix { buffer.append(contentsOf: Array("Exif\0\0".utf8)) }
        buffer.append(contentsOf: payload)
        guard let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        // FOLLOW_SPECIFICATION would invent missing tags (a fake DateTime of "now").
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        buffer.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        let order = exif_data_get_byte_order(data)
        let ifds = data.pointee.ifd
        let ifd0 = ifds.0, exifIFD = ifds.2, gpsIFD = ifds.3

        func entry(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> UnsafeMutablePointer<ExifEntry>? {
            guard let content else { return nil }
            return exif_content_get_entry(content, ExifTag(rawValue: tag))
        }
        func text(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> String? {
            guard let e = entry(content, tag), e.pointee.format == EXIF_FORMAT_ASCII || e.pointee.format == EXIF_FORMAT_UNDEFINED,
                  let bytes = e.pointee.data else { return nil }
            let count = min(Int(e.pointee.size), 256)
            let raw = UnsafeBufferPointer(start: bytes, count: count)
            let end = raw.firstIndex(of: 0) ?? count
            return UntrustedText.clean(Array(raw[0..<end]))
        }
        func rational(_ e: UnsafeMutablePointer<ExifEntry>, _ index: Int) -> Double? {
            guard let bytes = e.pointee.data, Int(e.pointee.components) > index else { return nil }
            let size = 8
            guard Int(e.pointee.size) >= (index + 1) * size else { return nil }
            let p = bytes + index * size
            switch e.pointee.format {
            case EXIF_FORMAT_RATIONAL:
                let r = exif_get_rational(p, order)
                return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
            case EXIF_FORMAT_SRATIONAL:
                let r = exif_get_srational(p, order)
                return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
            default:
                return nil
            }
        }
        func number(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> Int? {
            guard let e = entry(content, tag), let bytes = e.pointee.data, e.pointee.components >= 1 else { return nil }
            switch e.pointee.format {
            case EXIF_FORMAT_SHORT where e.pointee.size >= 2: return Int(exif_get_short(bytes, order))
            case EXIF_FORMAT_SSHORT where e.pointee.size >= 2: return Int(exif_get_sshort(bytes, order))
            case EXIF_FORMAT_LONG where e.pointee.size >= 4: return Int(exif_get_long(bytes, order))
            case EXIF_FORMAT_SLONG where e.pointee.size >= 4: return Int(exif_get_slong(bytes, order))
            case EXIF_FORMAT_BYTE where e.pointee.size >= 1: return Int(bytes[0])
            default: return nil
            }
        }
        func real(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> Double? {
            guard let e = entry(content, tag) else { return nil }
            guard let value = rational(e, 0), value.isFinite, value > 0 else { return nil }
            return value
        }

        var facts = ExifFacts()
        if let raw = number(ifd0, Tag.orientation) { facts.orientation = Orientation(rawValue: raw) }
        facts.modified = text(ifd0, Tag.dateTime)
        facts.modifiedOffset = text(exifIFD, Tag.offsetTime)
        facts.original = text(exifIFD, Tag.dateTimeOriginal)
        facts.originalOffset = text(exifIFD, Tag.offsetTimeOriginal)
        facts.digitized = text(exifIFD, Tag.dateTimeDigitized)
        facts.digitizedOffset = text(exifIFD, Tag.offsetTimeDigitized)
        facts.camera.make = text(ifd0, Tag.make)
        facts.camera.model = text(ifd0, Tag.model)
        facts.camera.lens = text(exifIFD, Tag.lensModel)
        facts.camera.exposureTime = real(exifIFD, Tag.exposureTime)
        facts.camera.fNumber = real(exifIFD, Tag.fNumber)
        facts.camera.focalLength = real(exifIFD, Tag.focalLength)
        if let iso = number(exifIFD, Tag.iso), iso > 0 { facts.camera.iso = iso }
        func raw(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: UInt32) -> [UInt8]? {
            guard let e = entry(content, tag), let bytes = e.pointee.data, e.pointee.size > 0 else { return nil }
            return Array(UnsafeBufferPointer(start: bytes, count: min(Int(e.pointee.size), 64 << 10)))
        }
        facts.words = Self.words(description: raw(ifd0, 0x010E), xpTitle: raw(ifd0, 0x9C9B), xpComment: raw(ifd0, 0x9C9C),
                                 xpKeywords: raw(ifd0, 0x9C9E), userComment: raw(exifIFD, 0x9286),
                                 rating: number(ifd0, 0x4746), bigEndian: order == EXIF_BYTE_ORDER_MOTOROLA)
        if let note = entry(exifIFD, 0x927C), let data = note.pointee.data, note.pointee.size > 0 {
            let raw = UnsafeRawBufferPointer(start: data, count: Int(note.pointee.size))
            facts.appleContentIdentifier = appleNoteText(raw, tag: 0x11)
            facts.appleBurstIdentifier = appleNoteText(raw, tag: 0x0B)
        }

        if let lat = entry(gpsIFD, Tag.latitude), let lon = entry(gpsIFD, Tag.longitude),
           let latDeg = degrees(lat, rational), let lonDeg = degrees(lon, rational) {
            let south = text(gpsIFD, Tag.latitudeRef)?.uppercased() == "S"
            let west = text(gpsIFD, Tag.longitudeRef)?.uppercased() == "W"
            let latitude = south ? -latDeg : latDeg, longitude = west ? -lonDeg : lonDeg
            if abs(latitude) <= 90, abs(longitude) <= 180 {
                facts.gps = GPSCoordinate(latitude: latitude, longitude: longitude)
            }
        }
        return facts
    }

    private static func degrees(_ e: UnsafeMutablePointer<ExifEntry>,
                                _ rational: (UnsafeMutablePointer<ExifEntry>, Int) -> Double?) -> Double? {
        guard let d = rational(e, 0) else { return nil }
        let m = rational(e, 1) ?? 0, s = rational(e, 2) ?? 0
        let value = d + m / 60 + s / 3600
        return value.isFinite ? value : nil
    }

    /// A text tag of an Apple maker note (`Apple iOS\0`, version, `MM`, then
    /// a big-endian IFD whose offsets count from the note's start): 0x11, the
    /// UUID the Live Photo's clip repeats as
    /// `com.apple.quicktime.content.identifier`; 0x0B, the burst's UUID.
    static func appleNoteText(_ note: UnsafeRawBufferPointer, tag wanted: UInt16) -> String? {
        let r = ByteReader(bytes: note)
        guard r.matches(0, "Apple iOS\0"), r.matches(12, "MM"), let count = r.u16be(14) else { return nil }
        for index in 0..<min(count, 256) {
            let entry = 16 + index * 12
            guard let tag = r.u16be(entry), let type = r.u16be(entry + 2), let length = r.u32be(entry + 4) else { return nil }
            guard tag == wanted, type == 2, length > 1, length <= 256 else { continue }
            let start = length <= 4 ? entry + 8 : (r.u32be(entry + 8) ?? -1)
            guard let body = r.slice(start, length) else { return nil }
            return UntrustedText.clean(Array(body))
        }
        return nil
    }

    /// The words in EXIF: ImageDescription (ASCII, often UTF-8 in practice),
    /// Windows' XP tags (UCS-2 little-endian), UserComment (an 8-byte
    /// character code, then ASCII or UCS-2 in the file's byte order), and
    /// Windows' star Rating.
    static func words(description: [UInt8]?, xpTitle: [UInt8]?, xpComment: [UInt8]?, xpKeywords: [UInt8]?, userComment: [UInt8]?,
                      rating: Int?, bigEndian: Bool) -> PhotoWords {
        func ascii(_ bytes: [UInt8]) -> String? {
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            let body = Array(bytes[0..<end])
            let text = String(validating: body, as: UTF8.self) ?? String(body.map { Character(Unicode.Scalar($0)) })
            return PhotoWords.cleanText(text)
        }
        func ucs2(_ bytes: [UInt8], bigEndian: Bool) -> String? {
            var units: [UInt16] = []
            for i in stride(from: 0, to: bytes.count - 1, by: 2) {
                let unit = bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])
                if unit == 0 { break }
                units.append(unit)
            }
            return PhotoWords.cleanText(String(decoding: units, as: UTF16.self))
        }
        var words = PhotoWords()
        words.title = xpTitle.flatMap { ucs2($0, bigEndian: false) }
        var caption = description.flatMap(ascii) ?? xpComment.flatMap { ucs2($0, bigEndian: false) }
        if caption == nil, let comment = userComment, comment.count > 8 {
            let code = comment.prefix(8), body = Array(comment.dropFirst(8))
            if code.elementsEqual(Array("UNICODE\0".utf8)) {
                caption = ucs2(body, bigEndian: bigEndian)
            } else if code.elementsEqual(Array("ASCII\0\0\0".utf8)) || code.allSatisfy({ $0 == 0 }) {
                caption = ascii(body)
            }
        }
        words.caption = caption
        if let keywords = xpKeywords.flatMap({ ucs2($0, bigEndian: false) }) {
            words.keywords = PhotoWords.merged([], keywords.split(separator: ";").compactMap { PhotoWords.cleanKeyword(String($0)) })
        }
        if let rating, (0...5).contains(rating) { words.rating = rating }
        return words
    }
}
