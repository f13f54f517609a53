/// An item's part in a stack (a burst, or an edit and its original): a
/// stack is listed as one tile, its cover, wherever items are listed; every
/// item keeps its own page. Worked out at each build from the album's items
/// (`Stacks` in Planning), never kept in the state.
public enum StackRole: Hashable, Sendable {
    /// Not in a stack.
    case single
    /// The stack's cover: listed for the whole stack, first of its `count`
    /// items (itself included), which follow it in its album's order.
    case cover(count: Int)
    /// Another item of a stack, `offset` places after its cover in its album.
    case member(offset: Int)

    /// Listed in its own right (a single or a cover); a member is listed through its cover.
    @inline(__always)
    public var isListed: Bool {
        if case .member = self { return false }
        return true
    }

    /// How many items its tile stands for: a cover's count, else 1.
    public var tileCount: Int {
        if case .cover(let count) = self { return count }
        return 1
    }

    /// The role in four bytes, as an item's object holds it: the case in the
    /// low two bits, the count or offset above them (at most 2^29 − 1, far
    /// more items than a stack of one album has).
    var code: Int32 {
        switch self {
        case .single: return 0
        case .cover(let count): return Int32(clamping: min(max(count, 0), Self.largest)) << 2 | 1
        case .member(let offset): return Int32(clamping: min(max(offset, 0), Self.largest)) << 2 | 2
        }
    }

    /// The role `code` holds.
    init(code: Int32) {
        switch code & 3 {
        case 1: self = .cover(count: Int(code >> 2))
        case 2: self = .member(offset: Int(code >> 2))
        default: self = .single
        }
    }

    private static let largest = (1 << 29) - 1
}

/// What a file name says of an edited copy: the original it was made from,
/// named the ways phones, Google Takeout and editors name edits:
///
/// - Apple Photos' export of an edited photo, `IMG_E1234.JPG` beside
///   `IMG_1234.HEIC` (and `IMG_E1234 (1).JPG`'s kind of copy, no);
/// - Google Takeout's `IMG_1234-edited.jpg`, in the languages it exports in
///   (`-modifié`, `-bearbeitet`…: `TakeoutSidecarNames.editSuffixes`);
/// - `IMG_1234 (edited).jpg` (Google Photos downloads, some phones), and
///   Lightroom's and Photoshop's `IMG_1234-Edit.tif` (`-Edit-2`…).
///
/// An edit made under another name (a darktable export of `IMG_1234.CR2`
/// as `IMG_1234.jpg` beside it) is a RAW+JPEG pair: one item already.
public enum EditName {
    /// The original's stem (letter case folded) when `fileName` names an
    /// edit, else nil. An edit and its original share a folder.
    public static func originalStem(of fileName: String) -> String? {
        var stem = Substring(fileName.lowercased())
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        // Apple: IMG_E followed by the original's four (or more) digits.
        if stem.hasPrefix("img_e") {
            let digits = stem.dropFirst(5)
            if digits.count >= 4, digits.allSatisfy(\.isASCIINumber) { return "img_" + digits }
        }
        if stem.hasSuffix(" (edited)") { return nonEmpty(stem.dropLast(9)) }
        // Lightroom numbers further edits: -Edit, -Edit-2, -Edit-3.
        var base = stem
        if let dash = base.lastIndex(of: "-"), base[base.index(after: dash)...].allSatisfy(\.isASCIINumber),
           base.index(after: dash) != base.endIndex, base[..<dash].hasSuffix("-edit") {
            base = base[..<dash]
        }
        if let dash = base.lastIndex(of: "-") {
            let suffix = base[base.index(after: dash)...]
            if suffix == "edit" || TakeoutSidecarNames.editSuffixes.contains(String(suffix)) { return nonEmpty(base[..<dash]) }
        }
        return nil
    }

    private static func nonEmpty(_ stem: Substring) -> String? { stem.isEmpty ? nil : String(stem) }
}
