import Foundation
import GalleryCore
import Synchronization

/// The words of a site in one language (`language` setting): interface
/// strings from the locale files (`Locales/<tag>.txt`, then a theme's
/// `locales/<tag>.txt` adding or overriding keys), counts with that
/// language's plural forms, numbers grouped its way, and dates written as ICU
/// (through Foundation) writes them for it.
///
/// A locale file is UTF-8 text, a string per line: `key = text`; `#` starts
/// a comment line; `{name}` in a text is filled in (a count, a title).
/// Plural forms are keys ending `.one`, `.few`, `.many` and `.other` (CLDR's
/// categories). Lookup goes: the full tag (`pt-BR`), its language (`pt`),
/// then English, so a partial translation still shows every string.
public struct SiteStrings: Sendable {
    /// The BCP 47 tag, for `<html lang>` and the feed.
    public let languageTag: String
    /// Keys to texts, already merged (English, the language, its region, the theme's).
    let table: [String: String]
    /// CLDR plural category of a whole number in this language.
    let plural: @Sendable (Int) -> String
    /// ICU's date patterns and names for this language.
    let dates: DateWords
    /// ICU's thousands separator for this language ("," "." " " …).
    let groupingSeparator: String
    /// ICU's decimal separator ("." or ",").
    let decimalSeparator: String
    /// Ranges of days ("3–5 May 2025"), from ICU's interval formats.
    private let intervals: IntervalFormatter

    /// The strings of `languageTag` from locale files: `files[tag]` is a
    /// file's text (built-in files first, then the theme's, which override).
    init(languageTag: String, files: [(tag: String, text: String)]) throws(ThemeError) {
        self.languageTag = languageTag
        let language = String(languageTag.split(separator: "-").first ?? "en")
        var table: [String: String] = [:]
        // Broadest first, so the narrower tag's strings win.
        var layers: [String] = []
        for tag in ["en", language, languageTag] where !layers.contains(tag.lowercased()) { layers.append(tag.lowercased()) }
        for tag in layers {
            for file in files where file.tag.lowercased() == tag {
                for (key, value) in try Self.parse(file.text, name: "\(file.tag).txt") { table[key] = value }
            }
        }
        self.table = table
        self.plural = Self.pluralRule(language)
        let locale = Locale(identifier: languageTag)
        self.dates = DateWords(locale: locale)
        let numbers = NumberFormatter()
        numbers.locale = locale
        numbers.numberStyle = .decimal
        self.groupingSeparator = numbers.groupingSeparator ?? ","
        self.decimalSeparator = numbers.decimalSeparator ?? "."
        self.intervals = IntervalFormatter(locale: locale)
    }

    /// Whether a locale file exists for `languageTag` or its language.
    static func hasFile(for languageTag: String, in tags: [String]) -> Bool {
        let language = String(languageTag.split(separator: "-").first ?? "")
        return tags.contains { $0.lowercased() == languageTag.lowercased() || $0.lowercased() == language }
    }

    /// Parses a locale file: `key = text` lines.
    static func parse(_ text: String, name: String) throws(ThemeError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw .badTemplate(name: "locales/\(name)", reason: "line \(number + 1) is not `key = text`")
            }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }) else {
                throw .badTemplate(name: "locales/\(name)", reason: "line \(number + 1): '\(key)' is not a key (letters, digits, . and _)")
            }
            pairs.append((key, trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
        }
        return pairs
    }

    // MARK: Words

    /// The text of `key` with `{name}` filled from `values`; the key itself
    /// when no file has it (visible, so a missing string is noticed).
    public func text(_ key: String, _ values: [String: String] = [:]) -> String {
        let template = table[key] ?? key
        return values.isEmpty ? template : Self.fill(template, values)
    }

    /// A count: `key.one`/`.few`/`.many`/`.other` by this language's plural
    /// rules, `{count}` filled with the grouped number.
    public func count(_ key: String, _ number: Int, _ values: [String: String] = [:]) -> String {
        let category = plural(number)
        let template = table[key + "." + category] ?? table[key + ".other"] ?? key
        var all = values
        all["count"] = grouped(number)
        return Self.fill(template, all)
    }

    /// Every key and its text (the scripts' strings, tests).
    public var allKeys: [String] { table.keys.sorted() }

    /// The strings the scripts use (keys starting `script.`), as a JS file:
    /// `static/strings.js` sets `window.gallerygenStrings` before the scripts run.
    var scriptFile: String {
        var out = "/* The interface strings of the site's scripts, in its language (\(languageTag)): made by gallerygen from its locale files. */\nwindow.gallerygenStrings = {"
        for (i, key) in table.keys.filter({ $0.hasPrefix("script.") }).sorted().enumerated() {
            out += (i == 0 ? "\n  " : ",\n  ")
            PhotoFacts.appendJSONString(String(key.dropFirst("script.".count)), to: &out)
            out += ": "
            PhotoFacts.appendJSONString(table[key] ?? "", to: &out)
        }
        out += "\n};\n"
        // The text of a key; with a count, its plural form by the browser's
        // CLDR rules for the page's language and the number grouped its way.
        out += """
        window.gallerygenText = function (key, count) {
          var strings = window.gallerygenStrings, lang = document.documentElement.lang || "en", text;
          if (count === undefined) return strings[key] || key;
          var category = "other";
          try { category = new Intl.PluralRules(lang).select(count); } catch (e) {}
          text = strings[key + "." + category] || strings[key + ".other"] || strings[key] || key;
          var number = String(count);
          try { number = new Intl.NumberFormat(lang).format(count); } catch (e) {}
          return text.replace("{count}", number);
        };

        """
        return out
    }

    /// "30,000" / "30 000" / "30.000": thousands grouped as this language does.
    public func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = number < 0 ? "-" : ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += groupingSeparator }
            out.append(digit)
        }
        return out
    }

    /// Where the scripts' strings are published, below `static/`.
    static let scriptPath = "strings.js"

    /// A template with each `{{t:key}}` replaced by that key's text, escaped
    /// for HTML once here (not on every page), its `{name}`s turned into the
    /// template's `{{name}}` values and any other brace made inert.
    func substitute(in template: String) -> String {
        guard template.contains("{{t:") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{t:") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let key = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            out += Self.templateText(text(key))
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// A string as template text: `{name}` (a single brace pair around a
    /// name) becomes the template value `{{name}}`; everything else is
    /// escaped for HTML, braces included, so a locale file cannot open a tag.
    static func templateText(_ text: String) -> String {
        func inert(_ piece: Substring) -> String {
            HTML.escape(String(piece)).replacingOccurrences(of: "{", with: "&#123;").replacingOccurrences(of: "}", with: "&#125;")
        }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), !after[..<close].isEmpty,
               after[..<close].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }),
               open == text.startIndex || text[text.index(before: open)] != "{",
               after.index(after: close) == after.endIndex || after[after.index(after: close)] != "}" {
                out += inert(rest[..<open]) + "{{" + after[..<close] + "}}"
                rest = after[after.index(after: close)...]
            } else {
                out += inert(rest[...open])
                rest = after
            }
        }
        return out + inert(rest)
    }

    /// A file's size as this language writes it: "850 KB", "12 MB", "3.4 GB" (1 KB = 1000 bytes;
    /// one decimal under 10 MB or GB).
    public func fileSize(_ bytes: Int64) -> String {
        let units: [(key: String, unit: Double)] = [("size.gb", 1e9), ("size.mb", 1e6), ("size.kb", 1e3)]
        for (key, unit) in units where Double(bytes) >= unit * 0.95 || key == "size.kb" {
            let value = Double(bytes) / unit
            let number: String
            if value < 9.95 && key != "size.kb" {
                let tenths = Int((value * 10).rounded())
                number = String(tenths / 10) + decimalSeparator + String(tenths % 10)
            } else {
                number = grouped(max(1, Int(value.rounded())))
            }
            return text(key, ["size": number])
        }
        return text("size.kb", ["size": "1"])
    }

    static func fill(_ template: String, _ values: [String: String]) -> String {
        // Scanned as UTF-8 (braces are ASCII, so their indices cut the text
        // between characters): a Character scan was a fiftieth of page rendering.
        let utf8 = template.utf8
        guard utf8.contains(UInt8(ascii: "{")) else { return template }
        var out = ""
        var copied = utf8.startIndex, searched = utf8.startIndex
        while let open = utf8[searched...].firstIndex(of: UInt8(ascii: "{")) {
            let name = utf8.index(after: open)
            guard let close = utf8[name...].firstIndex(of: UInt8(ascii: "}")), let value = values[String(template[name..<close])] else {
                searched = name  // not a placeholder: the brace stays as text
                continue
            }
            out += template[copied..<open]
            out += value
            copied = utf8.index(after: close)
            searched = copied
        }
        return out + template[copied...]
    }

    // MARK: Dates

    /// "Saturday, May 3, 2025" / "samedi 3 mai 2025" (`heading` capitalises it where it starts a line).
    public func day(_ day: LocalDay) -> String { dates.format(dates.fullDay, day) }

    /// "May 2025" / "mai 2025".
    public func month(_ day: LocalDay) -> String { dates.format(dates.monthYear, day) }

    /// A month's short name alone ("May", "mai"…), as in the month index.
    public func shortMonthName(_ month: Int) -> String { Self.capitalised(dates.standaloneShortMonths[month - 1]) }

    /// "May 3, 2025" / "3 mai 2025".
    public func short(_ day: LocalDay) -> String { dates.format(dates.shortDay, day) }

    /// "May 3 – 5, 2025" / "3–5 mai 2025": ICU's interval format (a heading).
    public func range(_ first: LocalDay, _ last: LocalDay) -> String {
        first == last ? day(first) : intervals.string(first, last, template: "dMMMMy")
    }

    /// "May 3, 2025 – Apr 2, 2026", for album date ranges.
    public func shortRange(_ first: LocalDay, _ last: LocalDay) -> String {
        first == last ? short(first) : intervals.string(first, last, template: "dMMMy")
    }

    /// "23:30" / "11:30 PM" as this language writes a time, and the offset
    /// when known: "23:30 (UTC+02:00)".
    public func time(_ date: CaptureDate) -> String {
        var text = dates.formatTime(date.wallClock.hour, date.wallClock.minute)
        if date.offsetIsRecorded, let offset = date.utcOffsetSeconds {
            let sign = offset < 0 ? "−" : "+"
            let value = abs(offset)
            text += " (UTC\(sign)\(HumanDate.pad(value / 3600)):\(HumanDate.pad(value % 3600 / 60)))"
        }
        return text
    }

    /// A heading, a label or a menu item starts with a capital ("samedi 3 mai" → "Samedi 3 mai").
    public func heading(_ text: String) -> String { Self.capitalised(text) }

    static func capitalised(_ text: String) -> String {
        guard let first = text.first, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }

    // MARK: Plural rules

    /// CLDR's plural rules for whole numbers, for the languages likely to be
    /// given; any other takes English's (one for 1, else other).
    static func pluralRule(_ language: String) -> @Sendable (Int) -> String {
        switch language {
        case "ja", "zh", "ko", "th", "vi", "id", "ms":
            return { _ in "other" }
        case "fr":
            return { n in n == 0 || n == 1 ? "one" : (n != 0 && n % 1_000_000 == 0 ? "many" : "other") }
        case "pt":
            return { n in n == 0 || n == 1 ? "one" : "other" }
        case "ru", "uk", "be":
            return { n in
                let d = n % 10, h = n % 100
                if d == 1 && h != 11 { return "one" }
                if (2...4).contains(d) && !(12...14).contains(h) { return "few" }
                return "many"
            }
        case "pl":
            return { n in
                let d = n % 10, h = n % 100
                if n == 1 { return "one" }
                if (2...4).contains(d) && !(12...14).contains(h) { return "few" }
                return "many"
            }
        case "cs", "sk":
            return { n in n == 1 ? "one" : (2...4).contains(n) ? "few" : "other" }
        default:
            return { n in n == 1 ? "one" : "other" }
        }
    }
}

/// ICU's date patterns and month and weekday names for one language, read
/// once; days are then written by interpreting the pattern here, because
/// rendering asks for tens of thousands (every thumbnail's alt text) on
/// several threads, and a `DateFormatter` is neither cheap nor shareable.
struct DateWords: Sendable {
    enum Part: Sendable, Equatable { case literal(String), field(Character, Int) }
    let fullDay: [Part], monthYear: [Part], shortDay: [Part], hourMinute: [Part]
    let months: [String], standaloneMonths: [String], shortMonths: [String], standaloneShortMonths: [String]
    let weekdays: [String], shortWeekdays: [String]
    let am: String, pm: String

    init(locale: Locale) {
        func pattern(_ template: String) -> [Part] {
            Self.parts(DateFormatter.dateFormat(fromTemplate: template, options: 0, locale: locale) ?? template)
        }
        fullDay = pattern("EEEEdMMMMy")
        monthYear = pattern("MMMMy")
        shortDay = pattern("dMMMy")
        hourMinute = pattern("jmm")
        let formatter = DateFormatter()
        formatter.locale = locale
        months = formatter.monthSymbols
        standaloneMonths = formatter.standaloneMonthSymbols
        shortMonths = formatter.shortMonthSymbols
        standaloneShortMonths = formatter.shortStandaloneMonthSymbols
        weekdays = formatter.weekdaySymbols  // Sunday first
        shortWeekdays = formatter.shortWeekdaySymbols
        am = formatter.amSymbol
        pm = formatter.pmSymbol
    }

    /// Splits an ICU pattern into fields (a letter repeated) and literals (`'…'`, `''`, other characters).
    static func parts(_ pattern: String) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var chars = Array(pattern)[...]
        func flush() { if !literal.isEmpty { parts.append(.literal(literal)); literal = "" } }
        while let c = chars.first {
            if c == "'" {
                chars = chars.dropFirst()
                if chars.first == "'" { literal.append("'"); chars = chars.dropFirst(); continue }
                while let q = chars.first {
                    chars = chars.dropFirst()
                    if q == "'" {
                        if chars.first == "'" { literal.append("'"); chars = chars.dropFirst() } else { break }
                    } else {
                        literal.append(q)
                    }
                }
            } else if c.isASCII && c.isLetter {
                flush()
                let run = chars.prefix { $0 == c }.count
                parts.append(.field(c, run))
                chars = chars.dropFirst(run)
            } else {
                literal.append(c)
                chars = chars.dropFirst()
            }
        }
        flush()
        return parts
    }

    func format(_ pattern: [Part], _ day: LocalDay) -> String {
        var out = ""
        for part in pattern {
            switch part {
            case .literal(let text): out += text
            case .field(let letter, let count):
                switch letter {
                case "y", "Y", "u": out += count == 2 ? HumanDate.pad(day.year % 100) : String(day.year)
                case "M": out += count >= 4 ? months[day.month - 1] : count == 3 ? shortMonths[day.month - 1] : count == 2 ? HumanDate.pad(day.month) : String(day.month)
                case "L": out += count >= 4 ? standaloneMonths[day.month - 1] : count == 3 ? standaloneShortMonths[day.month - 1] : count == 2 ? HumanDate.pad(day.month) : String(day.month)
                case "d": out += count == 2 ? HumanDate.pad(day.day) : String(day.day)
                case "E", "c", "e":
                    // HumanDate.weekday: 0 = Monday; the symbols start on Sunday.
                    let index = (HumanDate.weekday(day) + 1) % 7
                    out += count >= 4 ? weekdays[index] : shortWeekdays[index]
                default: break  // eras and the like: not in these patterns
                }
            }
        }
        return out
    }

    func formatTime(_ hour: Int, _ minute: Int) -> String {
        var out = ""
        for part in hourMinute {
            switch part {
            case .literal(let text): out += text
            case .field(let letter, let count):
                switch letter {
                case "H": out += count == 2 ? HumanDate.pad(hour) : String(hour)
                case "h": let h = hour % 12 == 0 ? 12 : hour % 12; out += count == 2 ? HumanDate.pad(h) : String(h)
                case "K": out += String(hour % 12)
                case "k": out += String(hour == 0 ? 24 : hour)
                case "m": out += HumanDate.pad(minute)
                case "a", "b", "B": out += hour < 12 ? am : pm
                default: break
                }
            }
        }
        return out
    }
}

/// ICU's date interval formats ("3–5 May"), behind a lock: a
/// `DateIntervalFormatter` is a class that cannot be shared between threads,
/// and ranges are few (album headings, gap sections).
final class IntervalFormatter: Sendable {
    private let formatters: Mutex<[String: DateIntervalFormatter]>
    private let locale: Locale

    init(locale: Locale) {
        self.locale = locale
        self.formatters = Mutex([:])
    }

    func string(_ first: LocalDay, _ last: LocalDay, template: String) -> String {
        func date(_ day: LocalDay) -> Date {
            Date(timeIntervalSince1970: TimeInterval(CivilCalendar.seconds(year: day.year, month: day.month, day: day.day, hour: 12, minute: 0, second: 0)))
        }
        return formatters.withLock { cache in
            let formatter: DateIntervalFormatter
            if let known = cache[template] {
                formatter = known
            } else {
                formatter = DateIntervalFormatter()
                formatter.locale = locale
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateTemplate = template
                cache[template] = formatter
            }
            return formatter.string(from: date(first), to: date(last))
        }
    }
}
