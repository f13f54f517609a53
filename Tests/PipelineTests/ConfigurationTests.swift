import Foundation
import Testing
import GalleryTestSupport
@testable import Configuration
@testable import GalleryCore
@testable import Planning
@testable import GalleryKit

@Suite struct ConfigurationTests {
    @Test func templateParsesToTheDefaults() throws {
        let config = try ConfigFile.parse(ConfigTemplate.text)
        #expect(config == Settings())
        #expect(config.title == "Photos")
        #expect(config.formats == [.webp])
        #expect(config.thumbnailBoxes == [PixelSize(width: 280, height: 210), PixelSize(width: 400, height: 300), PixelSize(width: 560, height: 420)])
        // Every setting is in the template, with its help line.
        for setting in SettingsSchema.all {
            let leaf = setting.key.split(separator: ".").last.map(String.init) ?? setting.key
            #expect(ConfigTemplate.text.contains("\(leaf): ") && ConfigTemplate.text.contains(setting.help), "\(setting.key)")
        }
    }

    /// `gallerygen init`'s examples, uncommented, are accepted and mean what they show.
    @Test func templateExamplesRoundTrip() throws {
        var lines = ConfigTemplate.text.components(separatedBy: "\n")
        var uncommented = 0
        for i in lines.indices.dropFirst() where lines[i - 1].hasSuffix("For example:") {
            lines[i] = lines[i].replacingOccurrences(of: "# ", with: "", options: [], range: lines[i].range(of: "# "))
            uncommented += 1
        }
        #expect(uncommented == SettingsSchema.all.count { $0.exampleText != nil } && uncommented >= 6)
        let config = try ConfigFile.parse(lines.joined(separator: "\n"))
        for setting in SettingsSchema.all {
            guard let example = setting.exampleText else { continue }
            #expect(config.text(of: setting) == example, "\(setting.key): the example reads back as written")
        }
        #expect(!ConfigTemplate.text.components(separatedBy: "\n").contains { $0.contains("# ") && $0.hasSuffix(": 4") }, "no placeholder values")
    }

    @Test func readsEverySetting() throws {
        let config = try ConfigFile.parse("""
        title: "Léa's <photos>"
        theme: slate
        format: jpeg
        quality: 90
        thumbnail_sizes: 200x150, 400x300
        preview_sizes: [1024x768]
        jobs: 3
        max_megapixels: 50
        photos_per_page: 60
        moments:
          group_by: gap
          gap_hours: 2.5
          order: oldest
        album_sort: name
        album_order: descending
        spacing: 8
        row_height: 180
        allow_html: true
        """)
        #expect(config.title == "Léa's <photos>")
        #expect(config.formats == [.jpeg] && config.quality == 90 && config.jobs == 3)
        #expect(config.thumbnailBoxes == [PixelSize(width: 200, height: 150), PixelSize(width: 400, height: 300)])
        #expect(config.previewBoxes == [PixelSize(width: 1024, height: 768)])
        #expect(config.maxMegapixels == 50 && config.maximumPixels == 50_000_000)
        #expect(config.theme == "slate")
        #expect(config.photosPerPage == 60)
        #expect(config.momentGrouping == .gap(hours: 2.5))
        #expect(config.momentOrder == .ascending)
        #expect(config.albumSort == .name && config.albumOrder == .descending)
        #expect(config.spacing == 8 && config.rowHeight == 180 && config.allowHTML)
        #expect(config.origin(ofKey: "quality") == .file("gallery.yml", line: 4))
        #expect(config.origin(ofKey: "keep_location") == .defaultValue)
    }

    @Test func errorsNameTheKeyAndLine() {
        func error(_ text: String) -> String {
            do { _ = try ConfigFile.parse(text); return "no error" } catch { return error.description }
        }
        #expect(error("title: x\nqualty: 80\n") .hasPrefix("gallery.yml:2: key 'qualty': unknown key"))
        #expect(error("title: x\nquality: 180\n") == "gallery.yml:2: key 'quality': must be a whole number from 1 to 100 (got '180')")
        #expect(error("formats: gif\n") == "gallery.yml:1: key 'formats': must be webp or jpeg, alone or after avif: webp, jpeg, [avif, webp] or [avif, jpeg] (got 'gif')")
        #expect(error("formats: [avif, webp]\n") == "no error")
        #expect(error("formats: [avif]\n").hasPrefix("gallery.yml:1: key 'formats': must be webp or jpeg, alone or after avif"))
        #expect(error("moments:\n  group_by: week\n") == "gallery.yml:2: key 'moments.group_by': must be one of: day, month, gap (got 'week')")
        #expect(error("moments:\n  colour: red\n").hasPrefix("gallery.yml:2: key 'moments.colour': unknown key (known: moments.group_by"))
        #expect(error("moments: 3\n").hasPrefix("gallery.yml:1: key 'moments': expected a mapping"))
        #expect(error("thumbnail_sizes: [big]\n") == "gallery.yml:1: key 'thumbnail_sizes': must be WxH boxes, e.g. 1600x1200, or several: 800x600,1600x1200 (got [big])")
        #expect(error("thumbnail_sizes: [[1, 2]]\n").hasPrefix("gallery.yml:1: key 'thumbnail_sizes': must be WxH boxes"))
        #expect(error("allow_html: maybe\n") == "gallery.yml:1: key 'allow_html': must be true or false (got 'maybe')")
        #expect(error("quality: [1]\n") == "gallery.yml:1: key 'quality': must be a whole number from 1 to 100 (got [1])")
        #expect(error("title: [unclosed\n").hasPrefix("gallery.yml:2: not valid YAML"))
        #expect(error("- just\n- a list\n").hasPrefix("gallery.yml:1: expected a mapping"))
        #expect(error("title: a\ntitle: b\n") == "gallery.yml:2: key 'title': is given twice")
        #expect(error("") == "no error")
    }

    @Test func flagsAreCheckedByTheSameTypes() throws {
        func error(_ flag: String, _ value: String) -> String {
            var settings = Settings()
            do { try SettingFlags.apply([(flag, value)], to: &settings); return "no error" } catch { return error.description }
        }
        #expect(error("preview-size", "abc") == "--preview-size: must be WxH boxes, e.g. 1600x1200, or several: 800x600,1600x1200 (got 'abc')")
        #expect(error("quality", "0") == "--quality: must be a whole number from 1 to 100 (got '0')")
        #expect(error("jobs", "-1") == "--jobs: must be a whole number from 1 to 256 (got '-1')")
        let formats = "webp or jpeg, alone or after avif: webp, jpeg, [avif, webp] or [avif, jpeg]"
        #expect(error("formats", "png") == "--formats: must be \(formats) (got 'png')")
        // AVIF needs a WebP or JPEG after it: chat apps and older browsers show no AVIF.
        #expect(error("formats", "avif") == "--formats: must be \(formats) (got 'avif')")
        #expect(error("formats", "webp,avif") == "--formats: must be \(formats) (got 'webp,avif')")
        #expect(error("formats", "avif, webp") == "no error")
        #expect(error("quality", "85") == "no error")
        var settings = Settings()
        try SettingFlags.apply([("thumbnail-size", "100x80,200x160"), ("format", "JPG")], to: &settings)
        #expect(settings.thumbnailBoxes == [PixelSize(width: 100, height: 80), PixelSize(width: 200, height: 160)])
        #expect(settings.formats == [.jpeg])
        // `format`, the setting's name before AVIF, is still read.
        #expect(settings.origin(ofKey: "formats") == .flag("format"))
        try SettingFlags.apply([("formats", "AVIF,jpg")], to: &settings)
        #expect(settings.formats == [.avif, .jpeg])
    }

    @Test func commandLineOverridesTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/gallery.yml", Array("title: From file\nformat: jpeg\njobs: 1\nphotos_per_page: 7\n".utf8))
        let source = folder.url.appendingPathComponent("src")
        let resolved = try BuildConfiguration.resolve(
            source: source, output: folder.url.appendingPathComponent("out"), configFile: nil,
            flags: [("title", "From flag"), ("jobs", "2")])
        let settings = resolved.settings
        #expect(settings.title == "From flag")
        #expect(settings.formats == [.jpeg] && settings.quality == 85)
        #expect(settings.jobs == 2)
        #expect(settings.photosPerPage == 7)
        // An explicit --config that does not exist is an error; a missing default file is not.
        #expect(throws: ConfigError.self) {
            try BuildConfiguration.resolve(source: source, output: source, configFile: folder.url.appendingPathComponent("nope.yml"))
        }
        _ = try BuildConfiguration.resolve(source: folder.url, output: source, configFile: nil)
    }

    @Test func anUnknownThemeFailsBeforeAnyWorkNamingWhereItCameFrom() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/gallery.yml", Array("title: x\ntheme: slat\n".utf8))
        let source = folder.url.appendingPathComponent("src")
        let output = folder.url.appendingPathComponent("out")
        func error(_ flags: [(flag: String, value: String)]) -> String {
            do { _ = try BuildConfiguration.resolve(source: source, output: output, configFile: nil, flags: flags); return "no error" }
            catch { return error.description }
        }
        #expect(error([]).hasPrefix("gallery.yml:2: key 'theme': unknown theme 'slat' (built in: default, slate"))
        #expect(error([("theme", "no-such-theme")]).hasPrefix("--theme: unknown theme 'no-such-theme'"))
        #expect(error([("theme", "slate")]) == "no error")
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing was written")
    }

    @Test func aRelativeThemeFolderIsTakenFromTheConfigFilesFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("library/gallery.yml", Array("theme: ../mytheme\n".utf8))
        var config = Settings()
        try ConfigFile.load(folder.url.appendingPathComponent("library/gallery.yml"), into: &config)
        #expect(config.theme == folder.url.appendingPathComponent("mytheme").standardizedFileURL.path)
        #expect(try ConfigFile.parse("theme: slate\n").theme == "slate")
    }

    /// The README's settings table is the one the schema makes, and its usage
    /// block names every flag `gallerygen build --help` has.
    @Test func readmeAgreesWithTheSchemaAndTheCLI() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(ConfigTemplate.readmeTable), "README's settings table differs from ConfigTemplate.readmeTable")
        guard let usageStart = readme.range(of: "gallerygen build SOURCE"), let usageEnd = readme.range(of: "```", range: usageStart.upperBound..<readme.endIndex) else {
            Issue.record("README has no usage block")
            return
        }
        let usage = readme[usageStart.lowerBound..<usageEnd.lowerBound]
        let help = try GallerygenBinary.run(["build", "--help"])
        let flags = Set(help.matches(of: /--[a-z][a-z-]+/).map { String($0.output) })
        #expect(flags.count > 8)
        for flag in flags { #expect(usage.contains(flag), "README usage block lacks \(flag)") }
        for setting in SettingsSchema.all { if let flag = setting.flag { #expect(flags.contains("--" + flag), "build --help lacks --\(flag)") } }
    }

    @Test func sidecars() throws {
        let settings = try AlbumSidecar.parse("""
        title: Summer <2024>
        description: |
          Ten days on the **lake**.
        cover: IMG_1.jpg
        sort: name
        order: descending
        hidden: true
        """)
        var expected = AlbumSettings(title: "Summer <2024>", description: "Ten days on the **lake**.\n", cover: "IMG_1.jpg",
                                     sort: .name, order: .descending, hidden: true)
        expected.coverLine = 4
        #expect(settings == expected)
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("cover: ../../etc/passwd\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("cover: ..\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("hidden: yess\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("titel: x\n") }
        #expect(try AlbumSidecar.parse("") == AlbumSettings())
        // Stacks: the rules for the album, and single items' part.
        let stacks = try AlbumSidecar.parse("stacks:\n  bursts: false\nphotos:\n  a.jpg:\n    stack: alone\n  b.jpg:\n    stack: cover\n    title: B\n")
        #expect(stacks.stackBursts == false && stacks.stackEdits == nil)
        #expect(stacks.stackChoices == ["a.jpg": .alone, "b.jpg": .cover])
        #expect(stacks.photoWords.keys.sorted() == ["b.jpg"], "a stack choice alone gives no words")
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("stacks:\n  burst: false\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("photos:\n  a.jpg:\n    stack: top\n") }
    }

    @Test func sidecarsShapeTheGallery() {
        let photos = [samplePhoto("trip/b.jpg", "2024:01:01 10:00:00"), samplePhoto("trip/a.jpg", "2024:01:02 10:00:00"),
                      samplePhoto("trip/c.jpg", "2024:01:03 10:00:00"), samplePhoto("secret/x.jpg", "2024:01:01 09:00:00"),
                      samplePhoto("secret/deeper/y.jpg", "2024:01:01 08:00:00")]
        let trip = AlbumPath(components: ["trip"]), secret = AlbumPath(components: ["secret"])
        let gallery = Gallery.assemble(title: "T", photos: photos, sidecars: [
            trip: AlbumSettings(title: "The trip", cover: "c.jpg", sort: .name, order: .descending),
            secret: AlbumSettings(hidden: true),
        ])
        #expect(gallery.albums[trip]?.title == "The trip")
        #expect(gallery.albums[trip]?.photos.map(\.source.fileName) == ["c.jpg", "b.jpg", "a.jpg"])
        #expect(gallery.cover(of: trip)?.source.fileName == "c.jpg")
        #expect(gallery.listedChildren(of: .root) == [trip])
        #expect(gallery.isHidden(AlbumPath(components: ["secret", "deeper"])))
        #expect(!gallery.timelinePhotos.contains { $0.source.fileName == "x.jpg" || $0.source.fileName == "y.jpg" })
        #expect(gallery.photoCount(under: .root) == 3)
    }
}
