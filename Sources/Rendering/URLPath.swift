/// Relative URLs between pages of the site, percent-encoded so any name works.
public enum URLPath {
    /// Percent-encodes one path segment: everything but RFC 3986 unreserved characters.
    public static func encodeSegment(_ segment: String) -> String {
        // Most segments (hashes, slugs) need nothing.
        if segment.utf8.allSatisfy(isUnreserved) { return segment }
        var out: [UInt8] = []
        appendEncoded(segment.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends `segment` (UTF-8) percent-encoded.
    static func appendEncoded(_ segment: some Collection<UInt8>, to out: inout [UInt8]) {
        let hex = hexDigits
        for byte in segment {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
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
    /// link (a moments page links a few thousand files). Paths are taken
    /// as the file system takes them, as bytes split at `/`: two names
    /// that are the same text in other Unicode forms are two folders.
    public struct Relativizer: Sendable {
        private let folders: [ArraySlice<UInt8>]
        private static let slash = UInt8(ascii: "/")

        /// URLs from the page at `page` (a path from the site root).
        public init(from page: String) {
            var parts = Array(page.utf8).split(separator: Self.slash)
            if !parts.isEmpty { parts.removeLast() }  // the page's own file name
            folders = parts
        }

        /// The relative URL to `target` (a path from the site root).
        public func url(to target: String) -> String {
            let parts = Array(target.utf8).split(separator: Self.slash)
            var common = 0
            while common < folders.count, common < parts.count - 1, folders[common].elementsEqual(parts[common]) { common += 1 }
            var out: [UInt8] = []
            out.reserveCapacity(target.utf8.count + 3 * (folders.count - common))
            for _ in common..<folders.count { out += "../".utf8 }
            for (i, part) in parts[common...].enumerated() {
                if i > 0 { out.append(Self.slash) }
                URLPath.appendEncoded(part, to: &out)
            }
            if out.last == Self.slash { out.removeLast() }
            return out.isEmpty ? "./" : String(decoding: out, as: UTF8.self)
        }
    }
}
