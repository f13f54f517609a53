import Foundation
import GalleryCore
import Planning

/// The site's search index, made at build time and searched in the browser
/// with no server (`static/search.js`).
///
/// It is split so a query loads only what it needs, and every file is a
/// script that calls `gallerygenSearch.…(…)` with JSON, so it loads from
/// `file://` as well as over HTTP (browsers refuse `fetch` on `file://`):
///
/// - `search/index.js`: the manifest (item count, how items are numbered and
///   filed, which token files exist, the place pages);
/// - `search/t-<hex>.js`: the tokens that start with one two-character
///   prefix (hex of its UTF-8), each with its items' numbers, delta-encoded
///   in base 36 (`"a,1,1,3"`): a year token listing every photo of a large
///   library stays small;
/// - `search/d-<slot>-<n>.js`: what a result shows of items
///   `n × 50 ..< (n + 1) × 50` of one month (`SearchMonth`): page,
///   thumbnail and preview `srcset`s, sizes, alt text, caption line, video.
///
/// An item's number is its month's slot × `SearchMonth.capacity` + its place
/// in the month, so numbers follow the timeline (results come in its order)
/// and a photo added to one month renumbers that month alone: a rebuild
/// rewrites that month's item files, the token files and the manifest, not
/// every item file after it. Tokens are folded (case and accents ignored)
/// the same way `search.js` folds a query.
public enum SearchIndex {
    /// What finds one item: its own words (title, caption, keywords, file
    /// name…: folded here, item by item) and its group, the items that share
    /// the rest of what finds them (album, month, camera, kind). A group's
    /// words are folded and posted once for all its items: most of an item's
    /// dozen tokens are its group's, and hashing each into the postings item
    /// by item was most of the index.
    public struct ItemWords<Group: Hashable & Sendable>: Sendable {
        public var texts: [String]
        public var group: Group
        public init(texts: [String], group: Group) {
            self.texts = texts
            self.group = group
        }
    }

    /// The manifest and the token files for `months`' items, `words` giving
    /// what finds each and `groupWords` the folded tokens of an item's group
    /// (asked once per group, of its first item). `places` are the place
    /// pages a query can also find: name and page.
    public static func manifestAndTokens<Group: Hashable & Sendable>(
        months: [SearchMonth], places: [(name: String, page: String)] = [],
        words: @escaping @Sendable (MediaItem) -> ItemWords<Group>,
        groupWords: @escaping @Sendable (MediaItem) -> [[String]]) -> [(path: String, text: String)] {
        // The items in number order, each month's numbered from its slot.
        var items: [MediaItem] = [], numbers: [Int] = []
        items.reserveCapacity(months.reduce(0) { $0 + $1.items.count })
        numbers.reserveCapacity(items.capacity)
        for month in months {
            items += month.items
            numbers += (0..<month.items.count).lazy.map { month.slot * SearchMonth.capacity + $0 }
        }
        // Each part of a run of items posted on every core: its items' own
        // tokens, and its groups (their words folded from the part's first
        // item of each). Each run's parts are then joined in order, a
        // part's groups and tokens once each, not each item's: looked up
        // item by item, one core's hashing was two fifths of the index. The
        // lists hold items' places in `items` (four bytes, not the eight of
        // a number: a million items' lists under the words every file name
        // has were most of the index's peak); places ascend as numbers do
        // and parts are joined in order, so each list is in order.
        var postings: [String: [UInt32]] = [:]
        var groupNumbers: [Group: Int] = [:]
        var groups: [(tokens: [String], places: [UInt32])] = []
        let run = 8192, parts = 32
        for start in stride(from: 0, to: items.count, by: run) {
            let end = min(items.count, start + run)
            let ranges = (0..<parts).map { start + (end - start) * $0 / parts ..< start + (end - start) * ($0 + 1) / parts }
            let posted = parallelMap(ranges, minimumCount: 2) { [items] range in
                Self.post(items, range, words: words, groupWords: groupWords)
            }
            for part in posted {
                for group in part.groups {
                    let number: Int
                    if let known = groupNumbers[group.group] {
                        number = known
                    } else {
                        number = groups.count
                        groupNumbers[group.group] = number
                        groups.append((group.tokens, []))
                    }
                    groups[number].places += group.places
                }
                for (token, places) in zip(part.tokens, part.places) { postings[token, default: []] += places }
            }
        }
        groupNumbers = [:]
        // Each word's groups: their numbers join its own postings only when
        // its token file is written (a million items' numbers under each of
        // a dozen words were not all held at once).
        var wordGroups: [String: [Int]] = [:]
        for (index, group) in groups.enumerated() {
            for token in group.tokens { wordGroups[token, default: []].append(index) }
        }
        var shards: [String: [(token: String, own: [UInt32], groups: [Int])]] = [:]
        for (token, places) in postings {
            shards[Self.shardKey(token), default: []].append((token, places, wordGroups.removeValue(forKey: token) ?? []))
        }
        for (token, indices) in wordGroups { shards[Self.shardKey(token), default: []].append((token, [], indices)) }
        postings = [:]
        wordGroups = [:]
        let placesOfGroup = groups.map(\.places)
        groups = []
        var files: [(path: String, text: String)] = []
        let shardNames = shards.keys.sorted()
        var manifest = SearchManifest(count: items.count, month: SearchMonth.capacity, chunk: SearchMonth.itemsPerFile,
                                      shards: shardNames.map(Self.hex))
        if !places.isEmpty { manifest.places = places.map { [Self.tokens($0.name).joined(separator: " "), $0.name, $0.page] } }
        files.append(("search/index.js", "gallerygenSearch.manifest(" + CompactJSON.string(manifest) + ");\n"))
        let tokenShards = shardNames.map { ($0, shards[$0]!) }
        shards = [:]
        files += parallelMap(tokenShards) { [numbers] key, tokens in
            var encoded: [String: String] = [:]
            encoded.reserveCapacity(tokens.count)
            for (token, own, groups) in tokens {
                var places = own
                for group in groups { places += placesOfGroup[group] }
                // No item twice (an item is in one group, its own words not its group's): in order, each list is exact.
                let ordered = zip(places, places.dropFirst()).allSatisfy { $0 < $1 } ? places : places.sorted()
                encoded[token] = Self.deltaEncoded(ordered.map { numbers[Int($0)] })
            }
            return (path: "search/t-\(Self.hex(key)).js",
                    text: "gallerygenSearch.tokens(" + CompactJSON.string(Self.hex(key)) + "," + CompactJSON.object(encoded) + ");\n")
        }
        return files
    }

    /// What one part of the items posts: its groups in the order first met
    /// (each with its words and its items' places), and the items' own
    /// tokens in the order first met, each with its places. An own word its
    /// group has too ("2019" in a caption and the month) is the group's.
    struct PartPostings<Group: Hashable & Sendable>: Sendable {
        var groups: [(group: Group, tokens: [String], places: [UInt32])] = []
        var tokens: [String] = []
        var places: [[UInt32]] = []
    }

    static func post<Group: Hashable & Sendable>(_ items: [MediaItem], _ range: Range<Int>, words: (MediaItem) -> ItemWords<Group>,
                                                 groupWords: (MediaItem) -> [[String]]) -> PartPostings<Group> {
        var part = PartPostings<Group>()
        var groupIndex: [Group: Int] = [:], tokenIndex: [String: Int] = [:]
        var previous = -1
        for index in range {
            let place = UInt32(index)
            let found = words(items[index])
            // Neighbours in the timeline mostly share a group: the previous item's is compared before any is hashed.
            let group: Int
            if previous >= 0, part.groups[previous].group == found.group {
                group = previous
            } else if let known = groupIndex[found.group] {
                group = known
            } else {
                var tokens: [String] = []
                for list in groupWords(items[index]) {
                    for token in list where !tokens.contains(token) { tokens.append(token) }
                }
                group = part.groups.count
                groupIndex[found.group] = group
                part.groups.append((found.group, tokens, []))
            }
            previous = group
            part.groups[group].places.append(place)
            // A few tokens an item: looked for in the list, not hashed into a set.
            var own: [String] = []
            for text in found.texts {
                for token in Self.tokens(text) where !own.contains(token) { own.append(token) }
            }
            for token in own where !part.groups[group].tokens.contains(token) {
                if let known = tokenIndex[token] {
                    part.places[known].append(place)
                } else {
                    tokenIndex[token] = part.tokens.count
                    part.tokens.append(token)
                    part.places.append([place])
                }
            }
        }
        return part
    }

    /// The item files of one month: what `document` says a result shows of each item.
    public static func documents(of month: SearchMonth, document: (MediaItem) -> SearchDocument) -> [(path: String, text: String)] {
        stride(from: 0, to: month.items.count, by: SearchMonth.itemsPerFile).map { start in
            let part = start / SearchMonth.itemsPerFile
            var text = "gallerygenSearch.docs(\"\(month.slot)-\(part)\",["
            for (index, item) in month.items[start..<min(month.items.count, start + SearchMonth.itemsPerFile)].enumerated() {
                if index > 0 { text += "," }
                document(item).appendJSON(to: &text)
            }
            text += "]);\n"
            return (path: SearchMonth.file(slot: month.slot, part: part), text: text)
        }
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

    /// Ascending numbers as base-36 gaps: 3, 4, 9 → "3,1,5". Written digit
    /// by digit into one buffer: a string per gap was a tenth of the index.
    /// A list as long as a word every file name has (a million items'
    /// "img") is cut into parts written on every core and joined: one core
    /// writing it alone was the end of the index, the planning waiting.
    static func deltaEncoded(_ numbers: [Int]) -> String {
        let part = 1 << 16
        guard numbers.count > 2 * part else { return String(decoding: deltaEncoded(numbers[...], after: 0), as: UTF8.self) }
        let starts = Array(stride(from: 0, to: numbers.count, by: part))
        let parts = parallelMap(starts, minimumCount: 2) { start in
            deltaEncoded(numbers[start..<min(numbers.count, start + part)], after: start == 0 ? 0 : numbers[start - 1])
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(parts.count) { $0 + $1.count })
        for (index, written) in parts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += written
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `numbers`' gaps, the first from `previous`.
    private static func deltaEncoded(_ numbers: ArraySlice<Int>, after previous: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(numbers.count * 2)
        var digits: [UInt8] = []
        var previous = previous
        for (index, number) in numbers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var gap = number - previous
            previous = number
            if gap < 0 { bytes.append(UInt8(ascii: "-")); gap = -gap }
            digits.removeAll(keepingCapacity: true)
            repeat {
                let digit = UInt8(gap % 36)
                digits.append(digit < 10 ? 48 + digit : 87 + digit)
                gap /= 36
            } while gap > 0
            bytes += digits.reversed()
        }
        return bytes
    }
}

/// The manifest `search.js` loads first: how many items, how items are
/// numbered and filed (`month`: numbers to a month; `chunk`: items to an item
/// file), and which token files exist.
struct SearchManifest: Encodable {
    let count: Int
    let month: Int
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
