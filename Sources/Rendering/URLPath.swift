/// Relative URLs between pages of the site, percent-encoded so any name works.
public enum URLPath {
    /// Percent-encodes one path segment: everything but RFC 3986 unreserved characters.
    public static func encodeSegment(_ segment: String) -> String {
        // Most segments (hashes, slugs) need nothing.
        if segment.utf8.allSatisfy(isUnreserved) { return segment }
        var out = ""
        for byte in segment.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The relative URL from the page at `from` to the file at `to`, both paths
    /// relative to the site root with `/` separators (e.g. `albums/a/index.html`).
    public static func relative(from: String, to: String) -> String {
        Relativizer(from: from).url(to: to)
    }

    /// Relative URLs from one page: its folder is split once, not once per
    /// link (a moments page links a few thousand files).
    public struct Relativizer: Sendable {
        private let folders: [Substring]

        /// URLs from the page at `page` (a path from the site root).
        public init(from page: String) {
            var parts = page.split(separator: "/")
            parts.removeLast()  // the page's own file name
            folders = parts
        }

        /// The relative URL to `target` (a path from the site root).
        public func url(to target: String) -> String {
            let parts = target.split(separator: "/")
            var common = 0
            while common < folders.count, common < parts.count - 1, folders[common] == parts[common] { common += 1 }
            var out = ""
            for _ in common..<folders.count { out += "../" }
            for (i, part) in parts[common...].enumerated() {
                if i > 0 { out += "/" }
                out += encodeSegment(String(part))
            }
            if out.hasSuffix("/") { out.removeLast() }
            return out.isEmpty ? "./" : out
        }
    }
}
