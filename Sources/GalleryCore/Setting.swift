/// A value as the user wrote it, before it is checked: one piece of text (a
/// YAML scalar or a command-line flag's argument) or a list (a YAML sequence).
public enum SettingInput: Sendable, Equatable {
    /// A scalar or a flag's argument.
    case text(String)
    /// A YAML sequence of scalars.
    case list([String])
}

/// How the values of one kind of setting are read, checked and written back.
public struct SettingType<Value: Sendable & Equatable>: Sendable {
    /// What a valid value looks like, completing "must be …" in errors
    /// ("a whole number from 1 to 100").
    public let expectation: String
    /// A short placeholder for the value in usage text (`n`, `WxH[,WxH…]`).
    public var valueName: String
    /// Reads user input; nil when it is not a valid value.
    let read: @Sendable (SettingInput) -> Value?
    /// The value as it would be written in gallery.yml.
    let write: @Sendable (Value) -> String

    /// A kind of value from its reader and writer.
    public init(expectation: String, valueName: String, read: @escaping @Sendable (SettingInput) -> Value?,
                write: @escaping @Sendable (Value) -> String) {
        self.expectation = expectation
        self.valueName = valueName
        self.read = read
        self.write = write
    }

    /// A kind read from one piece of text (a list is never valid).
    static func scalar(_ expectation: String, valueName: String, read: @escaping @Sendable (String) -> Value?,
                       write: @escaping @Sendable (Value) -> String) -> SettingType {
        SettingType(expectation: expectation, valueName: valueName, read: { input in
            guard case .text(let text) = input else { return nil }
            return read(text.trimmingWhitespace)
        }, write: write)
    }
}

extension SettingType where Value == Int {
    /// A whole number in `range`.
    public static func integer(_ range: ClosedRange<Int>) -> SettingType {
        .scalar("a whole number from \(range.lowerBound) to \(range.upperBound)", valueName: "n",
                read: { Int($0).flatMap { range.contains($0) ? $0 : nil } }, write: { String($0) })
    }
}

extension SettingType where Value == Double {
    /// A number in `range`.
    public static func number(_ range: ClosedRange<Double>) -> SettingType {
        let write: @Sendable (Double) -> String = { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : String($0) }
        return .scalar("a number from \(write(range.lowerBound)) to \(write(range.upperBound))", valueName: "number",
                       read: { Double($0).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }, write: write)
    }
}

extension SettingType where Value == Bool {
    /// `true` or `false` (YAML's yes/no/on/off too).
    public static var boolean: SettingType {
        .scalar("true or false", valueName: "true|false", read: { text in
            switch text.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: return nil
            }
        }, write: { $0 ? "true" : "false" })
    }
}

extension SettingType where Value == String {
    /// Any text (a YAML scalar as written).
    public static var text: SettingType {
        SettingType(expectation: "text", valueName: "text", read: { input in
            guard case .text(let text) = input else { return nil }
            return text
        }, write: { $0 })
    }
}

extension SettingType where Value == String {
    /// The site's absolute address (`https://example.org/photos/`), or empty
    /// for none; read with a slash at the end, so page paths can follow it.
    public static var siteURL: SettingType {
        .scalar("an absolute http:// or https:// address, e.g. https://example.org/photos/", valueName: "url", read: { text in
            if text.isEmpty { return "" }
            let lower = text.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"),
                  !text.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "#" || $0 == "?" }),
                  let schemeEnd = text.range(of: "://"), text[schemeEnd.upperBound...].first.map({ $0 != "/" }) ?? false
            else { return nil }
            return text.hasSuffix("/") ? text : text + "/"
        }, write: { $0 })
    }

    /// A map tile address template (`https://tile.example.org/{z}/{x}/{y}.png`),
    /// or empty for none: https only (a page served over HTTPS may not draw
    /// plain-HTTP images), with `{z}`, `{x}` and `{y}` and nothing that could
    /// leave an HTML attribute or a JavaScript string.
    public static var tileTemplate: SettingType {
        .scalar("an https:// address with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png", valueName: "url", read: { text in
            if text.isEmpty { return "" }
            guard text.lowercased().hasPrefix("https://"), ["{z}", "{x}", "{y}"].allSatisfy(text.contains),
                  !text.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0 == "\\" || $0 == "`" })
            else { return nil }
            return text
        }, write: { $0 })
    }

    /// A BCP 47 language tag (`fr`, `de`, `pt-BR`, `zh-Hant`): letters and
    /// digits in parts of at most 8 joined by `-`, a language of 2 or 3
    /// letters first. Read with `-` (also given as `_`) and the language in
    /// lower case.
    public static var languageTag: SettingType {
        .scalar("a language tag, e.g. en, fr, de, es, ja, zh or pt-BR", valueName: "tag", read: { text in
            let parts = text.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
            guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }),
                  parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
            else { return nil }
            return ([language.lowercased()] + parts.dropFirst().map(String.init)).joined(separator: "-")
        }, write: { $0 })
    }
}

extension SettingType where Value == [PixelSize] {
    /// One or more `WxH` bounding boxes: a YAML list, or text with commas.
    public static var boxes: SettingType {
        SettingType(expectation: "WxH boxes, e.g. 1600x1200, or several: 800x600,1600x1200", valueName: "WxH[,WxH…]", read: { input in
            let texts: [String]
            switch input {
            case .text(let text): texts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
            case .list(let items): texts = items.map(\.trimmingWhitespace)
            }
            let boxes = texts.compactMap { PixelSize(parsing: Substring($0)) }
            return !texts.isEmpty && boxes.count == texts.count ? boxes : nil
        }, write: { "[" + $0.map(\.description).joined(separator: ", ") + "]" })
    }
}

extension SettingType where Value == [OutputFormat] {
    /// Rendition formats, the preferred first: `webp` or `jpeg` (what every
    /// `<img>` gets), alone or after `avif` (offered to browsers that show it).
    public static var renditionFormats: SettingType {
        let names: [String: OutputFormat] = ["webp": .webp, "jpeg": .jpeg, "jpg": .jpeg, "avif": .avif]
        return SettingType(expectation: "webp or jpeg, alone or after avif: webp, jpeg, [avif, webp] or [avif, jpeg]", valueName: "avif,webp",
                           read: { input in
            let texts: [String]
            switch input {
            case .text(let text): texts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
            case .list(let items): texts = items.map(\.trimmingWhitespace)
            }
            let formats = texts.compactMap { names[$0.lowercased()] }
            guard formats.count == texts.count, let last = formats.last, last == .webp || last == .jpeg,
                  formats.count == 1 || (formats.count == 2 && formats[0] == .avif) else { return nil }
            return formats
        }, write: { $0.count == 1 ? $0[0].rawValue : "[" + $0.map(\.rawValue).joined(separator: ", ") + "]" })
    }
}

extension SettingType where Value == PixelSize {
    /// One `WxH` bounding box.
    public static var box: SettingType {
        .scalar("a WxH box, e.g. 1920x1080", valueName: "WxH", read: { PixelSize(parsing: Substring($0)) }, write: \.description)
    }
}

extension SettingType {
    /// One of a fixed list of words (case-insensitive); the first word naming
    /// a value is the one written back.
    public static func choice(_ options: KeyValuePairs<String, Value>) -> SettingType {
        let pairs = options.map { ($0.key, $0.value) }
        return .scalar("one of: \(pairs.map(\.0).joined(separator: ", "))", valueName: pairs.map(\.0).joined(separator: "|"), read: { text in
            pairs.first { $0.0 == text.lowercased() }?.1
        }, write: { value in pairs.first { $0.1 == value }?.0 ?? "" })
    }
}

/// One setting of `gallery.yml`: its key, kind, default, one line of help and,
/// when it has one, its command-line flag. Declared once, in `SettingsSchema`;
/// the config parser, the flags, `gallerygen init` and the README's table all
/// follow from the declaration.
public struct Setting<Value: Sendable & Equatable>: Sendable {
    /// The key in gallery.yml; nested keys are dotted (`moments.group_by`).
    public let key: String
    /// The kind of value.
    public let type: SettingType<Value>
    /// The value when nothing sets it.
    public let defaultValue: Value
    /// One line for the user.
    public let help: String
    /// The long flag of `gallerygen build` (without dashes), if any.
    public let flag: String?
    /// Shown instead of the default when the default depends on the machine
    /// or is "none".
    public let defaultNote: String?
    /// A real value to show where the default cannot be written (a setting
    /// with a `defaultNote`): `gallerygen init` writes it, commented out.
    public let example: Value?
    /// False for settings that cannot change what the build produces (so a
    /// change does not make pages render again).
    public let affectsOutput: Bool

    /// Declares a setting.
    public init(_ key: String, _ type: SettingType<Value>, default defaultValue: Value, flag: String? = nil,
                defaultNote: String? = nil, example: Value? = nil, affectsOutput: Bool = true, help: String) {
        precondition((defaultNote == nil) == (example == nil), "\(key): a setting whose default is a note needs an example")
        self.key = key
        self.example = example
        self.type = type
        self.defaultValue = defaultValue
        self.help = help
        self.flag = flag
        self.defaultNote = defaultNote
        self.affectsOutput = affectsOutput
    }
}

/// A setting of any value type, for the code that walks all of them.
public protocol AnySetting: Sendable {
    /// The key in gallery.yml.
    var key: String { get }
    /// One line for the user.
    var help: String { get }
    /// The flag, if any.
    var flag: String? { get }
    /// What a valid value looks like.
    var expectation: String { get }
    /// The value's placeholder in usage text.
    var valueName: String { get }
    /// The default as written in gallery.yml (or the note for machine-dependent defaults).
    var defaultText: String { get }
    /// Whether a machine-dependent note stands for the default.
    var hasDefaultNote: Bool { get }
    /// The example as written in gallery.yml, for a setting with a default note.
    var exampleText: String? { get }
    /// See `Setting.affectsOutput`.
    var affectsOutput: Bool { get }
    /// Reads user input; nil when invalid.
    func read(_ input: SettingInput) -> (any Sendable)?
    /// Writes a value of this setting back as text (nil when it is not one).
    func write(_ value: any Sendable) -> String?
}

extension Setting: AnySetting {
    public var expectation: String { type.expectation }
    public var valueName: String { type.valueName }
    public var defaultText: String { defaultNote ?? type.write(defaultValue) }
    public var hasDefaultNote: Bool { defaultNote != nil }
    public var exampleText: String? { example.map(type.write) }
    public func read(_ input: SettingInput) -> (any Sendable)? { type.read(input) }
    public func write(_ value: any Sendable) -> String? { (value as? Value).map(type.write) }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
