import Foundation
@testable import GalleryCore
@testable import GalleryKit
import SiteOutput
import Testing
import GalleryTestSupport

/// The place pages and the map (`moment_places`, `map`), built for real
/// from photos with GPS in several countries: every place listed with its
/// region and country, linked from moments, item facts and search, a map
/// page with its assets, no photo's coordinates anywhere, and nothing of
/// it when the settings are off.
@Suite struct PlacePagesTests {
    /// Photo positions: two Springfields, two Japanese cities, the southern and western hemispheres.
    static let photos: [(album: String, name: String, latitude: Double, longitude: Double, day: String)] = [
        ("USA", "il", 39.8017, -89.6437, "2024:07:01"),
        ("USA", "ma", 42.1015, -72.5898, "2024:07:05"),
        ("Japan", "kyoto1", 35.0394, 135.7292, "2025:05:03"),
        ("Japan", "kyoto2", 35.0260, 135.7806, "2025:05:03"),
        ("Japan", "osaka", 34.6873, 135.5262, "2025:05:04"),
        ("Trips", "sydney", -33.8568, 151.2153, "2023:01:10"),
        ("Trips", "rio", -22.9519, -43.2105, "2023:02:10"),
    ]

    static func library(_ folder: TemporaryFolder) throws {
        for (i, p) in photos.enumerated() {
            let exif = Fixtures.cameraExif(original: "\(p.day) 12:00:00", offset: "+00:00", location: (p.latitude, p.longitude))
            try folder.write("src/\(p.album)/\(p.name).jpg", try IncrementalTests.photo(i, exif: exif))
        }
    }

    static func settings(_ folder: TemporaryFolder) -> BuildSettings {
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 64, height: 48)], previewBoxes: [PixelSize(width: 128, height: 96)], jobs: 2)
        settings.momentPlaces = true
        settings.map = true
        settings.baseURL = "https://photos.example.org/"
        return settings
    }

    static func files(_ out: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: out.path) {
            let path = out.appendingPathComponent(relative).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? Int ?? 0) > 0,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            files[relative] = String(decoding: data, as: UTF8.self)
        }
        return files
    }

    @Test func placesAreListedLinkedAndMapped() async throws {
        let folder = try TemporaryFolder()
        try Self.library(folder)
        let settings = Self.settings(folder)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let files = try Self.files(settings.output)
        let index = try #require(files["places/index.html"])
        // Countries, then places, the region telling the Springfields apart.
        for text in ["<h2 class=\"place-country-name\">United States", "Springfield, Illinois", "Springfield, Massachusetts",
                     "<h2 class=\"place-country-name\">Japan", ">Kyoto<", ">Osaka", "Australia", "Sydney", "Brazil", "Rio de Janeiro"] {
            #expect(index.contains(text), "places/index.html lacks \(text)")
        }
        #expect(index.contains("href=\"map.html\""), "the index links the map")
        #expect(index.contains("5 places in 4 countries") || index.contains("6 places in 4 countries"))
        // A page per place, with its items, its full name and its sharing tags.
        let illinois = try #require(files.first { $0.key.hasPrefix("places/springfield-illinois") && $0.key.hasSuffix("/index.html") }?.value)
        #expect(illinois.contains("<h1 class=\"page-title\">Springfield, Illinois, United States</h1>"))
        #expect(illinois.components(separatedBy: "<img ").count - 1 == 1)
        #expect(illinois.contains("og:title") && illinois.contains("rel=\"canonical\""))
        let kyoto = try #require(files.first { $0.key.hasPrefix("places/kyoto") && $0.key.hasSuffix("/index.html") })
        #expect(kyoto.value.components(separatedBy: "<img ").count - 1 == 2, "both Kyoto photos")
        // Linked from the moments headings, the item facts and search.
        let moments = try #require(files["moments/index.html"])
        #expect(moments.contains("<a class=\"moment-place\" href=\"../\(kyoto.key)\">Kyoto</a>"))
        let item = try #require(files["albums/japan/kyoto1.html"])
        #expect(item.contains("<dd><a href=\"../../\(kyoto.key)\">Kyoto, Japan</a></dd>"))
        #expect(try #require(files["search/index.js"]).contains("\"Springfield, Illinois, United States\""))
        // The header names the places on every page.
        #expect(try #require(files["index.html"]).contains(">Places</a>"))
        // The map page, its script and the world, and its data: places, not photos.
        let mapPage = try #require(files["places/map.html"])
        #expect(mapPage.contains("data-map=\"{&quot;places&quot;:["))
        #expect(mapPage.contains("og:title") && mapPage.contains("rel=\"canonical\""))
        #expect(files["static/map/map.js"] != nil && (files["static/map/world.js"]?.count ?? 0) > 30_000)
        #expect(!mapPage.contains("data-tiles"), "no tiles unless asked for")
        // No photo coordinate anywhere in OUT, at any precision a file could carry.
        for p in Self.photos {
            for value in [p.latitude, p.longitude] {
                for digits in [2, 3, 4] {
                    let text = String(format: "%.\(digits)f", value)
                    let hits = files.filter { $0.value.contains(text) }.map(\.key)
                    #expect(hits.isEmpty, "\(text) found in \(hits)")
                }
            }
        }
    }

    @Test func turnedOffNothingOfItIsBuilt() async throws {
        let folder = try TemporaryFolder()
        try Self.library(folder)
        var settings = Self.settings(folder)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        // The map off: the places stay, the map and its assets go.
        settings.map = false
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        var files = try Self.files(settings.output)
        #expect(files["places/index.html"] != nil)
        #expect(files["places/map.html"] == nil && !files.keys.contains { $0.hasPrefix("static/map/") })
        #expect(!(files["places/index.html"] ?? "").contains("map.html"))
        // Places off: no place page, link or name.
        settings.momentPlaces = false
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        files = try Self.files(settings.output)
        #expect(!files.keys.contains { $0.hasPrefix("places/") })
        for (path, text) in files where !path.hasPrefix("static/") {
            #expect(!text.contains("Springfield") && !text.contains("Kyoto"), "\(path) names a place")
        }
        // Online tiles only when asked for, with their credit.
        settings.momentPlaces = true
        settings.map = true
        settings.mapTiles = "https://tile.example.org/{z}/{x}/{y}.png"
        settings.mapTilesAttribution = "© Example tiles"
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let tiled = try Self.files(settings.output)["places/map.html"] ?? ""
        #expect(tiled.contains("data-tiles=\"https://tile.example.org/{z}/{x}/{y}.png\"") && tiled.contains("© Example tiles"))
        settings.mapTiles = ""
        settings.mapTilesAttribution = ""
        // On again: the same site as a clean build with places.
        settings.momentPlaces = true
        settings.map = true
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let clean = try TemporaryFolder()
        try Self.library(clean)
        _ = try await GalleryBuilder().build(settings: Self.settings(clean), quiet: true)
        #expect(try Self.files(settings.output) == (try Self.files(Self.settings(clean).output)))
    }

    @Test func theTileSettingIsChecked() {
        let type = SettingsSchema.shared.mapTiles.type
        #expect(type.read(.text("https://tile.example.org/{z}/{x}/{y}.png")) == "https://tile.example.org/{z}/{x}/{y}.png")
        #expect(type.read(.text("")) == "")
        #expect(type.read(.text("http://tile.example.org/{z}/{x}/{y}.png")) == nil, "plain HTTP")
        #expect(type.read(.text("https://tile.example.org/{z}/{x}.png")) == nil, "no {y}")
        #expect(type.read(.text("https://t.example.org/{z}/{x}/{y}.png\"><script>")) == nil)
    }
}
