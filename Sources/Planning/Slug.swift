import GalleryCore
import Foundation

/// Readable, URL-safe names for folders and files: `Léa 7` → `lea-7`.
public enum Slug {
    /// A slug of lowercase ASCII letters, digits and single hyphens, at most 60
    /// characters; `fallback` when nothing is left (e.g. a name of only symbols).
    public static func make(_ text: String, fallback: String) -> String {
        // Most names (camera files, dates) are ASCII: folding them is
        // lowercasing, and Foundation's folding costs a microsecond each.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiSlug(text.utf8, fallback: fallback) }
        return unicodeSlug(text, fallback: fallback)
    }

    /// `make` for any text, through Foundation's folding.
    static func unicodeSlug(_ text: String, fallback: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingHyphen, !out.isEmpty { out += "-" }
                pendingHyphen = false
                out.unicodeScalars.append(scalar)
                if out.count >= 60 { break }
            } else {
                pendingHyphen = true
            }
        }
        var slug = Substring(out.lowercased().prefix(60))
        while slug.last == "-" { slug = slug.dropLast() }
        return slug.isEmpty ? fallback : String(slug)
    }

    /// `make` for ASCII text: the same slug, byte by byte.
    private static func asciiSlug(_ bytes: String.UTF8View, fallback: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(min(60, bytes.count))
        var pendingHyphen = false
        for byte in bytes {
            if let lower = ASCIIFolding.letterOrDigit(byte) {
                if pendingHyphen, !out.isEmpty {
                    out.append(0x2D)
                    if out.count >= 60 { break }
                }
                pendingHyphen = false
                out.append(lower)
                if out.count >= 60 { break }
            } else {
                pendingHyphen = true
            }
        }
        if out.count > 60 { out.removeLast(out.count - 60) }
        while out.last == 0x2D { out.removeLast() }
        return out.isEmpty ? fallback : String(decoding: out, as: UTF8.self)
    }

    /// A name a browser or an unzip tool can save a file under on any system:
    /// the text as it reads (accents and all), without the characters
    /// Windows, macOS or Linux refuse in a file name (a `\\` is a folder to
    /// Windows: `..\\x` in a ZIP would land outside) or control characters,
    /// no leading dots, at most 100 characters; `fallback` when nothing is left.
    public static func downloadName(_ title: String, fallback: String = "album") -> String {
        let refused: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        var name = String(title.map { refused.contains($0) || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
        name = name.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        while name.hasPrefix(".") || name.hasPrefix(" ") { name.removeFirst() }
        name = String(name.prefix(100)).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? fallback : name
    }

    /// Makes slugs unique within one folder by appending `-2`, `-3`…
    public struct Uniquer {
        private var used: Set<String>

        /// Starts with `reserved` names already taken.
        public init(reserved: Set<String> = []) { used = reserved }

        /// A slug not handed out before.
        public mutating func claim(_ slug: String) -> String {
            var candidate = slug
            var n = 2
            while used.contains(candidate) {
                candidate = "\(slug)-\(n)"
                n += 1
            }
            used.insert(candidate)
            return candidate
        }
    }
}
