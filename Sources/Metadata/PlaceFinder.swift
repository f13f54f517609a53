import CPlaces
import Foundation
import GalleryCore

/// Names where a photo was taken, offline: the town or city its GPS falls
/// in or near, from GeoNames' `cities1000` (170,000 places, CC BY 4.0) built
/// into the program (`Sources/CPlaces`, made by `scripts/make_places.py`).
///
/// The name is chosen the way a person would say it, not the nearest
/// hamlet: among the places within 25 km, the one that best trades size for
/// distance (score = ln(population) − 3 · ln(km + 2)), so Kinkaku-ji is
/// "Kyoto" (3 km) rather than the ward 2.7 km away, and Versailles stays
/// "Versailles" rather than Paris 17 km off. With nothing that close, the
/// nearest place within 60 km; beyond that (at sea), no name.
///
/// Loaded once per build, only when `moment_places` is on; immutable, so
/// every worker shares it.
public struct PlaceFinder: Sendable {
    /// Degrees × 100,000 of each place, sorted by one-degree cell.
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    /// round(10 · ln(population + 1)).
    private let weights: [UInt8]
    /// Where each name starts in `names` (one more entry than places).
    private let nameStarts: [Int32]
    private let names: [UInt8]
    /// Each place's country (index into `countries`, 255: none) and region
    /// (index into `regions`, 65535: none).
    private let countryOf: [UInt8]
    private let regionOf: [UInt16]
    /// Countries: ISO code and name; regions: name.
    private let countries: [(code: String, name: String)]
    private let regions: [String]
    /// The run of places in each one-degree cell, by cell number.
    private let cells: [Int32: Range<Int32>]

    /// How far a place may be to name a photo (km), and how far the nearest
    /// place may be when none is that close.
    static let preferredRadius = 25.0, fallbackRadius = 60.0

    /// The embedded table.
    public static func load() throws(MetadataError) -> PlaceFinder {
        guard let base = gg_places_bytes() else { throw .malformed("the built-in place names are missing") }
        return try PlaceFinder(UnsafeRawBufferPointer(start: base, count: gg_places_count()))
    }

    /// Reads a table in `scripts/make_places.py`'s layout.
    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        func damaged(_ reason: String) -> MetadataError { .malformed("the built-in place names are damaged: " + reason) }
        guard bytes.count >= 20, Array(bytes[0..<8]) == Array("GGPLACE2".utf8) else { throw damaged("not a place table") }
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        let nameBytes = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
        let countryCount = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt16.self)))
        let regionCount = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 18, as: UInt16.self)))
        let header = 20
        guard bytes.count >= header + count * 13 + nameBytes else { throw damaged("wrong length") }
        func int32s(at offset: Int) -> [Int32] {
            (0..<count).map { Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + $0 * 4, as: Int32.self)) }
        }
        latitudes = int32s(at: header)
        longitudes = int32s(at: header + count * 4)
        weights = Array(bytes[(header + count * 8)..<(header + count * 9)])
        var starts = [Int32](repeating: 0, count: count + 1)
        var offset: Int32 = 0
        for i in 0..<count {
            starts[i] = offset
            offset += Int32(bytes[header + count * 9 + i])
        }
        starts[count] = offset
        guard Int(offset) == nameBytes else { throw damaged("names do not add up") }
        nameStarts = starts
        countryOf = Array(bytes[(header + count * 10)..<(header + count * 11)])
        regionOf = (0..<count).map { UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: header + count * 11 + $0 * 2, as: UInt16.self)) }
        let namesStart = header + count * 13
        names = Array(bytes[namesStart..<(namesStart + nameBytes)])
        // The countries and regions: short records after the names.
        var cursor = namesStart + nameBytes
        func text(_ length: Int) throws(MetadataError) -> String {
            guard cursor + length <= bytes.count else { throw damaged("wrong length") }
            defer { cursor += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[cursor..<(cursor + length)]), as: UTF8.self)
        }
        func byte() throws(MetadataError) -> Int {
            guard cursor < bytes.count else { throw damaged("wrong length") }
            defer { cursor += 1 }
            return Int(bytes[cursor])
        }
        var countries: [(code: String, name: String)] = []
        for _ in 0..<countryCount {
            let code = try text(2)
            countries.append((code, try text(try byte())))
        }
        var regions: [String] = []
        for _ in 0..<regionCount { regions.append(try text(try byte())) }
        guard cursor == bytes.count else { throw damaged("wrong length") }
        guard countryOf.allSatisfy({ $0 == 255 || Int($0) < countryCount }), regionOf.allSatisfy({ $0 == 65535 || Int($0) < regionCount }) else {
            throw damaged("an index out of range")
        }
        self.countries = countries
        self.regions = regions
        var cells: [Int32: Range<Int32>] = [:]
        var runStart = 0
        for i in 0..<count where i + 1 == count || Self.cell(latitudes[i + 1], longitudes[i + 1]) != Self.cell(latitudes[i], longitudes[i]) {
            cells[Self.cell(latitudes[i], longitudes[i])] = Int32(runStart)..<Int32(i + 1)
            runStart = i + 1
        }
        self.cells = cells
    }

    /// The cell number of a position: one-degree squares, row by row from the south pole.
    private static func cell(_ latitude: Int32, _ longitude: Int32) -> Int32 {
        cell(latitude: Int(floor(Double(latitude) / 100_000)), longitude: Int(floor(Double(longitude) / 100_000)))
    }

    private static func cell(latitude: Int, longitude: Int) -> Int32 {
        let wrapped = ((longitude + 180) % 360 + 360) % 360
        return Int32((latitude + 90) * 360 + wrapped)
    }

    /// Number of places in the table.
    public var count: Int { latitudes.count }

    /// The name of the place `point` is in or near, or nil (at sea, in a wilderness).
    public func name(near point: GPSCoordinate) -> String? { place(near: point)?.name }

    /// The place `point` is in or near, with its region and country, or nil
    /// (at sea, in a wilderness).
    public func place(near point: GPSCoordinate) -> Place? {
        guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90, abs(point.longitude) <= 180 else { return nil }
        let kmPerDegree = 111.2
        let cosine = max(0.01, cos(point.latitude * .pi / 180))
        let latitudeSpan = Self.fallbackRadius / kmPerDegree
        let longitudeSpan = min(180, Self.fallbackRadius / (kmPerDegree * cosine))
        var best: (score: Double, index: Int)?
        var nearest: (distance: Double, index: Int)?
        let south = Int(floor(max(-90, point.latitude - latitudeSpan))), north = Int(floor(min(89.99999, point.latitude + latitudeSpan)))
        let west = Int(floor(point.longitude - longitudeSpan)), east = Int(floor(point.longitude + longitudeSpan))
        for latitude in south...north {
            // Each wrapped column once, even when the span covers the globe.
            var seen: Set<Int32> = []
            for longitude in west...east {
                let cell = Self.cell(latitude: latitude, longitude: longitude)
                guard seen.insert(cell).inserted, let run = cells[cell] else { continue }
                for i in Int(run.lowerBound)..<Int(run.upperBound) {
                    let distance = Self.distance(point, latitudes[i], longitudes[i], cosine: cosine, kmPerDegree: kmPerDegree)
                    if distance > Self.fallbackRadius { continue }
                    if nearest == nil || distance < nearest!.distance { nearest = (distance, i) }
                    guard distance <= Self.preferredRadius else { continue }
                    let score = Double(weights[i]) / 10 - 3 * log(distance + 2)
                    if best == nil || score > best!.score { best = (score, i) }
                }
            }
        }
        guard let index = best?.index ?? nearest?.index else { return nil }
        return place(at: index)
    }

    private func place(at index: Int) -> Place {
        let start = Int(nameStarts[index]), end = Int(nameStarts[index + 1])
        let country = countryOf[index] == 255 ? nil : countries[Int(countryOf[index])]
        return Place(name: String(decoding: names[start..<end], as: UTF8.self),
                     region: regionOf[index] == 65535 ? "" : regions[Int(regionOf[index])],
                     country: country?.name ?? "", countryCode: country?.code ?? "",
                     latitudeE5: latitudes[index], longitudeE5: longitudes[index])
    }

    /// Kilometres between `point` and a place, on a plane tangent at `point`:
    /// within 60 km the error is well under 1 %.
    private static func distance(_ point: GPSCoordinate, _ latitude: Int32, _ longitude: Int32, cosine: Double, kmPerDegree: Double) -> Double {
        let dy = Double(latitude) / 100_000 - point.latitude
        var dx = Double(longitude) / 100_000 - point.longitude
        if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
        dx *= cosine
        return kmPerDegree * (dx * dx + dy * dy).squareRoot()
    }
}
