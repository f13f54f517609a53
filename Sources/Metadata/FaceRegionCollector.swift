import GalleryCore

/// Collects the face regions of an XMP packet as `WordsReader`'s walk goes:
/// MWG's (`mwg-rs:RegionInfo/RegionList`: `Area` with `stArea:x`/`y` the
/// centre, `w`/`h`, unit normalized; `Name`; `Type`) and Microsoft's
/// (`MP:RegionInfo/MPRI:Regions`: `MPReg:Rectangle` "left, top, width,
/// height", `MPReg:PersonDisplayName`). Fields may be attributes or
/// elements, a region a `rdf:li` with `parseType="Resource"` or holding a
/// `rdf:Description`, an `Area` likewise: a region is everything inside its
/// list's `rdf:li`, whatever the depth.
final class FaceRegionCollector {
    typealias Namespace = WordsReader.Namespace

    private enum Scheme { case mwg, microsoft }

    /// One region as read, before it is checked.
    private struct Draft {
        var name: String?
        var type: String?
        var x: Double?, y: Double?, w: Double?, h: Double?
        var unit: String?
        var rectangle: String?
    }

    private var depth = 0
    /// The scheme and depth of the region list being read (its element's depth).
    private var list: (scheme: Scheme, depth: Int)?
    /// The region being read, and the depth of its `rdf:li`.
    private var draft: Draft?
    private var draftDepth = 0
    /// The field element whose text is being read (`stArea:x`, `mwg-rs:Name`…).
    private var field: String?
    private var text = ""

    private(set) var mwg: [FaceRegion] = []
    private(set) var microsoft: [FaceRegion] = []
    /// Regions of another type (pets, focus areas): not people, not counted as dropped.
    private(set) var otherRegions = 0
    private(set) var dropped = DroppedRegions()
    /// Regions read at all: past `FaceRegion.maximumPerPhoto` the rest are counted, not read.
    private var seen = 0

    /// The regions to use: MWG's; Microsoft's where a file has no MWG faces.
    var faces: [FaceRegion] { mwg.isEmpty ? microsoft : mwg }

    func start(_ name: String, namespace: String, attributes: [String: String]) {
        depth += 1
        if list == nil {
            if namespace == Namespace.mwgRegions && name == "RegionList" { list = (.mwg, depth) }
            if namespace == Namespace.microsoftRegionInfo && name == "Regions" { list = (.microsoft, depth) }
            return
        }
        if draft == nil {
            // RegionList > rdf:Bag > rdf:li: the li two levels below the list is one region.
            if namespace == Namespace.rdf && name == "li" && depth == list!.depth + 2 {
                draft = Draft()
                draftDepth = depth
                take(attributes)
            }
            return
        }
        take(attributes)
        if namespace != Namespace.rdf {
            field = name
            text = ""
        }
    }

    func characters(_ string: String) {
        if field != nil, text.utf8.count < 1024 { text += string }
    }

    func end(_ name: String, namespace: String) {
        defer { depth -= 1 }
        guard let current = list else { return }
        if depth == current.depth {
            list = nil
            return
        }
        guard draft != nil else { return }
        if depth == draftDepth {
            finish()
            return
        }
        if let field, field == name, namespace != Namespace.rdf {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !value.isEmpty { set(field, value) }
            self.field = nil
            text = ""
        }
    }

    /// Attributes arrive qualified (`stArea:x`): inside a region, their local names decide.
    private func take(_ attributes: [String: String]) {
        for (key, value) in attributes {
            guard let colon = key.lastIndex(of: ":") else { continue }
            let prefix = key[..<colon]
            if prefix == "xmlns" || prefix == "rdf" || prefix == "xml" { continue }
            set(String(key[key.index(after: colon)...]), value)
        }
    }

    private func set(_ local: String, _ value: String) {
        guard draft != nil else { return }
        switch local {
        case "Name", "PersonDisplayName": draft!.name = value
        case "Type": draft!.type = value.trimmingCharacters(in: .whitespaces)
        case "x": draft!.x = Self.number(value)
        case "y": draft!.y = Self.number(value)
        case "w": draft!.w = Self.number(value)
        case "h": draft!.h = Self.number(value)
        case "unit": draft!.unit = value.trimmingCharacters(in: .whitespaces)
        case "Rectangle": draft!.rectangle = value
        default: break
        }
    }

    /// A number as XMP writes it; NaN for anything else (counted as "not a number").
    private static func number(_ text: String) -> Double {
        Double(text.trimmingCharacters(in: .whitespaces)) ?? .nan
    }

    private func finish() {
        defer { draft = nil }
        guard let region = draft, let scheme = list?.scheme else { return }
        if scheme == .mwg, let type = region.type, type.lowercased() != "face" {
            otherRegions += 1
            return
        }
        // A region with no name is nobody (a detector's box a tool kept).
        guard let raw = region.name else { return }
        seen += 1
        if seen > FaceRegion.maximumPerPhoto {
            dropped.add(.tooMany)
            return
        }
        let cleaned = FaceRegion.cleanName(raw)
        if let flaw = cleaned.flaw {
            dropped.add(flaw)
            return
        }
        guard let name = cleaned.name else { return }
        let area: NormalizedRect
        switch scheme {
        case .mwg:
            if region.x == nil && region.y == nil && region.w == nil && region.h == nil {
                // A name with no area: the person is in the photo, somewhere.
                namesOnly.append(name)
                return
            }
            if let unit = region.unit, unit.lowercased() != "normalized" {
                // Pixels of which frame, tools disagree (`AppliedToDimensions` is often the displayed size): not guessed.
                dropped.add(.outsideImage)
                return
            }
            area = NormalizedRect(centreX: region.x ?? .nan, centreY: region.y ?? .nan, width: region.w ?? .nan, height: region.h ?? .nan)
        case .microsoft:
            let parts = (region.rectangle ?? "").split(separator: ",").map { Self.number(String($0)) }
            guard parts.count == 4 else {
                // A name with no rectangle: Windows Photo Gallery tags people without marking a face.
                if region.rectangle == nil { namesOnly.append(name) } else { dropped.add(.notANumber) }
                return
            }
            area = NormalizedRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
        }
        // Checked once clipped: a box within the slack but past the edge
        // clips to nothing, and the state refuses an empty box when read back.
        let clipped = area.flaw == nil ? area.clipped : area
        if let flaw = area.flaw ?? clipped.flaw {
            dropped.add(flaw)
            return
        }
        let face = FaceRegion(name: name, area: clipped)
        if scheme == .mwg { mwg.append(face) } else { microsoft.append(face) }
    }

    /// Regions with a name and no box (Windows Photo Gallery tags people
    /// without marking a face): the person is in the photo, somewhere.
    private(set) var namesOnly: [String] = []
}
