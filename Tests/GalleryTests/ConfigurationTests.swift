import Foundation
import Testing
@testable import Configuration
@testable import GalleryCore
@testable import GalleryKit

@Suite struct ConfigurationTests {
    @Test func templateParsesToTheDefaults() throws {
        let config = try ConfigFile.parse(ConfigTemplate.text)
        #expect(config.title == "Photos")
        #expect(config.format == .webp)
        #expect(config.thumbnailSizes == BuildSettings.defaultThumbnailBoxes)
        #expect(config.previewSizes == BuildSettings.defaultPreviewBoxes)
        #expect(config.site == SiteOptions())
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
        #expect(config.format == .jpeg && config.quality == 90 && config.jobs == 3)
        #expect(config.thumbnailSizes == [PixelSize(width: 200, height: 150), PixelSize(width: 400, height: 300)])
        #expect(config.previewSizes == [PixelSize(width: 1024, height: 768)])
        #expect(config.maxMegapixels == 50)
        #expect(config.site.theme == "slate")
        #expect(config.site.photosPerPage == 60)
        #expect(config.site.momentGrouping == .gap(hours: 2.5))
        #expect(config.site.momentOrder == .ascending)
        #expect(config.site.albumSort == .name && config.site.albumOrder == .descending)
        #expect(config.site.spacing == 8 && config.site.rowHeight == 180 && config.site.allowHTML)
    }

    @Test func errorsNameTheKeyAndLine() {
        func error(_ text: String) -> String {
            do { _ = try ConfigFile.parse(text); return "no error" } catch { return error.description }
        }
        #expect(error("title: x\nqualty: 80\n") .hasPrefix("gallery.yml:2: key 'qualty': unknown key"))
        #expect(error("title: x\nquality: 180\n") == "gallery.yml:2: key 'quality': must be a whole number from 1 to 100")
        #expect(error("format: gif\n") == "gallery.yml:1: key 'format': must be one of: webp, jpeg, jpg")
        #expect(error("moments:\n  group_by: week\n") == "gallery.yml:2: key 'moments.group_by': must be one of: day, month, gap")
        #expect(error("moments:\n  colour: red\n").hasPrefix("gallery.yml:2: key 'moments.colour': unknown key"))
        #expect(error("thumbnail_sizes: [big]\n").hasPrefix("gallery.yml:1: key 'thumbnail_sizes': must be a list"))
        #expect(error("allow_html: maybe\n") == "gallery.yml:1: key 'allow_html': must be true or false")
        #expect(error("title: [unclosed\n").hasPrefix("gallery.yml:2: not valid YAML"))
        #expect(error("- just\n- a list\n").hasPrefix("gallery.yml:1: expected a mapping"))
        #expect(error("title: a\ntitle: b\n") == "gallery.yml:2: key 'title': is given twice")
        #expect(error("") == "no error")
    }

    @Test func commandLineOverridesTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/gallery.yml", Array("title: From file\nformat: jpeg\njobs: 1\nphotos_per_page: 7\n".utf8))
        let source = folder.url.appendingPathComponent("src")
        let (settings, site) = try BuildConfiguration.resolve(
            source: source, output: folder.url.appendingPathComponent("out"), configFile: nil,
            overrides: CommandLineOverrides(title: "From flag", jobs: 2))
        #expect(settings.title == "From flag")
        #expect(settings.format == .jpeg && settings.quality == 85)
        #expect(settings.jobs == 2)
        #expect(site.photosPerPage == 7)
        // An explicit --config that does not exist is an error; a missing default file is not.
        #expect(throws: ConfigError.self) {
            try BuildConfiguration.resolve(source: source, output: source, configFile: folder.url.appendingPathComponent("nope.yml"),
                                           overrides: CommandLineOverrides())
        }
        _ = try BuildConfiguration.resolve(source: folder.url, output: source, configFile: nil, overrides: CommandLineOverrides())
    }

    @Test func aRelativeThemeFolderIsTakenFromTheConfigFilesFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("library/gallery.yml", Array("theme: ../mytheme\n".utf8))
        let config = try ConfigFile.load(folder.url.appendingPathComponent("library/gallery.yml"))
        #expect(config.site.theme == folder.url.appendingPathComponent("mytheme").standardizedFileURL.path)
        #expect(try ConfigFile.parse("theme: slate\n").site.theme == "slate")
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
        #expect(settings == AlbumSettings(title: "Summer <2024>", description: "Ten days on the **lake**.\n", cover: "IMG_1.jpg",
                                          sort: .name, order: .descending, hidden: true))
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("cover: ../../etc/passwd\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("cover: ..\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("hidden: yess\n") }
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("titel: x\n") }
        #expect(try AlbumSidecar.parse("") == AlbumSettings())
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
