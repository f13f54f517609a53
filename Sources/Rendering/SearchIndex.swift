import Foundation
import GalleryCore

/// The site's search index, made at build time and searched in the browser
/// with no server (`static/search.js`).
///
/// It is split so a query loads only what it needs, and every file is a
/// script that calls `gallerygenSearch.…(…)` with JSON, so it loads from
/// `file://` as well as over HTTP (browsers refuse `fetch` on `file://`):
///
/// - `search/index.js`: the manifest (item count, chunk size, which token shards exist);
/// - `search/t-<hex>.js`: the tokens that start with one two-character
///   prefix (hex of its UTF-8), each with its items' numbers, delta-encoded
///   in base 36 (`"a,1,1,3"`): a year token listing every photo of a large
///   library stays small;
/// - `search/d-<n>.js`: items `n × chunk ..< (n + 1) × chunk`: page,
///   thumbnail and preview `srcset`s, sizes, alt text, caption line, video.
///
/// Items are numbered in timeline order, so results come newest first.
/// Tokens are folded (case and accents ignored) the same way `search.js`
/// folds a query.
public struct SearchIndex: Sendable {
    /// Items per `d-<n>.js` file: the first screen of results of a common
    /// word (a tenth of the library) then needs about eight small files.
    public static let chunkSize = 50

    /// The files, path → contents.
    public let files: [(path: String, text: String)]

    /// Builds the index of `items` (timeline order) using `document` for what
    /// each result shows and `words` for what finds it.
    public init(items: [MediaItem], document: (MediaItem) -> [Any], words: (MediaItem) -> [String]) {
        var postings: [String: [Int]] = [:]
        for (number, item) in items.enumerated() {
            var seen: Set<String> = []
            for text in words(item) {
                for token in Self.tokens(text) where seen.insert(token).inserted { postings[token, default: []].append(number) }
            }
        }
        var shards: [String: [String: String]] = [:]
        for (token, numbers) in postings {
            shards[Self.shardKey(token), default: [:]][token] = Self.deltaEncoded(numbers)
        }
        var files: [(String, String)] = []
        let shardNames = shards.keys.sorted()
        files.append(("search/index.js", "gallerygenSearch.manifest(" + Self.json(["count": items.count, "chunk": Self.chunkSize,
                                                                                   "shards": shardNames.map(Self.hex)]) + ");\n"))
        for key in shardNames {
            files.append(("search/t-\(Self.hex(key)).js", "gallerygenSearch.tokens(" + Self.json(Self.hex(key)) + ","
                          + Self.json(shards[key]!) + ");\n"))
        }
        for start in stride(from: 0, to: items.count, by: Self.chunkSize) {
            let chunk = items[start..<min(items.count, start + Self.chunkSize)].map(document)
            files.append(("search/d-\(start / Self.chunkSize).js", "gallerygenSearch.docs(\(start / Self.chunkSize),"
                          + Self.json(chunk) + ");\n"))
        }
        self.files = files
    }

    /// Case- and accent-folded words of `text`: letters and digits, split at
    /// everything else ("Crème-brûlée, 2019" → crème→creme, brulee, 2019).
    public static func tokens(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var tokens: [String] = []
        var current = ""
        for character in folded {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// The shard a token lives in: its first two characters.
    static func shardKey(_ token: String) -> String { String(token.prefix(2)) }

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }

    /// Ascending numbers as base-36 gaps: 3, 4, 9 → "3,1,5".
    static func deltaEncoded(_ numbers: [Int]) -> String {
        var previous = 0
        return numbers.map { number in
            defer { previous = number }
            return String(number - previous, radix: 36)
        }.joined(separator: ",")
    }

    /// Compact JSON, keys sorted (a rebuild writes identical bytes), of what
    /// the index holds: strings, integers, arrays and string-keyed
    /// dictionaries (anything else is null, and an assertion in debug
    /// builds). Written here: JSONSerialization made a Foundation object of
    /// every value first, a tenth of rendering 3,000 item pages' worth of index.
    static func json(_ value: Any) -> String {
        var out = ""
        appendJSON(value, to: &out)
        return out
    }

    private static func appendJSON(_ value: Any, to out: inout String) {
        switch value {
        case let text as String:
            PhotoFacts.appendJSONString(text, to: &out)
        case let flag as Bool:
            out += flag ? "true" : "false"
        case let number as Int:
            out += String(number)
        case let list as [Any]:
            out += "["
            for (index, element) in list.enumerated() {
                if index > 0 { out += "," }
                appendJSON(element, to: &out)
            }
            out += "]"
        case let object as [String: Any]:
            out += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                PhotoFacts.appendJSONString(key, to: &out)
                out += ":"
                appendJSON(object[key]!, to: &out)
            }
            out += "}"
        default:
            // Only a new kind of value in `init`'s documents gets here: the
            // tests' debug builds stop on it rather than publish null.
            assertionFailure("SearchIndex.json writes no \(type(of: value))")
            out += "null"
        }
    }
}
