import Mustache

/// Escaping for text placed in HTML: templates' `{{ }}` (through
/// `EscapingContentType`) and the few strings made outside templates.
public enum HTML {
    /// Escapes `& < > " '`, byte by byte on UTF-8 (all five are ASCII), and
    /// returns the text itself when it holds none of them, as most values do.
    public static func escape(_ text: String) -> String {
        func special(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
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
        return String(decoding: out, as: UTF8.self)
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

    /// The content type every template is parsed with: the same escaping as
    /// the Mustache library's own HTML type, which looked every character up
    /// in a dictionary (an eighth of all rendering time).
    struct EscapingContentType: MustacheContentType {
        func escapeText(_ text: String) -> String { HTML.escape(text) }
    }

    /// Its name in templates' `{{% CONTENT_TYPE: … }}`.
    static let contentTypeName = "GALLERYGENHTML"

    /// Registers the content type with the library (once per process).
    static let registered: Bool = {
        MustacheContentTypes.register(EscapingContentType(), named: contentTypeName)
        return true
    }()
}
