import Foundation
import GalleryCore
import Planning

/// The places (`moment_places`): the list of every place by country, each
/// place's pages, and the map (`map`).
struct PlacePageBuilder: PageBuilding {
    let inputs: PageInputs

    /// "12 places in 3 countries".
    func placesCountLabel() -> String {
        let countries = Set(map.places.map(\.place.countryCode)).count
        return strings.text("places.meta", ["places": strings.count("count.places", map.places.count),
                                            "countries": strings.count("count.countries", countries)])
    }

    /// The places grouped by country, in the plan's order (country, then name).
    func countries(from pagePath: String, covers: Bool = true) -> [PlaceIndexModel.Country] {
        var countries: [PlaceIndexModel.Country] = []
        for (position, pages) in map.places.enumerated() {
            let place = pages.place
            let country = place.country.isEmpty ? strings.text("places.elsewhere") : place.country
            if countries.last?.name != country {
                countries.append(PlaceIndexModel.Country(name: country, countLabel: "", places: []))
            }
            countries[countries.count - 1].places.append(PlaceIndexModel.Entry(
                name: place.nameInCountry, url: URLPath.relative(from: pagePath, to: pages.pages[0]), countLabel: count(pages.items),
                cover: covers ? pages.items.first.flatMap { thumbnail($0, from: pagePath, position: position) } : nil))
        }
        for i in countries.indices { countries[i].countLabel = strings.count("count.places", countries[i].places.count) }
        return countries
    }

    func placeIndexPage(_ pagePath: String) -> PlaceIndexModel {
        var chrome = chrome(pagePath, title: strings.text("places.title"), section: "places")
        let countLabel = placesCountLabel()
        chrome.share = shareCard(pagePath, headline: strings.text("places.title"), summary: countLabel, item: map.places.first?.items.first)
        return PlaceIndexModel(chrome: chrome, countLabel: countLabel, countries: countries(from: pagePath),
                               mapURL: map.mapPage.map { URLPath.relative(from: pagePath, to: $0) })
    }

    /// A place's page: a grid of its items, paged like an album.
    func placePage(_ pages: SiteMap.PlacePages, number: Int) -> AlbumPageModel {
        collectionPage(title: pages.place.fullName, section: "places", items: pages.items, pages: pages.pages, ranges: pages.ranges,
                       number: number, parent: (strings.text("places.title"), map.placeIndexPage ?? "index.html"))
    }

    func mapPage(_ pagePath: String) -> MapPageModel {
        var chrome = chrome(pagePath, title: strings.text("map.title"), section: "places")
        let countLabel = placesCountLabel()
        chrome.share = shareCard(pagePath, headline: strings.text("map.title"), summary: countLabel, item: map.places.first?.items.first)
        let markers = map.places.map { pages in
            MapLayout.Marker(x: MapLayout.x(pages.place.longitudeE5), y: MapLayout.y(pages.place.latitudeE5), photos: pages.items.count)
        }
        let layout = MapLayout(markers: markers)
        var json = "{\"places\":["
        for (i, pages) in map.places.enumerated() {
            if i > 0 { json += "," }
            json += "[\(markers[i].x),\(markers[i].y),\(markers[i].photos),"
            PhotoFacts.appendJSONString(pages.place.fullName + ": " + count(pages.items), to: &json)
            json += ","
            PhotoFacts.appendJSONString(URLPath.relative(from: pagePath, to: pages.pages[0]), to: &json)
            json += "]"
        }
        json += "],\"levels\":["
        for (l, level) in layout.levels.enumerated() {
            if l > 0 { json += "," }
            json += "["
            for (c, cluster) in level.enumerated() {
                if c > 0 { json += "," }
                json += "[\(cluster.x),\(cluster.y),\(cluster.photos),["
                json += cluster.members.map(String.init).joined(separator: ",")
                json += "]"
                if cluster.members.count > 1 {
                    json += ","
                    let names = cluster.members.map { map.places[$0].place.name }
                    PhotoFacts.appendJSONString((placeLabel(names) ?? "") + ": " + count(items: cluster.photos, videos: 0), to: &json)
                }
                json += "]"
            }
            json += "]"
        }
        json += "]}"
        let tiles = options.mapTiles.isEmpty ? nil : MapPageModel.Tiles(template: options.mapTiles, attribution: options.mapTilesAttribution)
        return MapPageModel(chrome: chrome, countLabel: countLabel, dataJSON: json, tiles: tiles,
                            worldScript: URLPath.relative(from: pagePath, to: "static/map/world.js"),
                            mapScript: URLPath.relative(from: pagePath, to: "static/map/map.js"),
                            placesURL: URLPath.relative(from: pagePath, to: map.placeIndexPage ?? "index.html"),
                            countries: countries(from: pagePath, covers: false))
    }
}

/// The map's markers and their clusters, made at build time for each zoom
/// level, so the browser only draws.
///
/// Positions are in the world square of Web Mercator tiles, 256 units wide
/// (zoom level 0's one tile; level z's tiles are 256 / 2^z units), in
/// hundredths of a unit. At level z, places closer than `radius / 2^z`
/// units join one cluster: the largest place (most photos) first takes every
/// place within reach, at their photo-weighted centre.
struct MapLayout {
    struct Marker { var x: Int, y: Int, photos: Int }
    struct Cluster { var x: Int, y: Int, photos: Int, members: [Int] }

    /// The zoom levels drawn, 0 (the world) to 12 (a town, ~40 m a pixel).
    static let levels = 0...12
    /// How close (in world units at level 0) two places join: about 20 px
    /// when the world is drawn 390 px wide (a phone).
    static let radius = 14.0

    let levels: [[Cluster]]

    init(markers: [Marker]) {
        levels = Self.levels.map { level in Self.clusters(markers, reach: Self.radius * 100 / Double(1 << level)) }
    }

    static func clusters(_ markers: [Marker], reach: Double) -> [Cluster] {
        // A grid of cells as wide as the reach: a marker's neighbours are in its 3 × 3 cells.
        func cell(_ x: Int, _ y: Int) -> SIMD2<Int> { SIMD2(Int(Double(x) / reach), Int(Double(y) / reach)) }
        var grid: [SIMD2<Int>: [Int]] = [:]
        for (i, m) in markers.enumerated() { grid[cell(m.x, m.y), default: []].append(i) }
        let order = markers.indices.sorted { markers[$0].photos != markers[$1].photos ? markers[$0].photos > markers[$1].photos : $0 < $1 }
        var taken = [Bool](repeating: false, count: markers.count)
        var clusters: [Cluster] = []
        for seed in order where !taken[seed] {
            let centre = markers[seed]
            let home = cell(centre.x, centre.y)
            var members: [Int] = []
            for dx in -1...1 {
                for dy in -1...1 {
                    for i in grid[home &+ SIMD2(dx, dy)] ?? [] where !taken[i] {
                        let ddx = Double(markers[i].x - centre.x), ddy = Double(markers[i].y - centre.y)
                        if (ddx * ddx + ddy * ddy).squareRoot() <= reach {
                            taken[i] = true
                            members.append(i)
                        }
                    }
                }
            }
            members.sort()
            let photos = members.reduce(0) { $0 + markers[$1].photos }
            let x = members.reduce(0.0) { $0 + Double(markers[$1].x * markers[$1].photos) } / Double(max(1, photos))
            let y = members.reduce(0.0) { $0 + Double(markers[$1].y * markers[$1].photos) } / Double(max(1, photos))
            clusters.append(Cluster(x: Int(x.rounded()), y: Int(y.rounded()), photos: photos, members: members))
        }
        return clusters
    }

    /// Web Mercator x of a longitude (degrees × 100,000), in hundredths of a unit.
    static func x(_ longitudeE5: Int32) -> Int {
        Int(((Double(longitudeE5) / 100_000 + 180) / 360 * 25_600).rounded())
    }

    /// Web Mercator y of a latitude (degrees × 100,000), in hundredths of a unit (north up).
    static func y(_ latitudeE5: Int32) -> Int {
        let latitude = max(-85.0511287798, min(85.0511287798, Double(latitudeE5) / 100_000))
        let sine = sin(latitude * .pi / 180)
        return Int(((0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * 25_600).rounded())
    }
}
