import Foundation
import GalleryCore
import Metadata
import Testing

/// A Takeout JSON as Google writes it, and as a hostile one might be.
@Suite struct TakeoutSidecarTests {
    static let typical = """
    {
      "title": "IMG_20190704_181512.jpg",
      "description": "  Grandma's garden, July  ",
      "imageViews": "12",
      "creationTime": { "timestamp": "1562600000", "formatted": "8 Jul 2019, 15:33:20 UTC" },
      "photoTakenTime": { "timestamp": "1562256912", "formatted": "4 Jul 2019, 16:15:12 UTC" },
      "geoData": { "latitude": 0.0, "longitude": 0.0, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0 },
      "geoDataExif": { "latitude": 48.8584, "longitude": 2.2945, "altitude": 35.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0 },
      "people": [{ "name": "Ada Lovelace" }, { "name": "Ada Lovelace" }, { "name": "Charles\\nBabbage" }, { "name": "" }, { "nom": "x" }],
      "favorited": true,
      "url": "https://photos.google.com/photo/AF1Qip",
      "googlePhotosOrigin": { "mobileUpload": { "deviceType": "ANDROID_PHONE" } }
    }
    """

    @Test func readsWhatTheOwnerTypedAndChose() throws {
        let sidecar = try TakeoutSidecar(Array(Self.typical.utf8))
        #expect(sidecar.title == "IMG_20190704_181512.jpg")
        #expect(sidecar.caption == "Grandma's garden, July")
        #expect(sidecar.takenAt == Date(timeIntervalSince1970: 1_562_256_912), "photoTakenTime, not creationTime (the upload)")
        #expect(sidecar.location == GPSCoordinate(latitude: 48.8584, longitude: 2.2945), "geoData's 0,0 is none: geoDataExif's")
        #expect(sidecar.people == ["Ada Lovelace", "Charles Babbage"])
        #expect(sidecar.favorite)
        #expect(!sidecar.trashed && !sidecar.archived)
        #expect(sidecar.refused == [])
    }

    @Test func aFieldOfTheWrongTypeOrOutOfRangeIsLeftOutNotTheFile() throws {
        let json = """
        {"title": 12, "description": ["a"], "photoTakenTime": {"timestamp": "99999999999999"},
         "geoData": {"latitude": 123.0, "longitude": 2.0}, "people": "Ada", "favorited": 1, "trashed": true, "archived": "yes"}
        """
        let sidecar = try TakeoutSidecar(Array(json.utf8))
        #expect(sidecar.title == nil && sidecar.caption == nil && sidecar.takenAt == nil && sidecar.location == nil)
        #expect(sidecar.people == [] && !sidecar.favorite && !sidecar.archived)
        #expect(sidecar.trashed, "what could be read still is")
        #expect(sidecar.refused.sorted() == ["archived", "description", "favorited", "geoData", "people", "photoTakenTime", "title"])
        // A number for a timestamp is taken; 0 (Google's "unknown") and nonsense are not.
        #expect(try TakeoutSidecar(Array(#"{"photoTakenTime": {"timestamp": 1262304000}}"#.utf8)).takenAt == Date(timeIntervalSince1970: 1_262_304_000))
        #expect(try TakeoutSidecar(Array(#"{"photoTakenTime": {"timestamp": "0"}}"#.utf8)).takenAt == nil)
        #expect(try TakeoutSidecar(Array(#"{"photoTakenTime": {"timestamp": "soon"}}"#.utf8)).refused == ["photoTakenTime"])
        #expect(try TakeoutSidecar(Array(#"{"photoTakenTime": {"timestamp": "-9999999999"}}"#.utf8)).takenAt == nil)
    }

    @Test func hostileFilesAreRefusedWhole() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: TakeoutSidecarError.notJSON) { try TakeoutSidecar(Array(("{\"people\": " + deep + "}").utf8)) }
        #expect(throws: TakeoutSidecarError.notJSON) { try TakeoutSidecar(Array("{\"title\": \"unterminated".utf8)) }
        #expect(throws: TakeoutSidecarError.notJSON) { try TakeoutSidecar([0xFF, 0xFE, 0x00]) }
        #expect(throws: TakeoutSidecarError.notAnObject) { try TakeoutSidecar(Array("[1, 2]".utf8)) }
        let huge = Array(("{\"description\": \"" + String(repeating: "a", count: TakeoutSidecar.largestSize) + "\"}").utf8)
        #expect(throws: TakeoutSidecarError.tooLarge(huge.count)) { try TakeoutSidecar(huge) }
    }

    @Test func longTextIsCutAndNamesStayShort() throws {
        let long = String(repeating: "é", count: 20_000)
        let json = "{\"description\": \"\(long)\", \"people\": [{\"name\": \"\(String(repeating: "n", count: 500))\"}, {\"name\": \"Bo\"}]}"
        let sidecar = try TakeoutSidecar(Array(json.utf8))
        #expect(sidecar.caption?.count == 10_000)
        #expect(sidecar.people == ["Bo"])
    }
}

/// An album folder's JSON, and the folders that are not albums.
@Suite struct TakeoutAlbumTests {
    @Test func readsTheTitleAndDescriptionInAnyLanguagesFile() throws {
        let album = try TakeoutAlbum(Array(#"{"title": " Summer in Brittany ", "description": "", "access": "protected", "date": {"timestamp": "1"}}"#.utf8))
        #expect(album.title == "Summer in Brittany")
        #expect(album.description == nil)
        #expect(try TakeoutAlbum(Array(#"{"title": ["x"]}"#.utf8)).title == nil)
        #expect(TakeoutFolderNames.isAlbumFile("métadonnées.json"))
        #expect(TakeoutFolderNames.isAlbumFile("me\u{0301}tadonne\u{0301}es.json"), "decomposed, as macOS writes names")
        #expect(TakeoutFolderNames.isAlbumFile("Metadaten.json"))
        #expect(!TakeoutFolderNames.isAlbumFile("IMG_1.jpg.json"))
    }

    @Test func yearFoldersAreNotAlbums() {
        #expect(TakeoutFolderNames.isYearFolder("Photos from 2019"))
        #expect(TakeoutFolderNames.isYearFolder("Fotos von 2007"))
        #expect(TakeoutFolderNames.isYearFolder("2020 年の写真"))
        #expect(TakeoutFolderNames.isYearFolder("2023년의 사진"))
        #expect(!TakeoutFolderNames.isYearFolder("Photos from Rome"))
        #expect(!TakeoutFolderNames.isYearFolder("Photos from 0019"))
        #expect(!TakeoutFolderNames.isYearFolder("2019"))
        #expect(!TakeoutFolderNames.isYearFolder("Holiday 2019"))
    }
}
