/// Escaping for text placed in HTML: templates' `{{ }}` and the few strings
/// made outside templates.
public enum HTML {
    /// Escapes `& < > " '`, byte by byte on UTF-8 (all five are ASCII), and
    /// returns the text itself when it holds none of them, as most values do.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: isSpecial) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        appendEachEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` escaped, appended to UTF-8 bytes (a template's output).
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        if text.utf8.contains(where: isSpecial) {
            appendEachEscaped(text, to: &out)
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    /// Byte by byte, for text known to hold something to escape.
    private static func appendEachEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            case UInt8(ascii: "'"): out += "&#39;".utf8
            default: out.append(byte)
            }
        }
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// Text for XML (the feed, the sitemap): escaped as for HTML, and without
    /// the characters XML 1.0 forbids (C0 controls but tab, newline and
    /// return; U+FFFE, U+FFFF), which HTML tolerates but which make an XML
    /// parser reject the whole file. A folder named with a control
    /// character must not break a feed.
    public static func escapeXML(_ text: String) -> String {
        let escaped = escape(text)
        func allowed(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value >= 0x20 ? scalar.value != 0xFFFE && scalar.value != 0xFFFF : scalar == "\t" || scalar == "\n" || scalar == "\r"
        }
        guard !escaped.unicodeScalars.allSatisfy(allowed) else { return escaped }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: escaped.unicodeScalars.filter(allowed))
        return String(out)
    }
}
