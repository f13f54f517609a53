/// The page models of the places (`moment_places`) and the map (`map`),
/// part of the contract between Swift and the templates (see `PageModels.swift`).

/// The list of places (`places`): countries, each with its places.
public struct PlaceIndexModel: Sendable, Encodable {
    public struct Entry: Sendable, Encodable {
        /// "Springfield, Illinois" (the country is the group's).
        public var name: String
        public var url: String
        public var countLabel: String
        public var cover: Thumbnail?
    }
    public struct Country: Sendable, Encodable {
        public var name: String
        /// "3 places".
        public var countLabel: String
        public var places: [Entry]
    }
    public var chrome: PageChrome
    /// "12 places in 3 countries".
    public var countLabel: String
    public var countries: [Country]
    /// The map (`map`).
    public var mapURL: String?
}

/// The map of places (`map`): `static/map/map.js` draws it from `dataJSON`
/// over `static/map/world.js`; the list below it is the same places as links.
public struct MapPageModel: Sendable, Encodable {
    /// Online tiles under the map (`map_tiles`), with their credit.
    public struct Tiles: Sendable, Encodable {
        public var template: String
        public var attribution: String
    }
    public var chrome: PageChrome
    public var countLabel: String
    /// The places (position, photos, name, page) and each zoom level's
    /// clusters, as JSON for `data-map` (escaped by the template).
    public var dataJSON: String
    public var tiles: Tiles?
    public var worldScript: String
    public var mapScript: String
    public var placesURL: String
    public var countries: [PlaceIndexModel.Country]
}
