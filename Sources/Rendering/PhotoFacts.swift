import Foundation
import GalleryCore

/// The facts shown under a photo, as label/value pairs (never GPS).
public enum PhotoFacts {
    /// The facts that are known, in reading order.
    /// `people`: the names of the published people it shows (`SiteMap.people(in:)`);
    /// the place's name only when `place` (moment_places).
    /// `keywords`: its keywords less those that name people (`SiteMap.keywords(of:)`).
    public static func list(_ photo: MediaItem, strings: SiteStrings, keywords: [String]? = nil, people: [String] = [],
                            place: Bool = false) -> [(label: String, value: String)] {
        let keywords = keywords ?? photo.metadata.words.keywords
        let m = photo.metadata
        var facts: [(String, String)] = []
        func add(_ key: String, _ value: String) { facts.append((strings.text(key), value)) }
        let date = m.captureDate
        let when = strings.text("fact.when", ["date": strings.day(date.localDay), "time": strings.time(date)])
        let isVideo = photo.kind == .video
        add(date.source == .fileTime ? "fact.file_date" : isVideo ? "fact.recorded" : "fact.taken", when)
        if isVideo, let motion = m.motion { add("fact.duration", motion.durationLabel) }
        if photo.kind == .motionStill { add("fact.motion", strings.text(kindKey(photo))) }
        if place, let where_ = m.place { add("fact.place", where_.fullName) }
        if let camera = m.camera.cameraName { add("fact.camera", camera) }
        if let lens = m.camera.lens { add("fact.lens", lens) }
        let point = strings.decimalSeparator
        if let focal = m.camera.focalLength { add("fact.focal_length", "\(trim(focal, point)) mm") }
        if let f = m.camera.fNumber { add("fact.aperture", "ƒ/\(trim(f, point))") }
        if let t = m.camera.exposureTime { add("fact.shutter", shutter(t, point)) }
        if let iso = m.camera.iso { add("fact.iso", "\(iso)") }
        add("fact.size", "\(m.displaySize.width) × \(m.displaySize.height)")
        if !keywords.isEmpty { add("fact.keywords", keywords.joined(separator: ", ")) }
        if !people.isEmpty { add("fact.people", people.joined(separator: ", ")) }
        if let rating = m.words.rating, rating > 0 { add("fact.rating", String(repeating: "★", count: rating) + String(repeating: "☆", count: 5 - rating)) }
        if m.isAnimated { add("fact.frames", strings.grouped(m.frameCount)) }
        return facts
    }

    /// The locale key naming what an item is ("Photo", "Live Photo"…).
    static func kindKey(_ item: MediaItem) -> String {
        switch item.kind {
        case .video: return "kind.video"
        case .motionStill: return item.metadata.embeddedClip == nil ? "kind.live_photo" : "kind.motion_photo"
        case .animation: return "kind.animation"
        case .still: return "kind.photo"
        }
    }

    /// The facts as a JSON array of `[label, value]` pairs for the viewer (the
    /// template escapes it into an attribute; every thumbnail carries one, so
    /// it is kept short and written directly).
    public static func json(_ photo: MediaItem, strings: SiteStrings, keywords: [String]? = nil, people: [String] = [],
                            place: Bool = false) -> String {
        var out = "["
        for (i, fact) in list(photo, strings: strings, keywords: keywords, people: people, place: place).enumerated() {
            out += i == 0 ? "[" : ",["
            appendJSONString(fact.label, to: &out)
            out += ","
            appendJSONString(fact.value, to: &out)
            out += "]"
        }
        return out + "]"
    }

    /// `text` as a JSON string literal.
    static func appendJSONString(_ text: String, to out: inout String) {
        // Most text needs no escape: no quote, backslash or control
        // character, nor U+2028/2029 (whose UTF-8 starts with 0xE2).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != 0xE2 }) {
            out += "\""
            out += text
            out += "\""
            return
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// "1/250 s", "0.5 s", "2 s".
    static func shutter(_ seconds: Double, _ point: String = ".") -> String {
        if seconds < 0.5, seconds > 0 {
            let denominator = (1 / seconds).rounded()
            return "1/\(Int(denominator)) s"
        }
        return "\(trim(seconds, point)) s"
    }

    /// 2.8 → "2.8" ("2,8" with a decimal comma), 35.0 → "35".
    static func trim(_ value: Double, _ point: String = ".") -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(tenths / 10) + point + String(abs(tenths % 10))
    }
}
