import Foundation
import GalleryCore

/// What a Google Takeout JSON sidecar says of its photo or video: what the
/// owner typed and chose in Google Photos, kept beside the file, not in it.
/// The JSON is untrusted: a field of the wrong type or out of range is left
/// out (and named in `refused`), never the whole file; nesting is bounded by
/// Foundation's parser (512 levels), the size by `largestSize`.
public struct TakeoutSidecar: Equatable, Sendable {
    /// The file's name in Google Photos (not shown: the build names files itself).
    public var title: String?
    /// The description typed in Google Photos.
    public var caption: String?
    /// When it was taken (`photoTakenTime`, UTC): the date a file without EXIF lacks.
    public var takenAt: Date?
    /// Where (`geoData`, else `geoDataExif`; 0,0 is Google's "none"): for place names only.
    public var location: GPSCoordinate?
    /// The names of the people Google Photos recognised and the owner named.
    public var people: [String] = []
    public var favorite = false
    /// In the trash: never published.
    public var trashed = false
    /// Archived in Google Photos (hidden from its main view).
    public var archived = false
    /// Fields present but unusable (wrong type, out of range), by name.
    public var refused: [String] = []

    /// A sidecar is about a kilobyte: a larger file is not read.
    public static let largestSize = 1 << 20
    /// The instants accepted: from 1826 (the oldest photograph) to 2200.
    static let earliest = Date(timeIntervalSince1970: -4_575_744_000)
    static let latest = Date(timeIntervalSince1970: 7_258_118_400)
    /// The longest caption and name kept (longer ones are cut, not refused).
    static let longestText = 10_000, longestName = 200

    public init() {}

    /// Reads a sidecar's bytes.
    public init(_ bytes: [UInt8]) throws(TakeoutSidecarError) {
        let object = try Self.object(bytes)
        title = text(object, "title", longest: Self.longestText)
        caption = text(object, "description", longest: Self.longestText)
        takenAt = instant(object, "photoTakenTime")
        location = place(object, "geoData") ?? place(object, "geoDataExif")
        if let list = object["people"] {
            if let people = list as? [Any] {
                var seen = Set<String>()
                for case let person as [String: Any] in people {
                    guard let name = (person["name"] as? String).map(Self.oneLine), !name.isEmpty, name.count <= Self.longestName,
                          seen.insert(name).inserted else { continue }
                    self.people.append(name)
                }
            } else {
                refused.append("people")
            }
        }
        favorite = flag(object, "favorited")
        trashed = flag(object, "trashed")
        archived = flag(object, "archived")
    }

    private mutating func text(_ object: [String: Any], _ key: String, longest: Int) -> String? {
        guard let value = object[key] else { return nil }
        guard let string = value as? String else {
            refused.append(key)
            return nil
        }
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(longest))
    }

    /// `{"timestamp": "1546300800", "formatted": "…"}`: seconds since 1970 in UTC, as a string (or a number).
    private mutating func instant(_ object: [String: Any], _ key: String) -> Date? {
        guard let value = object[key] else { return nil }
        let stamp = (value as? [String: Any])?["timestamp"]
        let seconds = (stamp as? String).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } ?? (stamp as? NSNumber)?.int64Value
        guard let seconds, seconds != 0 else {
            refused.append(key)
            return nil
        }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard date >= Self.earliest, date <= Self.latest else {
            refused.append(key)
            return nil
        }
        return date
    }

    private mutating func place(_ object: [String: Any], _ key: String) -> GPSCoordinate? {
        guard let value = object[key] else { return nil }
        guard let fields = value as? [String: Any], let latitude = (fields["latitude"] as? NSNumber)?.doubleValue,
              let longitude = (fields["longitude"] as? NSNumber)?.doubleValue,
              latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            refused.append(key)
            return nil
        }
        if latitude == 0 && longitude == 0 { return nil }
        return GPSCoordinate(latitude: latitude, longitude: longitude)
    }

    private mutating func flag(_ object: [String: Any], _ key: String) -> Bool {
        guard let value = object[key] else { return false }
        // JSONSerialization reads true and false as NSNumbers of type "c"
        // (a C char); 0 and 1 are numbers too, but not flags.
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
            refused.append(key)
            return false
        }
        return number.boolValue
    }

    /// Control characters (a newline in a name) as spaces.
    /// An untrusted Takeout JSON's top object: at most `largestSize` bytes,
    /// parsed by Foundation (nesting bounded), an object or refused.
    static func object(_ bytes: [UInt8]) throws(TakeoutSidecarError) -> [String: Any] {
        guard bytes.count <= largestSize else { throw .tooLarge(bytes.count) }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw .notJSON
        }
        guard let object = parsed as? [String: Any] else { throw .notAnObject }
        return object
    }

    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            .trimmingCharacters(in: .whitespaces)
    }
}

/// Why a Takeout sidecar was not read (the photo is still published, without it).
public enum TakeoutSidecarError: Error, Equatable, CustomStringConvertible {
    case tooLarge(Int)
    case notJSON
    case notAnObject

    public var description: String {
        switch self {
        case .tooLarge(let size): return "a Takeout sidecar of \(size) bytes (more than \(TakeoutSidecar.largestSize)) is not read"
        case .notJSON: return "not JSON"
        case .notAnObject: return "not a JSON object"
        }
    }
}
