import Foundation
import GalleryCore
@testable import Video
@testable import Metadata
import Testing
import GalleryTestSupport
@testable import Rendering

/// Offline place names (`moment_places`): the built-in GeoNames table and
/// how a name is chosen.
@Suite struct PlaceTests {
    static let finder = try! PlaceFinder.load()

    @Test func theTableLoadsWhole() {
        // cities1000 holds about 170,000 places; a cut or damaged table would not.
        #expect(Self.finder.count > 150_000)
    }

    @Test(arguments: [
        (35.0394, 135.7292, "Kyoto"),            // Kinkaku-ji: not the ward 2.7 km away
        (34.9671, 135.7727, "Kyoto"),            // Fushimi Inari
        (34.6873, 135.5262, "Osaka"),            // Osaka castle: not the hamlet 2.3 km away
        (35.6595, 139.7005, "Tokyo"),            // Shibuya crossing
        (40.7580, -73.9855, "New York City"),    // Times Square
        (48.8584, 2.2945, "Paris"),              // the Eiffel tower
        (48.8049, 2.1204, "Versailles"),         // the palace: its own town, not Paris
        (51.5081, -0.1281, "London"),            // Trafalgar Square
        (46.0207, 7.7491, "Zermatt"),
        (37.7456, -119.5936, "Yosemite Valley"),  // a small place, far from any other
    ])
    func namesWhatAPersonWouldSay(latitude: Double, longitude: Double, expected: String) {
        #expect(Self.finder.name(near: GPSCoordinate(latitude: latitude, longitude: longitude)) == expected)
    }

    @Test func noNameFarFromAnyPlace() {
        #expect(Self.finder.name(near: GPSCoordinate(latitude: 30, longitude: -40)) == nil)        // mid-Atlantic
        #expect(Self.finder.name(near: GPSCoordinate(latitude: -89.9, longitude: 10)) == nil)      // the South Pole
        #expect(Self.finder.name(near: GPSCoordinate(latitude: .nan, longitude: 10)) == nil)
        #expect(Self.finder.name(near: GPSCoordinate(latitude: 95, longitude: 10)) == nil)
    }

    /// A table in make_places.py's layout (places given in cell order), all
    /// in one country ("ZZ", "Testland") and region ("North").
    static func table(_ places: [(latitude: Double, longitude: Double, population: Double, name: String)]) -> [UInt8] {
        var bytes = Array("GGPLACE2".utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        let names = places.map { Array($0.name.utf8) }
        u32(UInt32(places.count))
        u32(UInt32(names.joined().count))
        u16(1)
        u16(1)
        for p in places { withUnsafeBytes(of: Int32((p.latitude * 100_000).rounded()).littleEndian) { bytes += $0 } }
        for p in places { withUnsafeBytes(of: Int32((p.longitude * 100_000).rounded()).littleEndian) { bytes += $0 } }
        for p in places { bytes.append(UInt8(min(255, (10 * log(p.population + 1)).rounded()))) }
        for name in names { bytes.append(UInt8(name.count)) }
        for _ in places { bytes.append(0) }
        for _ in places { u16(0) }
        bytes += names.joined()
        bytes += Array("ZZ".utf8)
        bytes.append(8)
        bytes += Array("Testland".utf8)
        bytes.append(5)
        bytes += Array("North".utf8)
        return bytes
    }

    @Test(arguments: [
        (39.8017, -89.6437, "Springfield, Illinois, United States"),
        (42.1015, -72.5898, "Springfield, Massachusetts, United States"),
        (35.0394, 135.7292, "Kyoto, Kyoto, Japan"),
        (48.8584, 2.2945, "Paris, Ile-de-France, France"),
    ])
    func placesKnowTheirRegionAndCountry(latitude: Double, longitude: Double, expected: String) throws {
        let place = try #require(Self.finder.place(near: GPSCoordinate(latitude: latitude, longitude: longitude)))
        // "Kyoto, Kyoto" is said once: the region's name is the city's.
        #expect(place.fullName == expected.replacingOccurrences(of: "Kyoto, Kyoto", with: "Kyoto"))
        #expect(!place.countryCode.isEmpty)
        // The marker stands on the town, not on the photo.
        #expect(abs(Double(place.latitudeE5) / 100_000 - latitude) < 0.3)
    }

    @Test func theDateLineAndThePolesDoNotTrap() throws {
        // Across 180°: a place just west of the line names a photo just east of it.
        let bytes = Self.table([(-16.8, -179.97, 5000, "East"), (-16.8, 179.97, 2000, "West")])
        try bytes.withUnsafeBytes { raw in
            let finder = try PlaceFinder(raw)
            #expect(finder.count == 2)
            #expect(finder.place(near: GPSCoordinate(latitude: -16.8, longitude: 179.9))?.fullName == "West, North, Testland")
            #expect(finder.name(near: GPSCoordinate(latitude: -16.8, longitude: 179.999)) == "East")   // 3 km vs 3 km: larger wins
            #expect(finder.name(near: GPSCoordinate(latitude: -16.8, longitude: 179.9)) == "West")
            #expect(finder.name(near: GPSCoordinate(latitude: -16.8, longitude: -179.5)) == "East")   // 50 km: only the fallback reaches
            #expect(finder.name(near: GPSCoordinate(latitude: -16.8, longitude: -179)) == nil)
        }
        // The poles are searched without a trap; Svalbard's town is found.
        _ = Self.finder.name(near: GPSCoordinate(latitude: 90, longitude: 180))
        _ = Self.finder.name(near: GPSCoordinate(latitude: -90, longitude: -180))
        #expect(Self.finder.name(near: GPSCoordinate(latitude: 78.2232, longitude: 15.6267)) == "Longyearbyen")
    }

    @Test func aDamagedTableIsRefused() {
        let bytes: [UInt8] = Array("GGPLACE2".utf8) + [5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0]
        bytes.withUnsafeBytes { raw in
            #expect(throws: MetadataError.self) { _ = try PlaceFinder(raw) }
        }
        // A region index past the regions.
        var outOfRange = Self.table([(10, 10, 5000, "One")])
        let regionAt = 20 + 13 - 2
        outOfRange[regionAt] = 7
        outOfRange.withUnsafeBytes { raw in
            #expect(throws: MetadataError.self) { _ = try PlaceFinder(raw) }
        }
        [UInt8](repeating: 0, count: 40).withUnsafeBytes { raw in
            #expect(throws: MetadataError.self) { _ = try PlaceFinder(raw) }
        }
    }

    @Test func phoneVideoLocationsAreRead() {
        let point = VideoProbe.location(iso6709: "+35.0394+135.7292+012.345/")
        #expect(point == GPSCoordinate(latitude: 35.0394, longitude: 135.7292))
        #expect(VideoProbe.location(iso6709: "-33.8568+151.2153/") == GPSCoordinate(latitude: -33.8568, longitude: 151.2153))
        #expect(VideoProbe.location(iso6709: "+0000.0000+00000.0000/") == nil)
        #expect(VideoProbe.location(iso6709: "garbage") == nil)
        #expect(VideoProbe.location(iso6709: "+95.0+10.0/") == nil)
    }

    @Test func sectionsNameTheirPlacesMostPhotosFirst() throws {
        let site = try MomentsTests.site([])
        #expect(site.placeLabel([]) == nil)
        #expect(site.placeLabel(["Kyoto"]) == "Kyoto")
        #expect(site.placeLabel(["Kyoto", "Osaka"]) == "Kyoto & Osaka")
        #expect(site.placeLabel(["Kyoto", "Osaka", "Nara"]) == "Kyoto, Osaka & Nara")
        #expect(site.placeLabel(["Kyoto", "Osaka", "Nara", "Kobe", "Uji"]) == "Kyoto, Osaka & 3 other places")
        #expect(site.placeLabel(["Kyoto", "Osaka", "Nara"]) == "Kyoto, Osaka & Nara")
        let german = try MomentsTests.site([]) { $0.language = "de" }
        #expect(german.placeLabel(["Kyoto", "Osaka", "Nara"]) == "Kyoto, Osaka und Nara")
        #expect(german.placeLabel(["Kyoto", "Osaka", "Nara", "Kobe"]) == "Kyoto, Osaka und 2 weitere Orte")
    }
}
