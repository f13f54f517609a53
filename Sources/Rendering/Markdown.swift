/// A small, safe Markdown renderer for album descriptions: paragraphs, line
/// breaks, `#` headings, `-`/`*`/`1.` lists, `*em*`, `**strong**`, `` `code` ``
/// and `[links](url)`.
///
/// Everything is escaped; raw HTML stays text unless `allowHTML` is set, and
/// link URLs must be http(s), mailto or relative (no `javascript:`).
public enum Markdown {
    /// HTML for `text`.
    public static func render(_ text: String, allowHTML: Bool = false) -> String {
        var html = ""
        var paragraph: [String] = []
        var list: (ordered: Bool, items: [String])?
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            html += "<p>" + paragraph.map { inline($0, allowHTML) }.joined(separator: "<br>\n") + "</p>\n"
            paragraph = []
        }
        func flushList() {
            guard let current = list else { return }
            let tag = current.ordered ? "ol" : "ul"
            html += "<\(tag)>" + current.items.map { "<li>\(inline($0, allowHTML))</li>" }.joined() + "</\(tag)>\n"
            list = nil
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingTrailingWhitespace()
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty {
                flushParagraph()
                flushList()
                continue
            }
            if let level = headingLevel(trimmed) {
                flushParagraph()
                flushList()
                let content = trimmed.dropFirst(level).drop { $0 == " " }
                let tag = "h\(min(6, level + 1))"  // the page title is the h1
                html += "<\(tag)>\(inline(String(content), allowHTML))</\(tag)>\n"
                continue
            }
            if let (ordered, item) = listItem(trimmed) {
                flushParagraph()
                if let current = list, current.ordered != ordered { flushList() }
                if list == nil { list = (ordered, []) }
                list!.items.append(item)
                continue
            }
            flushList()
            paragraph.append(String(trimmed))
        }
        flushParagraph()
        flushList()
        return html
    }

    static func headingLevel(_ line: Substring) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return hashes
    }

    static func listItem(_ line: Substring) -> (Bool, String)? {
        if line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("+ ") { return (false, String(line.dropFirst(2))) }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9, line.dropFirst(digits.count).hasPrefix(". ") {
            return (true, String(line.dropFirst(digits.count + 2)))
        }
        return nil
    }

    /// Inline spans. Text is escaped as it is copied; markup is recognised on
    /// the raw text first, so escaping never creates or breaks markup.
    static func inline(_ text: String, _ allowHTML: Bool) -> String {
        let chars = Array(text)
        var out = ""
        var i = 0
        func find(_ needle: [Character], from start: Int) -> Int? {
            guard needle.count > 0, start + needle.count <= chars.count else { return nil }
            var j = start
            while j + needle.count <= chars.count {
                if Array(chars[j..<j + needle.count]) == needle { return j }
                j += 1
            }
            return nil
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "\\`*_[]()#+-.!<>".contains(chars[i + 1]) {
                out += HTML.escape(String(chars[i + 1]))
                i += 2
                continue
            }
            if c == "`", let end = find(["`"], from: i + 1) {
                out += "<code>" + HTML.escape(String(chars[i + 1..<end])) + "</code>"
                i = end + 1
                continue
            }
            if (c == "*" || c == "_"), i + 1 < chars.count, chars[i + 1] == c, let end = find([c, c], from: i + 2), end > i + 2 {
                out += "<strong>" + inline(String(chars[i + 2..<end]), allowHTML) + "</strong>"
                i = end + 2
                continue
            }
            if (c == "*" || c == "_"), let end = find([c], from: i + 1), end > i + 1, chars[i + 1] != " " {
                out += "<em>" + inline(String(chars[i + 1..<end]), allowHTML) + "</em>"
                i = end + 1
                continue
            }
            if c == "[", let close = find(["]", "("], from: i + 1), let end = closingParenthesis(chars, from: close + 2) {
                let label = String(chars[i + 1..<close])
                let url = String(chars[close + 2..<end]).trimmingCharacters(in: " ")
                if isSafe(url) {
                    out += "<a href=\"\(HTML.escape(url))\">\(inline(label, allowHTML))</a>"
                } else {
                    out += inline(label, allowHTML)
                }
                i = end + 1
                continue
            }
            if c == "<", allowHTML, let end = find([">"], from: i + 1) {
                out += String(chars[i...end])
                i = end + 1
                continue
            }
            out += HTML.escape(String(c))
            i += 1
        }
        return out
    }

    /// The index of the `)` that closes a link URL starting at `start`, allowing
    /// balanced parentheses inside it (as in Wikipedia URLs).
    static func closingParenthesis(_ chars: [Character], from start: Int) -> Int? {
        var depth = 0
        var j = start
        while j < chars.count {
            if chars[j] == "(" { depth += 1 }
            if chars[j] == ")" {
                if depth == 0 { return j }
                depth -= 1
            }
            j += 1
        }
        return nil
    }

    /// http(s), mailto, fragment and relative URLs; nothing that runs code.
    static func isSafe(_ url: String) -> Bool {
        let lower = url.lowercased().filter { !$0.isWhitespace && !$0.isNewline && $0 != "\u{0}" }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") { return true }
        if let colon = lower.firstIndex(of: ":") {
            // A colon before any / ? # means a scheme (javascript:, data:, vbscript:…).
            let head = lower[..<colon]
            return head.contains("/") || head.contains("?") || head.contains("#")
        }
        return !url.isEmpty
    }
}

private extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
        return s
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
