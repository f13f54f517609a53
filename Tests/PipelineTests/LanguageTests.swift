import Configuration
import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Rendering

/// `language`: every interface string from a locale file, dates and numbers
/// as ICU writes them for the language, `<html lang>`, and themes adding or
/// overriding strings.
@Suite struct LanguageTests {
    static let locales = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Locales")
    static let shipped = ["en", "fr", "de", "es", "ja", "zh"]

    /// The keys of a locale file, plural forms folded to their base key.
    static func keys(_ language: String) throws -> [String: String] {
        let text = try String(contentsOf: locales.appendingPathComponent("\(language).txt"), encoding: .utf8)
        var keys: [String: String] = [:]
        for (key, value) in try SiteStrings.parse(text, name: language) { keys[key] = value }
        return keys
    }

    static func base(_ key: String) -> String {
        for suffix in [".one", ".few", ".many", ".other"] where key.hasSuffix(suffix) { return String(key.dropLast(suffix.count)) }
        return key
    }

    @Test func everyShippedLanguageTranslatesEveryString() throws {
        let english = try Self.keys("en")
        let englishBases = Set(english.keys.map(Self.base))
        for language in Self.shipped.dropFirst() {
            let keys = try Self.keys(language)
            let bases = Set(keys.keys.map(Self.base))
            #expect(bases == englishBases, "\(language): missing \(englishBases.subtracting(bases).sorted()), unknown \(bases.subtracting(englishBases).sorted())")
            // Every plural has its `other` form, and the placeholders match English's.
            for (key, value) in keys {
                if key != Self.base(key) { #expect(keys[Self.base(key) + ".other"] != nil, "\(language) \(key)") }
                let englishValue = english[key] ?? english[Self.base(key) + ".other"] ?? ""
                let names = { (text: String) in Set(text.matches(of: /\{([a-zA-Z_.]+)\}/).map { String($0.1) }) }
                #expect(names(value) == names(englishValue), "\(language) \(key): \(value)")
            }
        }
    }

    @Test func theLanguageSettingIsATagWithStrings() throws {
        #expect(try ConfigFile.parse("language: fr\n").language == "fr")
        #expect(try ConfigFile.parse("language: pt_BR\n").language == "pt-BR")
        #expect(try ConfigFile.parse("title: x\n").language == "en")
        for bad in ["f", "français", "en-", "fr--x", "12"] {
            #expect(throws: ConfigError.self, "\(bad)") { _ = try ConfigFile.parse("language: \"\(bad)\"\n") }
        }
        // A tag without strings is refused, naming the languages there are.
        var values = Settings()
        values.language = "ko"
        #expect {
            _ = try BuildConfiguration.loadTheme(values)
        } throws: { error in
            let text = String(describing: error)
            return text.contains("language") && text.contains("ko") && text.contains("de, en, es, fr, ja, zh")
        }
        // A region falls back to its language's strings, with the region's dates.
        values.language = "fr-CA"
        #expect(try BuildConfiguration.loadTheme(values).strings.text("nav.tags") == "Mots-clés")
    }

    @Test func datesAndNumbersAreWrittenTheLanguagesWay() throws {
        let day = LocalDay(year: 2024, month: 3, day: 10)
        func strings(_ tag: String) throws -> SiteStrings { try Theme.load("default", language: tag).strings }
        #expect(try strings("en").day(day) == "Sunday, March 10, 2024")
        #expect(try strings("en-GB").day(day) == "Sunday, 10 March 2024")
        #expect(try strings("fr").day(day) == "dimanche 10 mars 2024")
        #expect(try strings("de").day(day) == "Sonntag, 10. März 2024")
        #expect(try strings("es").day(day) == "domingo, 10 de marzo de 2024")
        #expect(try strings("ja").day(day) == "2024年3月10日 日曜日")
        #expect(try strings("zh").day(day) == "2024年3月10日 星期日")
        #expect(try strings("fr").heading(strings("fr").day(day)) == "Dimanche 10 mars 2024")
        #expect(try strings("fr").month(day) == "mars 2024" && strings("de").month(day) == "März 2024")
        #expect(try strings("fr").range(LocalDay(year: 2024, month: 3, day: 30), LocalDay(year: 2024, month: 4, day: 2)) == "30 mars\u{2009}–\u{2009}2 avril 2024", "ICU's thin spaces around the dash")
        #expect(try strings("en").range(LocalDay(year: 2024, month: 3, day: 3), LocalDay(year: 2024, month: 3, day: 5)) == "March 3\u{2009}–\u{2009}5, 2024")
        let evening = try #require(CaptureDate(exif: "2024:03:10 23:30:05", offset: "-05:00", source: .original))
        #expect(try strings("fr").time(evening) == "23:30 (UTC−05:00)")
        #expect(try strings("en").time(evening).hasPrefix("11:30") && strings("en").time(evening).contains("PM"))
        #expect(try strings("fr").grouped(1_234_567) == "1\u{202F}234\u{202F}567" && strings("de").grouped(1234) == "1.234")
        #expect(try strings("de").fileSize(12_345_678) == "12 MB" && strings("fr").fileSize(1_234_567) == "1,2 Mo" && strings("en").fileSize(850_000) == "850 KB")
        #expect(try strings("en").fileSize(3_400_000_000) == "3.4 GB" && strings("ja").fileSize(999) == "1 KB")
    }

    @Test func countsTakeTheLanguagesPluralForms() throws {
        let fr = try Theme.load("default", language: "fr").strings
        #expect(fr.count("count.photos", 0) == "0 photo" && fr.count("count.photos", 1) == "1 photo" && fr.count("count.photos", 2) == "2 photos")
        #expect(fr.count("count.photos", 1_000_000) == "1\u{202F}000\u{202F}000 de photos")
        let ja = try Theme.load("default", language: "ja").strings
        #expect(ja.count("count.photos", 1) == "1 枚の写真")
        let ru = SiteStrings.pluralRule("ru"), pl = SiteStrings.pluralRule("pl")
        #expect([1, 2, 5, 11, 21, 22, 112].map(ru) == ["one", "few", "many", "many", "one", "few", "many"])
        #expect([1, 2, 5, 12, 22, 25].map(pl) == ["one", "few", "many", "many", "few", "many"])
        #expect(SiteStrings.fill("{a} & {b} {c}", ["a": "x", "b": "y"]) == "x & y {c}")
        #expect(SiteStrings.fill("{{a}} {} {a", ["a": "é"]) == "{é} {} {a")
        #expect(SiteStrings.fill("Été {a}: 🐱 {b}!", ["a": "x", "b": "{a}"]) == "Été x: 🐱 {a}!")
        #expect(SiteStrings.fill("no placeholder", ["a": "x"]) == "no placeholder")
    }

    @Test func templatesTakeTheirWordsEscapedOnceAtLoad() throws {
        let strings = try SiteStrings(languageTag: "fr", files: [
            ("en", "a.b = Page {number} of {count}\nodd = <b>{not a name}</b> {{x}}\n"), ("fr", "a.b = page {number} sur {count}\n"),
        ])
        #expect(strings.substitute(in: "<p>{{t:a.b}}</p>") == "<p>page {{number}} sur {{count}}</p>")
        #expect(strings.substitute(in: "{{t:odd}}") == "&lt;b&gt;&#123;not a name&#125;&lt;/b&gt; &#123;&#123;x&#125;&#125;", "a locale file cannot reach the template's values other than by {name}")
        #expect(strings.substitute(in: "{{t:missing.key}}") == "missing.key")
        #expect(throws: ThemeError.self) { _ = try SiteStrings(languageTag: "en", files: [("en", "no equals sign\n")]) }
    }

    /// A French site: every word of the interface in French (no English
    /// string that French translates differently is left on any page), the
    /// dates ICU's French, `<html lang="fr">`, the scripts' strings French.
    @Test func aFrenchSiteHasNoEnglishLeft() async throws {
        let library = try EndToEndTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        settings.language = "fr"
        settings.albumDownloads = true
        settings.photosPerPage = 2
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = library.output
        let english = try Self.keys("en"), french = try Self.keys("fr")
        // English fragments (around placeholders) that French says otherwise.
        var fragments: Set<String> = []
        for (key, value) in english where french[key] != value {
            for piece in value.split(separator: /\{[a-zA-Z_.]+\}/) {
                let text = piece.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
                if text.count >= 5, !french.values.contains(where: { $0.contains(text) }) { fragments.insert(text) }
            }
        }
        #expect(fragments.contains("Download the original") && fragments.contains("across all albums"))
        let pages = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".html") }
        #expect(pages.count > 10)
        for page in pages {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            #expect(html.contains("<html lang=\"fr\">"), "\(page)")
            // What a reader sees or hears: text, alt, title, aria-label, placeholder (not class names).
            let text = html.replacing(/\s(class|id|data-[a-z]+|href|src|srcset)="[^"]*"/, with: "")
                .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            for fragment in fragments where text.contains(fragment) {
                Issue.record("\(page) still says '\(fragment)'")
            }
        }
        let photo = try String(contentsOf: out.appendingPathComponent("albums/trips/paris/rotated.html"), encoding: .utf8)
        #expect(photo.contains("<dt>Prise le</dt><dd>dimanche 10 mars 2024 à 23:30 (UTC+02:00)</dd>"))
        #expect(photo.contains("<dt>Ouverture</dt><dd>ƒ/2,8</dd>") && photo.contains("<dt>Focale</dt><dd>35 mm</dd>"), "a decimal comma")
        #expect(photo.contains("Télécharger l’original") == false, "no originals published here")
        let moments = try String(contentsOf: out.appendingPathComponent("moments/index.html"), encoding: .utf8)
        #expect(moments.contains("dans tous les albums") && moments.contains("Aller à un mois") && moments.contains(">Mars <"))
        let album = try String(contentsOf: out.appendingPathComponent("albums/trips/paris/index.html"), encoding: .utf8)
        #expect(album.contains("Télécharger l’album <span class=\"album-download-size\">(ZIP, ") && album.contains(" Ko)</span>"))
        let script = try String(contentsOf: out.appendingPathComponent("static/strings.js"), encoding: .utf8)
        #expect(script.contains("\"close\": \"Fermer la visionneuse\"") && script.contains("window.gallerygenText"))
        let feed = try String(contentsOf: out.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(feed.contains("xml:lang=\"fr\""))
    }

    /// A theme adds a language and overrides a string; a change of strings
    /// re-renders the pages.
    @Test func aThemeAddsAndOverridesStrings() async throws {
        let library = try EndToEndTests.makeLibrary()
        try library.folder.write("mytheme/locales/fr.txt", Array("nav.albums = Mes albums\n".utf8))
        try library.folder.write("mytheme/locales/pt.txt", Array("nav.albums = Álbuns\nnav.moments = Momentos\n".utf8))
        var settings = EndToEndTests.settings(library)
        settings.theme = library.folder.url.appendingPathComponent("mytheme").path
        settings.language = "fr"
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        var index = try String(contentsOf: library.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(">Mes albums</a>") && index.contains(">Moments</a>") && index.contains("aria-label=\"Rechercher des photos\""))
        settings.language = "pt"
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        index = try String(contentsOf: library.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("<html lang=\"pt\">") && index.contains(">Álbuns</a>") && index.contains(">Momentos</a>"))
        #expect(index.contains("aria-label=\"Search photos\""), "strings pt lacks come from English")
        try library.folder.write("mytheme/locales/pt.txt", Array("nav.albums = Os álbuns\n".utf8))
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        index = try String(contentsOf: library.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(">Os álbuns</a>"), "a changed string renders the pages again")
    }
}
