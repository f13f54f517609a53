import Foundation
import GalleryCore

/// Why a theme could not be loaded.
public enum ThemeError: Error, CustomStringConvertible, Sendable {
    /// No built-in theme of that name and no such folder.
    case unknown(String, available: [String])
    /// A template does not parse.
    case badTemplate(name: String, reason: String)
    /// A file of a custom theme cannot be read.
    case unreadable(String)
    /// A page template is missing or did not render.
    case renderFailed(name: String, reason: String)
    /// No locale file for the language asked for.
    case unknownLanguage(String, available: [String])

    /// One line for the user.
    public var description: String {
        switch self {
        case .unknown(let name, let available): return "unknown theme '\(name)' (built in: \(available.joined(separator: ", ")); or give a folder path)"
        case .badTemplate(let name, let reason): return "template '\(name)' does not parse: \(reason)"
        case .unreadable(let path): return "cannot read theme file \(path)"
        case .renderFailed(let name, let reason): return "template '\(name)' did not render: \(reason)"
        case .unknownLanguage(let tag, let available):
            return "no strings for language '\(tag)' (built in: \(available.joined(separator: ", ")); a theme can add locales/\(tag).txt)"
        }
    }
}

/// Templates and static files, layered: a theme overrides only what it needs and
/// falls back to the default templates (`Templates/`) and default static files
/// (`Themes/default/static/`). Built-in themes are embedded in the executable.
public struct Theme: Sendable {
    /// Name (built-in) or folder path (custom).
    public let name: String
    /// Templates by name (`album`, `index`, partials…).
    let library: Mustache.Library
    /// Static files by path below `static/`.
    public let staticFiles: [String: [UInt8]]
    /// A fingerprint of every template and static file, so a theme change can be
    /// told apart from no change.
    public let fingerprint: String
    /// The site's words in its language (`language` setting).
    public let strings: SiteStrings

    /// Names of the themes built into the binary.
    public static var builtInNames: [String] {
        Set(EmbeddedAssets.files.keys.compactMap { key -> String? in
            let parts = key.split(separator: "/")
            return parts.count > 2 && parts[0] == "Themes" ? String(parts[1]) : nil
        }).sorted()
    }

    /// Loads a built-in theme by name, or a custom theme folder (holding
    /// `templates/*.mustache`, `static/…` and/or `locales/<tag>.txt`) by path,
    /// with the interface strings of `language` (a BCP 47 tag).
    public static func load(_ nameOrPath: String, language: String = "en") throws(ThemeError) -> Theme {
        var templates: [String: String] = [:]
        var statics: [String: [UInt8]] = [:]
        var locales: [(tag: String, text: String)] = []
        func addLocale(_ relative: String, _ bytes: [UInt8]) {
            guard relative.hasSuffix(".txt"), !relative.contains("/") else { return }
            locales.append((String(relative.dropLast(".txt".count)), String(decoding: bytes, as: UTF8.self)))
        }
        func embedded(_ prefix: String, _ apply: (String, [UInt8]) -> Void) {
            for (key, base64) in EmbeddedAssets.files where key.hasPrefix(prefix) {
                if let data = Data(base64Encoded: base64) { apply(String(key.dropFirst(prefix.count)), Array(data)) }
            }
        }
        func addTemplate(_ relative: String, _ bytes: [UInt8]) {
            guard relative.hasSuffix(".mustache") else { return }
            templates[String(relative.dropLast(".mustache".count))] = String(decoding: bytes, as: UTF8.self)
        }
        embedded("Templates/", addTemplate)
        embedded("Themes/default/static/") { statics[$0] = $1 }
        embedded("Locales/", addLocale)
        locales.sort { $0.tag < $1.tag }
        let builtInLanguages = locales.map(\.tag)

        let builtIn = builtInNames
        if builtIn.contains(nameOrPath) {
            if nameOrPath != "default" {
                embedded("Themes/\(nameOrPath)/templates/", addTemplate)
                embedded("Themes/\(nameOrPath)/static/") { statics[$0] = $1 }
                embedded("Themes/\(nameOrPath)/locales/", addLocale)
            }
        } else {
            let folder = URL(fileURLWithPath: nameOrPath)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .unknown(nameOrPath, available: builtIn)
            }
            for (sub, apply) in [("templates", addTemplate), ("static", { statics[$0] = $1 }), ("locales", addLocale)] as [(String, (String, [UInt8]) -> Void)] {
                let base = folder.appendingPathComponent(sub)
                guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
                for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    let relative = String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1))
                    if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                    guard let data = FileManager.default.contents(atPath: url.path) else { throw .unreadable(url.path) }
                    apply(relative, Array(data))
                }
            }
        }
        guard SiteStrings.hasFile(for: language, in: locales.map(\.tag)) else {
            throw .unknownLanguage(language, available: builtInLanguages)
        }
        let strings = try SiteStrings(languageTag: language, files: locales)
        statics[SiteStrings.scriptPath] = Array(strings.scriptFile.utf8)
        var library = Mustache.Library()
        // Every string, as the pages' words (counts, dates, facts) come from them too.
        var fingerprintInput = "language \(language)\0" + strings.allKeys.map { $0 + "=" + strings.text($0) }.joined(separator: "\0")
        for (name, original) in templates.sorted(by: { $0.key < $1.key }) {
            let text = strings.substitute(in: original)
            do {
                try library.register(text, named: name)
            } catch {
                throw .badTemplate(name: name, reason: error.description)
            }
            fingerprintInput += name + "\0" + text + "\0"
        }
        for name in pageTemplates where templates[name] == nil {
            throw .renderFailed(name: name, reason: "no such template")
        }
        var hasher = StableHash()
        hasher.update(fingerprintInput)
        for (path, bytes) in statics.sorted(by: { $0.key < $1.key }) {
            hasher.update(path)
            bytes.withUnsafeBytes { hasher.update($0) }
        }
        return Theme(name: nameOrPath, library: library, staticFiles: statics, fingerprint: hasher.finalize(), strings: strings)
    }

    /// The templates every site needs; a theme without them fails when loaded.
    static let pageTemplates = ["index", "album", "moments", "photo"]

    /// Renders template `name` with a page model; a missing template is an
    /// error naming it, never an empty page.
    func render(_ name: String, _ model: some Encodable) throws(ThemeError) -> String {
        guard let context = TemplateContext.make(model) else { throw .renderFailed(name: name, reason: "the page model is empty") }
        do {
            return try library.render(context, template: name)
        } catch {
            throw .renderFailed(name: name, reason: error.description)
        }
    }
}

