import Foundation

/// The photographer's words about one item: a title, a caption, keywords, a
/// rating, and the names of people tagged in it. Read from sidecars, XMP,
/// IPTC and EXIF; every string already cleaned (`PhotoWords.cleanText`).
public struct PhotoWords: Hashable, Sendable, Codable {
    /// A short title (XMP `dc:title`, IPTC ObjectName, EXIF XPTitle).
    public var title: String?
    /// A caption (a sidecar, XMP `dc:description`, IPTC Caption-Abstract, EXIF ImageDescription/UserComment).
    public var caption: String?
    /// Keywords, in the order found, without repeats (letter case ignored).
    public var keywords: [String]
    /// −1 rejected, 0 unrated, 1 to 5 stars, when a source says.
    public var rating: Int?
    /// Names of people in the photo (face regions, and keywords under a
    /// `People` branch), each once: published only with `publish_people`.
    public var people: [String]
    /// The tagged faces, where they are in the stored image: published only
    /// with `publish_people`, and only for people who are.
    public var faces: [FaceRegion]
    /// Regions a file carried that could not be faces (read now, never kept).
    public var droppedRegions: DroppedRegions
    /// Where the owner put the item in the service it was exported from
    /// (trash, archive, hidden, recently deleted): decides whether it is published.
    public var serviceStatus: ServiceStatus?

    /// Creates words.
    public init(title: String? = nil, caption: String? = nil, keywords: [String] = [], rating: Int? = nil, people: [String] = [],
                faces: [FaceRegion] = []) {
        self.title = title
        self.caption = caption
        self.keywords = keywords
        self.rating = rating
        self.people = people
        self.faces = faces
        self.droppedRegions = DroppedRegions()
    }

    /// No words at all.
    public var isEmpty: Bool {
        title == nil && caption == nil && keywords.isEmpty && rating == nil && people.isEmpty && faces.isEmpty && droppedRegions.total == 0
            && serviceStatus == nil
    }

    /// Rejected in the photographer's tool (Lightroom, darktable, Bridge: rating −1).
    public var isRejected: Bool { (rating ?? 0) < 0 }

    /// These words, with what they lack taken from `other` (a source of lower
    /// priority): the first title, caption and rating found win; keywords
    /// and people from every source are kept. Faces come whole from the
    /// first source that has any (a sidecar and the file tag the same faces
    /// twice, not two sets of faces); a keyword that names a person of
    /// either is a person, not a keyword.
    public func filled(from other: PhotoWords) -> PhotoWords {
        var result = self
        result.title = title ?? other.title
        result.caption = caption ?? other.caption
        result.rating = rating ?? other.rating
        result.serviceStatus = serviceStatus ?? other.serviceStatus
        result.keywords = Self.merged(keywords, other.keywords)
        result.faces = faces.isEmpty ? other.faces : faces
        result.people = Self.personNames(result.faces.map(\.name) + people + other.people)
        result.droppedRegions.add(other.droppedRegions)
        return result.separatingPeople()
    }

    /// Names of people, each once: spellings that differ only in letter case
    /// or Unicode form are one person (the first spelling met is kept).
    public static func personNames(_ names: [String]) -> [String] {
        var seen = Set<String>(), result: [String] = []
        for raw in names {
            guard let name = FaceRegion.cleanName(raw).name else { continue }
            if seen.insert(FaceRegion.personKey(name)).inserted { result.append(name) }
        }
        return result
    }

    /// These words with every keyword that names one of `people` left out:
    /// digiKam and Lightroom write a tagged face's name as a keyword too, and
    /// a person is shown (and hidden) as a person, never as a tag.
    public func separatingPeople() -> PhotoWords {
        guard !people.isEmpty, !keywords.isEmpty else { return self }
        let names = Set(people.map(FaceRegion.personKey))
        var result = self
        result.keywords.removeAll { names.contains(FaceRegion.personKey($0)) }
        return result
    }

    /// A keyword, cleaned (short words like "a" or "HDR" are fine as keywords).
    public static func cleanKeyword(_ text: String) -> String? {
        cleanText(text, maximumLength: 100, boilerplateAllowed: true).map { $0.replacingOccurrences(of: "\n", with: " ") }
    }

    /// `first` then the entries of `second` not already in it (letter case ignored).
    public static func merged(_ first: [String], _ second: [String]) -> [String] {
        var seen = Set(first.map { $0.lowercased() })
        var result = first
        for word in second where seen.insert(word.lowercased()).inserted { result.append(word) }
        return result
    }

    /// Longest title or caption kept (a caption is a paragraph, not an essay).
    public static let maximumLength = 2000

    /// Text from a file, cleaned: control and format characters dropped,
    /// whitespace runs collapsed (line breaks kept for captions), trimmed,
    /// bounded; nil when nothing is left or when it is camera boilerplate.
    public static func cleanText(_ text: String, maximumLength: Int = maximumLength, boilerplateAllowed: Bool = false) -> String? {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false, pendingBreak = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" {
                pendingBreak = true
                continue
            }
            let category = scalar.properties.generalCategory
            if scalar.properties.isWhitespace || category == .control {
                pendingSpace = true
                continue
            }
            if category == .format || scalar == "\u{FFFD}" { continue }
            if !scalars.isEmpty {
                if pendingBreak { scalars.append("\n") } else if pendingSpace { scalars.append(" ") }
            }
            pendingSpace = false
            pendingBreak = false
            scalars.append(scalar)
        }
        let cleaned = String(scalars)
        guard !cleaned.isEmpty, boilerplateAllowed || !isBoilerplate(cleaned) else { return nil }
        return cleaned.count > maximumLength ? String(cleaned.prefix(maximumLength)) : cleaned
    }

    /// Text cameras and tools write into description fields by themselves:
    /// never a caption.
    public static func isBoilerplate(_ text: String) -> Bool {
        let folded = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        if boilerplate.contains(folded) { return true }
        // "OLYMPUS DIGITAL CAMERA", "KODAK Z981 DIGITAL CAMERA", "SONY DSC",
        // "DCIM\100CANON", "SAMSUNG CSC", "<Camera Model>", "Screenshot".
        if folded.hasSuffix("digital camera") || folded.hasSuffix(" dsc") || folded.hasPrefix("dcim") { return true }
        if folded.hasPrefix("<") && folded.hasSuffix(">") { return true }
        // Only punctuation, digits or a single repeated character: filler.
        if folded.allSatisfy({ !$0.isLetter }) { return true }
        if Set(folded).count == 1 { return true }
        return false
    }

    static let boilerplate: Set<String> = [
        "default", "image", "picture", "photo", "untitled", "no title",
        "digital camera", "camera", "sony dsc", "dsc", "samsung csc", "lg digital camera", "minolta digital camera",
        "exif_jpeg_picture", "exif_jpeg_422", "jpeg", "jpg", "ascii", "unicode",
        "created with the gimp", "created with gimp", "made with photoshop", "user comments", "imagedescription",
    ]
}

/// Where an item's owner put it in the photo service an export came from,
/// when that is not the library's main view.
public enum ServiceStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// In Google Photos' trash (Takeout `trashed`): never published.
    case trashed
    /// Archived in Google Photos (Takeout `archived`): out of the main view, published only when asked.
    case archived
    /// Hidden in iCloud Photos (Photo Details `hidden`): never published.
    case hidden
    /// Recently deleted in iCloud Photos (Photo Details `deleted`): never published.
    case recentlyDeleted
}
