import Foundation

/// Libraries shaped like the exports people leave photo services with: a
/// Google Takeout and an Apple iCloud Photos download, with the naming
/// cases, the localised files and the hostile sidecars real exports carry.
/// Each photo's pixels differ (by `seed`), so each is its own item.
public enum ExportLibraries {
    /// A small JPEG; with `date` (EXIF `YYYY:MM:DD HH:MM:SS`), a camera's EXIF block without GPS.
    public static func photo(seed: Int, date: String? = nil) throws -> [UInt8] {
        var image = Fixtures.gradient(width: 48, height: 32)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            image.pixels[i + 1] = UInt8(truncatingIfNeeded: seed * 37)
            image.pixels[i + 2] = UInt8(truncatingIfNeeded: seed * 91)
        }
        return try Fixtures.jpeg(image, exif: date.map { Fixtures.cameraExif(original: $0, offset: nil, gps: false) })
    }

    /// A Takeout JSON as Google writes one.
    public static func takeoutJSON(title: String, taken: Int64? = nil, description: String = "", favorited: Bool = false,
                                   trashed: Bool = false, archived: Bool = false, people: [String] = [],
                                   location: (Double, Double) = (0, 0)) -> [UInt8] {
        var object: [String: Any] = [
            "title": title, "description": description, "imageViews": "3",
            "creationTime": ["timestamp": "1700000000", "formatted": "14 Nov 2023, 22:13:20 UTC"],
            "geoData": ["latitude": location.0, "longitude": location.1, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0],
            "url": "https://photos.google.com/photo/AF1Qip",
            "googlePhotosOrigin": ["mobileUpload": ["deviceType": "ANDROID_PHONE"]],
        ]
        if let taken { object["photoTakenTime"] = ["timestamp": String(taken), "formatted": "(as Google writes it)"] }
        if favorited { object["favorited"] = true }
        if trashed { object["trashed"] = true }
        if archived { object["archived"] = true }
        if !people.isEmpty { object["people"] = people.map { ["name": $0] } }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// What the Takeout library holds, for the tests to check against.
    public struct Takeout {
        /// SOURCE (the Takeout folder is one folder inside it, beside a folder of the user's own).
        public let source: URL
        /// Instants (UTC seconds) Takeout's JSON records, by media path below SOURCE.
        public let recorded: [String: Int64]
    }

    /// `2019-07-04 18:15:12 UTC` and other instants used below.
    public static let july4: Int64 = 1_562_264_112, august1: Int64 = 1_564_653_600, march3: Int64 = 1_551_607_200

    /// Writes a Takeout-shaped library into `folder`/src.
    /// - `Takeout/Google Photos/Photos from 2019/`: a camera photo (EXIF date
    ///   and a JSON with another date, a caption, a favourite and people), a
    ///   screenshot without EXIF (newer `.supplemental-metadata.json`), a
    ///   WhatsApp image with a long name (JSON cut at 46 characters), a
    ///   duplicate name `IMG_1234(1).jpg` ↔ `IMG_1234.jpg(1).json`, an edit
    ///   `IMG_1234-edited.jpg` sharing its original's JSON, a trashed and an
    ///   archived photo, a JSON without a photo, a photo without a JSON, a
    ///   hostile JSON (not an object), one with wrong types, a GPS of 0,0.
    /// - `Takeout/Google Photos/Summer at Grandma's/` and `Zoo and garden/`:
    ///   albums (their `metadata.json`) each holding a copy of the camera photo.
    /// - `Takeout/Google Fotos/Urlaub/` with `Metadaten.json`, and `Fotos von 2020/`.
    /// - `Mine/`: the user's own folder, with a stray `data.json`.
    public static func takeout(in folder: TemporaryFolder) throws -> Takeout {
        let source = folder.url.appendingPathComponent("src")
        let year = "src/Takeout/Google Photos/Photos from 2019"
        var recorded: [String: Int64] = [:]
        func put(_ path: String, _ bytes: [UInt8]) throws { try folder.write(path, bytes) }

        let camera = try photo(seed: 1, date: "2019:07:04 20:15:12")
        try put("\(year)/IMG_20190704_181512.jpg", camera)
        try put("\(year)/IMG_20190704_181512.jpg.json",
                takeoutJSON(title: "IMG_20190704_181512.jpg", taken: july4, description: "  Grandma's garden, July  ", favorited: true,
                            people: ["Ada Lovelace", "Charles Babbage"]))

        try put("\(year)/Screenshot_20190801-100000.png", Fixtures.png(Fixtures.gradient(width: 40, height: 30)))
        try put("\(year)/Screenshot_20190801-100000.png.supplemental-metadata.json",
                takeoutJSON(title: "Screenshot_20190801-100000.png", taken: august1, description: "The booking"))
        recorded["Takeout/Google Photos/Photos from 2019/Screenshot_20190801-100000.png"] = august1

        // 52 characters: the JSON's name is cut to 46 before `.json`.
        let long = "IMG-20190303-WA0007-sent-by-aunt-with-a-long-name.jpg"
        try put("\(year)/\(long)", try photo(seed: 3))
        try put("\(year)/\(String(long.utf16.prefix(46).map { Character(UnicodeScalar($0)!) })).json",
                takeoutJSON(title: long, taken: march3, description: "From WhatsApp"))
        recorded["Takeout/Google Photos/Photos from 2019/\(long)"] = march3

        try put("\(year)/IMG_1234.jpg", try photo(seed: 4))
        try put("\(year)/IMG_1234.jpg.json", takeoutJSON(title: "IMG_1234.jpg", taken: march3 + 3600, description: "The first"))
        try put("\(year)/IMG_1234(1).jpg", try photo(seed: 5))
        try put("\(year)/IMG_1234.jpg(1).json", takeoutJSON(title: "IMG_1234.jpg", taken: march3 + 7200, description: "The second"))
        try put("\(year)/IMG_1234-edited.jpg", try photo(seed: 6))
        recorded["Takeout/Google Photos/Photos from 2019/IMG_1234.jpg"] = march3 + 3600
        recorded["Takeout/Google Photos/Photos from 2019/IMG_1234(1).jpg"] = march3 + 7200
        recorded["Takeout/Google Photos/Photos from 2019/IMG_1234-edited.jpg"] = march3 + 3600

        try put("\(year)/trashed.jpg", try photo(seed: 7))
        try put("\(year)/trashed.jpg.json", takeoutJSON(title: "trashed.jpg", taken: march3, description: "SECRET-TRASH", trashed: true))
        try put("\(year)/archived.jpg", try photo(seed: 8))
        try put("\(year)/archived.jpg.json", takeoutJSON(title: "archived.jpg", taken: march3, description: "SECRET-ARCHIVE", archived: true))
        try put("\(year)/gone.jpg.json", takeoutJSON(title: "gone.jpg", taken: march3))
        try put("\(year)/nojson.jpg", try photo(seed: 9, date: "2019:05:05 12:00:00"))
        try put("\(year)/hostile.jpg", try photo(seed: 10))
        try put("\(year)/hostile.jpg.json", Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        try put("\(year)/types.jpg", try photo(seed: 11))
        try put("\(year)/types.jpg.json", Array(#"{"photoTakenTime": {"timestamp": "99999999999999"}, "description": 7, "favorited": "yes", "people": "Ada"}"#.utf8))
        try put("\(year)/nowhere.jpg", try photo(seed: 12))
        try put("\(year)/nowhere.jpg.json", takeoutJSON(title: "nowhere.jpg", taken: august1 + 60))
        recorded["Takeout/Google Photos/Photos from 2019/nowhere.jpg"] = august1 + 60

        let album = "src/Takeout/Google Photos/Summer at Grandma's"
        try put("\(album)/metadata.json", Array(#"{"title": "Summer at Grandma’s", "description": "Two weeks <b>in July</b>", "access": "protected"}"#.utf8))
        try put("\(album)/IMG_20190704_181512.jpg", camera)
        try put("\(album)/IMG_20190704_181512.jpg.json",
                takeoutJSON(title: "IMG_20190704_181512.jpg", taken: july4, description: "  Grandma's garden, July  ", favorited: true,
                            people: ["Ada Lovelace", "Charles Babbage"]))

        // The same photo in a second album: Takeout writes it there too.
        let second = "src/Takeout/Google Photos/Zoo and garden"
        try put("\(second)/metadata.json", Array(#"{"title": "Zoo and garden"}"#.utf8))
        try put("\(second)/IMG_20190704_181512.jpg", camera)
        try put("\(second)/IMG_20190704_181512.jpg.json",
                takeoutJSON(title: "IMG_20190704_181512.jpg", taken: july4, description: "  Grandma's garden, July  ", favorited: true,
                            people: ["Ada Lovelace", "Charles Babbage"]))

        try put("src/Takeout/Google Fotos/Urlaub/Metadaten.json", Array(#"{"title": "Urlaub am Meer", "description": ""}"#.utf8))
        try put("src/Takeout/Google Fotos/Urlaub/strand.jpg", try photo(seed: 13, date: "2020:08:10 11:00:00"))
        try put("src/Takeout/Google Fotos/Urlaub/strand.jpg.json", takeoutJSON(title: "strand.jpg", description: "Am Strand"))
        try put("src/Takeout/Google Fotos/Fotos von 2020/strand.jpg", try photo(seed: 13, date: "2020:08:10 11:00:00"))
        try put("src/Takeout/Google Fotos/Fotos von 2020/strand.jpg.json", takeoutJSON(title: "strand.jpg", description: "Am Strand"))

        try put("src/Mine/own.jpg", try photo(seed: 14, date: "2021:01:01 10:00:00"))
        try put("src/Mine/data.json", Array(#"{"not": "a sidecar"}"#.utf8))
        return Takeout(source: source, recorded: recorded)
    }

    /// What the iCloud library holds, for the tests to check against.
    public struct ICloud {
        public let source: URL
        /// The Photos folder, below SOURCE.
        public let photos: String
    }

    /// `Friday October 06,2023 12:11 PM GMT` (1696594260) and `Sunday March 03,2019 09:20 AM GMT` (1551604800).
    public static let october6: Int64 = 1_696_594_260, march3Morning: Int64 = 1_551_604_800

    /// Writes an iCloud Photos download into `folder`/src: `iCloud Photos
    /// Part 1 of 1/Photos/` with a camera photo (EXIF date), a screenshot
    /// without one (its date from the table), a favourite, a hidden and a
    /// recently deleted photo, a photo the table does not name; `Photo
    /// Details.csv` with Apple's columns and hostile rows (a path, a second
    /// row for a name, quotes and a line break in a field); `Albums/Trip.csv`
    /// and `Albums/Friends & family.csv` (one photo in both, a hidden photo,
    /// a path and a missing name listed).
    public static func iCloud(in folder: TemporaryFolder) throws -> ICloud {
        let photos = "iCloud Photos Part 1 of 1/Photos"
        func put(_ path: String, _ bytes: [UInt8]) throws { try folder.write("src/\(path)", bytes) }
        try put("\(photos)/IMG_0001.JPG", try photo(seed: 21, date: "2023:10:06 14:11:00"))
        try put("\(photos)/IMG_0002.PNG", Fixtures.png(Fixtures.gradient(width: 30, height: 20)))
        try put("\(photos)/IMG_0003.JPG", try photo(seed: 23))
        try put("\(photos)/IMG_0004.JPG", try photo(seed: 24))
        try put("\(photos)/IMG_0005.JPG", try photo(seed: 25, date: "2019:03:03 10:20:00"))
        try put("\(photos)/IMG_0006.JPG", try photo(seed: 26, date: "2019:03:04 10:20:00"))
        let table = """
            imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate\r
            IMG_0001.JPG,AbC1,no,no,no,"Friday October 06,2023 12:11 PM GMT",3,"Friday October 06,2023 12:15 PM GMT"\r
            IMG_0002.PNG,AbC2,no,no,no,"Sunday March 03,2019 09:20 AM GMT",0,\r
            IMG_0003.JPG,AbC3,no,yes,no,"Sunday March 03,2019 09:20 AM GMT",0,\r
            IMG_0004.JPG,AbC4,no,no,yes,"Sunday March 03,2019 09:20 AM GMT",0,\r
            IMG_0005.JPG,"Ab,""C5""
            with a line break",yes,no,no,"not a date",0,\r
            ../../etc/passwd,x,yes,no,no,,0,\r
            IMG_0003.JPG,again,no,no,no,,0,\r

            """
        try put("\(photos)/Photo Details.csv", Array(table.utf8))
        try put("iCloud Photos Part 1 of 1/Albums/Trip.csv", Array("imgName\nIMG_0005.JPG\nIMG_0006.JPG\n".utf8))
        // One photo in two albums; a hidden one, a path and a name the download lacks listed too.
        try put("iCloud Photos Part 1 of 1/Albums/Friends & family.csv",
                Array("imgName\r\nIMG_0005.JPG\r\nIMG_0003.JPG\r\n../../Mine/own.jpg\r\nmissing.jpg\r\nIMG_0005.JPG\r\n".utf8))
        return ICloud(source: folder.url.appendingPathComponent("src"), photos: photos)
    }
}
