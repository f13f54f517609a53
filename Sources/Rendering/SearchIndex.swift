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
    /// `places` are the place pages a query can also find: name and page.
    public init(items: [MediaItem], places: [(name: String, page: String)] = [], document: @escaping @Sendable (MediaItem) -> SearchDocument,
                words: @escaping @Sendable (MediaItem) -> [String]) {
        // Each item's tokens, then its documents' files, on every core: one
        // job for 100,000 items was a second on one core while the others
        // waited. The tokens in runs of items, each run's lists let go once
        // posted: 100,000 items' lists at once were 27 MB of an add's peak.
        var postings: [String: [Int]] = [:]
        let run = 8192
        for start in stride(from: 0, to: items.count, by: run) {
            let tokenLists = parallelMap(Array(items[start..<min(items.count, start + run)])) { item -> [String] in
                var seen: Set<String> = []
                var list: [String] = []
                for text in words(item) {
                    for token in Self.tokens(text) where seen.insert(token).inserted { list.append(token) }
                }
                return list
            }
            for (offset, list) in tokenLists.enumerated() {
                for token in list { postings[token, default: []].append(start + offset) }
            }
        }
        var shards: [String: [String: String]] = [:]
        for (token, numbers) in postings {
            shards[Self.shardKey(token), default: [:]][token] = Self.deltaEncoded(numbers)
        }
        postings = [:]
        var files: [(path: String, text: String)] = []
        let shardNames = shards.keys.sorted()
        var manifest = SearchManifest(count: items.count, chunk: Self.chunkSize, shards: shardNames.map(Self.hex))
        if !places.isEmpty { manifest.places = places.map { [Self.tokens($0.name).joined(separator: " "), $0.name, $0.page] } }
        files.append(("search/index.js", "gallerygenSearch.manifest(" + CompactJSON.string(manifest) + ");\n"))
        let tokenShards = shardNames.map { ($0, shards[$0]!) }
        shards = [:]
        files += parallelMap(tokenShards) { key, tokens in
            (path: "search/t-\(Self.hex(key)).js",
             text: "gallerygenSearch.tokens(" + CompactJSON.string(Self.hex(key)) + "," + CompactJSON.object(tokens) + ");\n")
        }
        files += parallelMap(Array(stride(from: 0, to: items.count, by: Self.chunkSize))) { start in
            var text = "gallerygenSearch.docs(\(start / Self.chunkSize),["
            for (index, item) in items[start..<min(items.count, start + Self.chunkSize)].enumerated() {
                if index > 0 { text += "," }
                document(item).appendJSON(to: &text)
            }
            text += "]);\n"
            return (path: "search/d-\(start / Self.chunkSize).js", text: text)
        }
        self.files = files
    }

    /// Case- and accent-folded words of `text`: letters and digits, split at
    /// everything else ("Crème-brûlée, 2019" → crème→creme, brulee, 2019).
    public static func tokens(_ text: String) -> [String] {
        // ASCII (most words: file names, dates, English): folding is
        // lowercasing, done byte by byte; Foundation's folding is the slow part.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(text.utf8) }
        return unicodeTokens(text)
    }

    /// `tokens` for any text, through Foundation's folding.
    static func unicodeTokens(_ text: String) -> [String] {
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

    /// `tokens` for ASCII text: the same tokens.
    private static func asciiTokens(_ bytes: String.UTF8View) -> [String] {
        var tokens: [String] = []
        var current: [UInt8] = []
        for byte in bytes {
            if let lower = ASCIIFolding.letterOrDigit(byte) {
                current.append(lower)
            } else if !current.isEmpty {
                tokens.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
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
}

/// The manifest `search.js` loads first: how many items, how many to a
/// `d-<n>.js` file, and which token files exist.
struct SearchManifest: Encodable {
    let count: Int
    let chunk: Int
    let shards: [String]
    /// The place pages (`moment_places`): each its folded words, its name
    /// and its page; absent without places.
    var places: [[String]]?
}

/// What a search result shows of one item: written as a JSON array in the
/// order `search.js` reads it (`d[0]` the page … `d[10]` a Live Photo).
public struct SearchDocument: Sendable {
    public var page: String
    public var thumbnailSrcset: String
    public var thumbnailWidth: Int
    public var thumbnailHeight: Int
    public var previewSrcset: String
    public var previewWidth: Int
    public var previewHeight: Int
    public var alt: String
    public var caption: String
    /// The playback file ("" for a still).
    public var video: String
    public var live: Bool

    /// The document as JSON, written straight into `out` (escaped as
    /// `CompactJSON` escapes): 100,000 documents through `Encoder`
    /// containers were a sixth of the search index's time.
    func appendJSON(to out: inout String) {
        out += "["
        PhotoFacts.appendJSONString(page, to: &out)
        out += ","
        PhotoFacts.appendJSONString(thumbnailSrcset, to: &out)
        out += ",\(thumbnailWidth),\(thumbnailHeight),"
        PhotoFacts.appendJSONString(previewSrcset, to: &out)
        out += ",\(previewWidth),\(previewHeight),"
        PhotoFacts.appendJSONString(alt, to: &out)
        out += ","
        PhotoFacts.appendJSONString(caption, to: &out)
        out += ","
        PhotoFacts.appendJSONString(video, to: &out)
        out += live ? ",1]" : ",0]"
    }
}
