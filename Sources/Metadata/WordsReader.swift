import Foundation
import GalleryCore
import Containers

/// Reads the photographer's words from XMP packets and IPTC-IIM blocks.
/// Both are untrusted: every string is cleaned and bounded, an XMP packet
/// larger than `maximumXMPBytes` is not parsed, and the XML parser never
/// resolves external entities.
public enum WordsReader {
    /// XMP packets larger than this are passed over (a real one is a few KiB).
    public static let maximumXMPBytes = 4 << 20

    // MARK: XMP

    /// The words of an XMP packet (embedded, or a `.xmp` sidecar's contents).
    public static func xmp(_ bytes: some Collection<UInt8>) -> PhotoWords {
        guard bytes.count <= maximumXMPBytes else { return PhotoWords() }
        var data = Array(bytes)
        // A packet may carry padding and the xpacket processing instructions around the RDF.
        if let start = Self.firstIndex(of: Array("<x:xmpmeta".utf8), in: data) ?? Self.firstIndex(of: Array("<rdf:RDF".utf8), in: data) {
            data.removeFirst(start)
        }
        let collector = XMPCollector()
        XMLScanner.scan(data) { event in
            switch event {
            case .start(let namespace, let name, let attributes): collector.start(name, namespace: namespace, attributes: attributes)
            case .text(let text): collector.characters(text)
            case .end(let namespace, let name): collector.end(name, namespace: namespace)
            }
        }
        return collector.words
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    /// Namespaces of the properties read.
    enum Namespace {
        static let dc = "http://purl.org/dc/elements/1.1/"
        static let xmp = "http://ns.adobe.com/xap/1.0/"
        static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
        static let dynamicMedia = "http://ns.adobe.com/xmp/1.0/DynamicMedia/"
        static let microsoftPhoto = "http://ns.microsoft.com/photo/1.0/"
        static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
        static let digiKam = "http://www.digikam.org/ns/1.0/"
        static let microsoftRegionInfo = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    }

    /// Walks the RDF: properties written as attributes or as elements, values
    /// as text or in `rdf:Alt`/`rdf:Bag`/`rdf:Seq` lists.
    final class XMPCollector {
        var title: [(language: String?, text: String)] = []
        var descriptions: [(language: String?, text: String)] = []
        var subjects: [String] = []
        var hierarchical: [String] = []
        var rating: Int?
        var pick: Int?
        /// digiKam's tag paths (`People/Marie Curie`): `/` between levels.
        var digiKamTags: [String] = []
        var headline: String?
        let regions = FaceRegionCollector()
        /// The property element being read (namespace, name), and the text inside it.
        private var property: (namespace: String, name: String)?
        private var language: String?
        private var text = ""

        var words: PhotoWords {
            func pick(_ values: [(language: String?, text: String)]) -> String? {
                let best = values.first { $0.language == "x-default" } ?? values.first
                return best.flatMap { PhotoWords.cleanText($0.text) }
            }
            var words = PhotoWords(title: pick(title) ?? headline.flatMap { PhotoWords.cleanText($0, maximumLength: 300) },
                                   caption: pick(descriptions))
            // Hierarchical keywords under a `People` branch name people, not subjects.
            let paths = hierarchical.map { $0.split(separator: "|").map(String.init) } + digiKamTags.map { $0.split(separator: "/").map(String.init) }
            let isPerson = { (path: [String]) in path.count > 1 && path[0].trimmingCharacters(in: .whitespaces).lowercased() == "people" }
            let leaves = paths.filter { !isPerson($0) }.compactMap(\.last)
            let taggedPeople = paths.filter(isPerson).compactMap(\.last)
            words.keywords = PhotoWords.merged(Self.cleanWords(subjects), Self.cleanWords(leaves))
            words.faces = regions.faces
            words.droppedRegions = regions.dropped
            let named = regions.faces.map(\.name) + regions.namesOnly + taggedPeople
            words.people = PhotoWords.personNames(named)
            words = words.separatingPeople()
            if self.pick == -1 { words.rating = -1 } else { words.rating = rating }
            return words
        }

        static func cleanWords(_ list: [String]) -> [String] {
            PhotoWords.merged([], list.compactMap { PhotoWords.cleanKeyword($0) })
        }

        func start(_ name: String, namespace: String, attributes: [String: String]) {
            regions.start(name, namespace: namespace, attributes: attributes)
            // Properties written as attributes of rdf:Description.
            for (key, value) in attributes { attribute(key, value) }
            if namespace == Namespace.rdf && name == "li" {
                language = attributes["xml:lang"] ?? attributes["lang"]
                text = ""
            } else if namespace != Namespace.rdf {
                property = (namespace, name)
                language = attributes["xml:lang"]
                text = ""
                if let resource = attributes["rdf:resource"] ?? attributes["resource"] { text = resource }
            }
        }

        /// Attributes arrive with their prefixes (`xmp:Rating`); the usual
        /// prefixes are the ones every tool writes.
        private func attribute(_ key: String, _ value: String) {
            switch key {
            case "xmp:Rating": rating = Self.rating(value)
            case "xmpDM:pick": pick = Int(value.trimmingCharacters(in: .whitespaces))
            case "MicrosoftPhoto:Rating" where rating == nil:
                // 1–99 percent: 1, 25, 50, 75, 99 for one to five stars.
                if let percent = Int(value) { rating = percent <= 0 ? 0 : min(5, 1 + percent / 25) }
            case "photoshop:Headline": headline = value
            default: break
            }
        }

        static func rating(_ text: String) -> Int? {
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else { return nil }
            // Clamped before it becomes an Int: Int(1e300) would stop the build.
            return Int(max(-1, min(5, value)).rounded())
        }

        func characters(_ string: String) {
            regions.characters(string)
            if text.count < PhotoWords.maximumLength * 2 { text += string }
        }

        func end(_ name: String, namespace: String) {
            regions.end(name, namespace: namespace)
            let value = text
            if namespace == Namespace.rdf && name == "li" {
                record(value)
                text = ""
            } else if let current = property, current.namespace == namespace, current.name == name {
                // A simple property written as an element: <xmp:Rating>5</xmp:Rating>.
                if !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { record(value) }
                property = nil
                text = ""
            }
        }

        private func record(_ value: String) {
            guard let current = property else { return }
            switch (current.namespace, current.name) {
            case (Namespace.dc, "title"): title.append((language, value))
            case (Namespace.dc, "description"): descriptions.append((language, value))
            case (Namespace.dc, "subject"): subjects.append(value)
            case (Namespace.lightroom, "hierarchicalSubject"): hierarchical.append(value)
            case (Namespace.xmp, "Rating"): rating = Self.rating(value)
            case (Namespace.dynamicMedia, "pick"): pick = Int(value.trimmingCharacters(in: .whitespaces))
            case (Namespace.photoshop, "Headline"): headline = value
            case (Namespace.digiKam, "TagsList"): digiKamTags.append(value)
            default: break
            }
        }
    }

    // MARK: IPTC-IIM

    /// The words of an IPTC-IIM block (records of `1C rr dd len data`):
    /// 2:05 ObjectName, 2:120 Caption-Abstract, 2:25 Keywords; text is UTF-8
    /// when 1:90 says so (ESC % G), else Latin-1, as IPTC's default is.
    public static func iptc(_ bytes: UnsafeRawBufferPointer) -> PhotoWords {
        let r = ByteReader(bytes: bytes)
        var offset = 0
        var utf8 = false
        var name: [UInt8]?, caption: [UInt8]?, keywords: [[UInt8]] = []
        while offset + 5 <= r.count, r.u8(offset) == 0x1C, let record = r.u8(offset + 1), let dataset = r.u8(offset + 2),
              var length = r.u16be(offset + 3) {
            var start = offset + 5
            if length & 0x8000 != 0 {
                // Extended length: the next (length & 0x7FFF) bytes hold it.
                let size = length & 0x7FFF
                guard size <= 4, let field = r.slice(start, size) else { break }
                length = field.reduce(0) { $0 << 8 | Int($1) }
                start += size
            }
            guard let data = r.slice(start, length) else { break }
            switch (record, dataset) {
            case (1, 90): utf8 = Array(data) == [0x1B, 0x25, 0x47]
            case (2, 5): name = Array(data)
            case (2, 120): caption = Array(data)
            case (2, 25): if keywords.count < 500 { keywords.append(Array(data)) }
            default: break
            }
            offset = start + length
        }
        func text(_ bytes: [UInt8], _ maximum: Int = PhotoWords.maximumLength, keyword: Bool = false) -> String? {
            let decoded = utf8 || String(validating: bytes, as: UTF8.self) != nil
                ? String(decoding: bytes, as: UTF8.self)
                : String(bytes.map { Character(Unicode.Scalar($0)) })
            return keyword ? PhotoWords.cleanKeyword(decoded) : PhotoWords.cleanText(decoded, maximumLength: maximum)
        }
        return PhotoWords(title: name.flatMap { text($0, 300) }, caption: caption.flatMap { text($0) },
                          keywords: PhotoWords.merged([], keywords.compactMap { text($0, 100, keyword: true) }))
    }

    /// The IPTC block inside a Photoshop image-resource block (JPEG APP13
    /// `Photoshop 3.0`): resource 0x0404 of the `8BIM` list.
    public static func iptcResource(inPhotoshop bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let r = ByteReader(bytes: bytes)
        var offset = 0
        while offset + 12 <= r.count, r.matches(offset, "8BIM"), let id = r.u16be(offset + 4), let nameLength = r.u8(offset + 6) {
            // Pascal name padded to an even size (length byte included).
            var cursor = offset + 6 + (nameLength + 2) / 2 * 2
            guard let size = r.u32be(cursor) else { return nil }
            cursor += 4
            guard let data = r.slice(cursor, size) else { return nil }
            if id == 0x0404 { return data }
            offset = cursor + size + (size & 1)
        }
        return nil
    }
}
