/// How the media and JSON files of Google Takeout folders matched, for the
/// build's summary.
public struct TakeoutTally: Sendable, Equatable {
    /// Photos and videos with their JSON.
    public var matched = 0
    /// JSON files that describe no media file here.
    public var jsonWithoutMedia = 0
    /// JSON files two photos would take (used by neither).
    public var ambiguousJSON = 0
    /// Photos and videos without a JSON.
    public var mediaWithoutJSON = 0

    /// Creates a tally.
    public init(matched: Int = 0, jsonWithoutMedia: Int = 0, ambiguousJSON: Int = 0, mediaWithoutJSON: Int = 0) {
        self.matched = matched
        self.jsonWithoutMedia = jsonWithoutMedia
        self.ambiguousJSON = ambiguousJSON
        self.mediaWithoutJSON = mediaWithoutJSON
    }

    /// These counts and another folder's, summed.
    public func adding(_ other: TakeoutTally) -> TakeoutTally {
        TakeoutTally(matched: matched + other.matched, jsonWithoutMedia: jsonWithoutMedia + other.jsonWithoutMedia,
                     ambiguousJSON: ambiguousJSON + other.ambiguousJSON, mediaWithoutJSON: mediaWithoutJSON + other.mediaWithoutJSON)
    }

    /// "Google Takeout: 1,234 photos matched to their JSON, 3 JSON without a photo, 0 photos without JSON".
    public var summary: String {
        func count(_ number: Int, _ singular: String, _ plural: String) -> String {
            // Grouped by threes with commas, as the issue's English summary reads, whatever the machine's locale.
            let digits = String(number)
            var grouped = ""
            for (offset, digit) in digits.enumerated() {
                if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
                grouped.append(digit)
            }
            return "\(grouped) \(number == 1 ? singular : plural)"
        }
        var text = "Google Takeout: \(count(matched, "photo or video", "photos and videos")) matched to their JSON, "
            + "\(count(jsonWithoutMedia, "JSON", "JSON")) without a photo, \(count(mediaWithoutJSON, "photo or video", "photos and videos")) without JSON"
        if ambiguousJSON > 0 { text += ", \(count(ambiguousJSON, "JSON", "JSON")) left unread (two photos would take it)" }
        return text
    }
}
