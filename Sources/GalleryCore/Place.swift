/// A named place from GeoNames' cities (offline, `moment_places`): where a
/// photo was taken, said the way a person would say it ("Kyoto"), with its
/// first-level region and country so two Springfields are told apart.
///
/// `latitude` and `longitude` are the *place's* (the town's centre, public
/// GeoNames data), never a photo's: they are what the map draws a marker at.
public struct Place: Hashable, Sendable, Codable {
    /// The town or city ("Springfield").
    public var name: String
    /// Its first-level region ("Illinois"), empty when GeoNames has none.
    public var region: String
    /// Its country ("United States"), empty when unknown.
    public var country: String
    /// The country's ISO 3166 code ("US"), empty when unknown.
    public var countryCode: String
    /// The place's position, degrees × 100,000.
    public var latitudeE5: Int32, longitudeE5: Int32

    public init(name: String, region: String = "", country: String = "", countryCode: String = "", latitudeE5: Int32 = 0, longitudeE5: Int32 = 0) {
        self.name = name
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.latitudeE5 = latitudeE5
        self.longitudeE5 = longitudeE5
    }

    /// "Springfield, Illinois, United States": the place told apart from every other.
    public var fullName: String {
        ([name] + [region, country].filter { !$0.isEmpty && $0 != name }).joined(separator: ", ")
    }

    /// "Springfield, Illinois": the place within its country.
    public var nameInCountry: String {
        region.isEmpty || region == name ? name : name + ", " + region
    }

    /// What tells two places apart (two towns of one name in one region are
    /// told apart by their position).
    public var key: String {
        "\(countryCode)\u{1F}\(region)\u{1F}\(name)\u{1F}\(latitudeE5)\u{1F}\(longitudeE5)"
    }
}
