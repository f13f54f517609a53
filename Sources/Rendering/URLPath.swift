/// Relative URLs between pages of the site, percent-encoded so any name works.
public enum URLPath {
    /// Percent-encodes one path segment: everything but RFC 3986 unreserved characters.
    public static func encodeSegment(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// The relative URL from the page at `from` to the file at `to`, both paths
    /// relative to the site root with `/` separators (e.g. `albums/a/index.html`).
    public static func relative(from: String, to: String) -> String {
        var fromParts = from.split(separator: "/").map(String.init)
        fromParts.removeLast()  // the page's own file name
        let toParts = to.split(separator: "/").map(String.init)
        var common = 0
        while common < fromParts.count, common < toParts.count - 1, fromParts[common] == toParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: fromParts.count - common)
        let rest = toParts[common...].map(encodeSegment)
        let joined = (ups + rest).joined(separator: "/")
        return joined.isEmpty ? "./" : joined
    }
}
