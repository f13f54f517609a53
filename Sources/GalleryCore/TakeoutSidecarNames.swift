/// Which JSON file of a Google Takeout folder describes which photo or video
/// in it. Takeout names a media file's JSON after it, then cuts the name:
///
/// - `IMG_1.jpg` → `IMG_1.jpg.json`, or in newer exports
///   `IMG_1.jpg.supplemental-metadata.json`;
/// - the name before `(n)` and `.json` is cut to 46 UTF-16 code units,
///   the newer infix cut anywhere
///   (`…_27214_n.j(1).json`, `….supplemental-metad.json`, `…_.json` for
///   `…_P.jpg`): an emoji counts two;
/// - a second file of the same name is `IMG_1(1).jpg`, its JSON
///   `IMG_1.jpg(1).json`: the index moves past the extension, and never
///   matches another index or none;
/// - an edit (`IMG_1-edited.jpg`, `-modifié`, `-bearbeitet`…) has no JSON
///   of its own: it shares its original's.
///
/// (The cases are those immich-go's tests collect from real exports.)
public enum TakeoutSidecarNames {
    /// Where Takeout cuts a JSON's name, before its duplicate index and `.json`.
    static let cutLength = 46

    /// The newer exports' infix, which the cut may shorten to any prefix.
    static let supplementalInfix = ".supplemental-metadata"

    /// The suffix Google Photos gives an edited copy, in the languages it
    /// exports in (lower case, without the leading dash).
    static let editSuffixes: Set<String> = [
        "edited", "modifié", "bearbeitet", "modificato", "editado", "bewerkt", "redigerad", "redigert", "redigeret",
        "muokattu", "edytowane", "upraveno", "szerkesztett", "editat", "düzenlendi", "изменено", "編集済み", "已修改", "편집됨",
    ]

    /// What a JSON name says of the file it describes: the name cut, and
    /// the duplicate index (nil: none).
    public struct Key: Hashable, Sendable {
        public var cutName: String
        public var index: Int?
    }

    /// The keys of a JSON file's name (none when it does not end in
    /// `.json`): its name cut, and without the newer infix, whole or cut.
    public static func keys(ofJSON name: String) -> [Key] {
        guard name.count > 5, name.lowercased().hasSuffix(".json") else { return [] }
        var stem = String(name.dropLast(5))
        let index = takeIndex(&stem)
        var keys = [Key(cutName: stem, index: index)]
        // The cut falls anywhere in the infix (`.supplemental-metad`, `.suppl`…); before it, the name is whole.
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
            let tail = stem[dot...]
            if tail.count >= 2, supplementalInfix.hasPrefix(tail) { keys.append(Key(cutName: cut(String(stem[..<dot])), index: index)) }
        }
        return keys
    }

    /// The key a JSON describing `mediaName` has (its original's, for an
    /// edit), and whether it is an edit.
    static func key(ofMedia mediaName: String) -> (key: Key, isEdit: Bool) {
        let (stem, ext) = split(mediaName)
        var base = stem
        let index = takeIndex(&base)
        var isEdit = false
        if let dash = base.lastIndex(of: "-"), editSuffixes.contains(base[base.index(after: dash)...].lowercased()) {
            base = String(base[..<dash])
            isEdit = true
        }
        return (Key(cutName: cut(base + ext), index: index), isEdit)
    }

    /// What was matched in one folder.
    public struct Matching: Equatable, Sendable {
        /// Each media file's JSON, by the media file's name.
        public var jsonByMedia: [String: String] = [:]
        /// JSON files no media file takes.
        public var unmatchedJSON: [String] = []
        /// JSON files two different photos (not an edit and its original) would take: used by neither.
        public var ambiguousJSON: [String] = []
    }

    /// Matches the media files of one folder to its JSON files.
    public static func match(media: [String], json: [String]) -> Matching {
        var jsonByKey: [Key: String] = [:]
        for name in json.sorted() {
            // Of two JSON with one key (`X.jpg.json` and `X.jpg.supplemental-metadata.json`), the first in name order.
            for key in keys(ofJSON: name) where jsonByKey[key] == nil { jsonByKey[key] = name }
        }
        var takers: [String: (originals: [String], edits: [String])] = [:]
        for name in media.sorted() {
            let (key, isEdit) = key(ofMedia: name)
            var found = jsonByKey[key]
            // A copy whose own JSON Takeout left out, under a cut name: the un-numbered one.
            if found == nil, key.index != nil, key.cutName.utf16.count == cutLength {
                found = jsonByKey[Key(cutName: key.cutName, index: nil)]
            }
            guard let json = found else { continue }
            if isEdit { takers[json, default: ([], [])].edits.append(name) } else { takers[json, default: ([], [])].originals.append(name) }
        }
        var matching = Matching()
        for (json, taken) in takers {
            if taken.originals.count > 1 {
                matching.ambiguousJSON.append(json)
                continue
            }
            for name in taken.originals + taken.edits { matching.jsonByMedia[name] = json }
        }
        let used = Set(takers.keys)
        matching.unmatchedJSON = json.filter { !keys(ofJSON: $0).isEmpty && !used.contains($0) }.sorted()
        matching.ambiguousJSON.sort()
        return matching
    }

    /// `name` cut to `cutLength` UTF-16 code units, never inside a character.
    static func cut(_ name: String) -> String {
        guard name.utf16.count > cutLength else { return name }
        var result = ""
        var units = 0
        for scalar in name.unicodeScalars {
            let width = scalar.utf16.count
            if units + width > cutLength { break }
            result.unicodeScalars.append(scalar)
            units += width
        }
        return result
    }

    /// Removes a trailing `(n)` (n: digits) from `name` and returns n.
    static func takeIndex(_ name: inout String) -> Int? {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return nil }
        let digits = name[name.index(after: open)..<name.index(before: name.endIndex)]
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCII), let index = Int(digits) else { return nil }
        name = String(name[..<open])
        return index
    }

    /// The name before its last dot, and the dot and extension (empty when none).
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
