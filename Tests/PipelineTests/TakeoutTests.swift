import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Planning
@testable import Rendering

/// A Google Takeout inside SOURCE (beside a folder of the owner's own), read
/// as its owner meant: dates, captions, favourites, people and albums from
/// the JSON beside the files, year folders folded, trash never published.
@Suite struct TakeoutTests {
    static let year = "albums/takeout/google-photos/photos-from-2019"
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    static func settings(_ folder: TemporaryFolder, _ library: ExportLibraries.Takeout) -> BuildSettings {
        var settings = BuildSettings(source: library.source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        return settings
    }

    @Test func theExportIsReadAsItsOwnerMeantIt() async throws {
        let folder = try TemporaryFolder()
        let library = try ExportLibraries.takeout(in: folder)
        var settings = Self.settings(folder, library)
        settings.publishPeople = true
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = settings.output
        func page(_ path: String) throws -> String { try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8) }
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: out.appendingPathComponent(path).path) }

        // The summary says what was matched; the stray JSON are ignored files.
        #expect(report.takeout == TakeoutTally(matched: 15, jsonWithoutMedia: 1, ambiguousJSON: 0, mediaWithoutJSON: 1))
        #expect(report.summary.contains("Google Takeout: 15 photos and videos matched to their JSON, 1 JSON without a photo, "
                                        + "1 photo or video without JSON; 2 photos of albums also in year folders shown once; "
                                        + "1 copy of photos in several albums shown once"), "\(report.summary)")
        #expect(report.summary.contains("Takeout JSON read with problems: 1 not JSON, 1 with fields left out"), "\(report.summary)")
        #expect(Set(report.ignored) == ["Takeout/Google Photos/Photos from 2019/gone.jpg.json", "Mine/data.json"])
        // 16 media files less the trashed and archived one, two copies of album photos in year folders and one in a second album.
        #expect(report.published == 12 && report.takeoutCopiesFolded == 2 && report.takeoutAlbumCopiesFolded == 1, "\(report.summary)")
        #expect(Set(report.leftOut.map(\.path)) == ["Takeout/Google Photos/Photos from 2019/trashed.jpg",
                                                     "Takeout/Google Photos/Photos from 2019/archived.jpg"])

        // Dates: the JSON's where the file has none (every naming rule), the file's own EXIF date where it has one.
        for (path, instant) in library.recorded {
            let name = (path as NSString).lastPathComponent
            let slug = Slug.make(String(name[..<name.lastIndex(of: ".")!]), fallback: "x")
            let day = CaptureDate(exportRecord: Date(timeIntervalSince1970: TimeInterval(instant))).localDay
            let shown = "\(Self.months[day.month - 1]) \(day.day), \(day.year)"
            let text = try page("\(Self.year)/\(slug).html")
            #expect(text.contains("<dt>Taken</dt>") && text.contains(shown), "\(path): \(shown)")
        }
        let album = try page("albums/takeout/google-photos/summer-at-grandma-s/img-20190704-181512.html")
        #expect(album.contains("July 4, 2019") && album.contains("8:15"), "the file's EXIF date wins over the JSON's (18:15 UTC)")
        // Captions (cleaned), people, the favourite as Favourites.
        #expect(album.contains("<p class=\"photo-caption\">Grandma&#39;s garden, July</p>"), "\(album)")
        #expect(album.contains("Ada Lovelace") && album.contains("Charles Babbage"))
        #expect(try page("favourites/index.html").contains("summer-at-grandma-s/img-20190704-181512.html"))
        #expect(try page("\(Self.year)/img-1234-1.html").contains("The second"))
        #expect(try page("\(Self.year)/img-1234.html").contains("The first"))
        #expect(try page("\(Self.year)/img-1234-edited.html").contains("The first"), "an edit shares its original's JSON")
        #expect(try page("\(Self.year)/screenshot-20190801-100000.html").contains("The booking"))
        // Hostile JSON: the photo is published without it.
        #expect(exists("\(Self.year)/hostile.html") && exists("\(Self.year)/types.html"))

        // Albums: the title and description typed in Google Photos (the
        // description shown as text), the German one too; year folders are
        // not albums, and an album photo is once on the timeline.
        let takeoutAlbum = try page("albums/takeout/google-photos/summer-at-grandma-s/index.html")
        #expect(takeoutAlbum.contains("Summer at Grandma’s") && takeoutAlbum.contains("Two weeks &lt;b&gt;in July&lt;/b&gt;"))
        #expect(try page("albums/takeout/google-fotos/urlaub/index.html").contains("Urlaub am Meer"))
        let googlePhotos = try page("albums/takeout/google-photos/index.html")
        #expect(googlePhotos.contains("summer-at-grandma-s/index.html") && !googlePhotos.contains("photos-from-2019/index.html"),
                "a year folder is not listed as an album")
        // One photo in two albums: one item (its page in the first album), listed by both.
        let zoo = try page("albums/takeout/google-photos/zoo-and-garden/index.html")
        #expect(zoo.contains("../summer-at-grandma-s/img-20190704-181512.html"), "\(zoo)")
        #expect(!exists("albums/takeout/google-photos/zoo-and-garden/img-20190704-181512.html"))
        #expect(!exists("\(Self.year)/img-20190704-181512.html") && !exists("albums/takeout/google-fotos/fotos-von-2020/index.html"))
        let moments = try page("moments/index.html")
        #expect(moments.contains("photos-from-2019/nojson.html"), "a photo only in a year folder is on the timeline")
        var seen = 0, range = moments.startIndex..<moments.endIndex
        while let found = moments.range(of: "img-20190704-181512.html\"", range: range) { seen += 1; range = found.upperBound..<moments.endIndex }
        #expect(seen == 1, "the album photo is once on the timeline: \(seen)")

        // Trashed and archived: no page, no words anywhere under OUT; no JSON, no coordinates.
        for path in FileManager.default.enumerator(atPath: out.path)!.compactMap({ $0 as? String }) {
            let bytes = Fixtures.contents(of: out.appendingPathComponent(path))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("SECRET-TRASH") && !text.contains("SECRET-ARCHIVE"), "\(path)")
            #expect(!path.hasSuffix(".json") || path.hasPrefix("static/") || path.contains("search") || path.contains("index"), "\(path)")
        }
        #expect(!exists("\(Self.year)/trashed.html") && !exists("\(Self.year)/archived.html"))

        // Archived photos are published when asked; the trash never is.
        settings.publishArchived = true
        let asked = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(asked.published == 13 && asked.takeoutAlbumCopiesFolded == 1 && asked.leftOut.map(\.path) == ["Takeout/Google Photos/Photos from 2019/trashed.jpg"], "\(asked.summary)")
    }

    @Test func anEditedJSONReRendersThatPhotosPagesAndNoImage() async throws {
        let folder = try TemporaryFolder()
        let library = try ExportLibraries.takeout(in: folder)
        let settings = Self.settings(folder, library)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.pagesRendered == 0 && again.renditionsMade == 0, "\(again.summary)")

        let json = library.source.appendingPathComponent("Takeout/Google Photos/Photos from 2019/IMG_1234.jpg.json")
        try Data(ExportLibraries.takeoutJSON(title: "IMG_1234.jpg", taken: ExportLibraries.march3 + 3600, description: "Renamed in Google Photos"))
            .write(to: json)
        let edited = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(edited.renditionsMade == 0, "\(edited.summary)")
        #expect(edited.pagesRendered > 0 && edited.pagesRendered < again.pages / 2, "\(edited.summary)")
        let page = try String(contentsOf: settings.output.appendingPathComponent("\(Self.year)/img-1234.html"), encoding: .utf8)
        #expect(page.contains("Renamed in Google Photos"))
        #expect(try String(contentsOf: settings.output.appendingPathComponent("\(Self.year)/img-1234-edited.html"), encoding: .utf8)
            .contains("Renamed in Google Photos"), "the edit shares the JSON")

        // The album's JSON is an input too.
        let metadata = library.source.appendingPathComponent("Takeout/Google Photos/Summer at Grandma's/metadata.json")
        try Data(#"{"title": "Grandma's summer"}"#.utf8).write(to: metadata)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(try String(contentsOf: settings.output.appendingPathComponent("albums/takeout/google-photos/summer-at-grandma-s/index.html"),
                           encoding: .utf8).contains("Grandma&#39;s summer") )
    }

    /// A year folder's copy of a photo in an album made private is folded
    /// before anything of it is made: none of its pixels is public, not even
    /// for the length of one build.
    @Test func aCopyOfAPrivateAlbumsPhotoIsNeverPublic() async throws {
        let folder = try TemporaryFolder()
        let library = try ExportLibraries.takeout(in: folder)
        // The photo in one album only (a second, public album would show it publicly, rightly).
        try FileManager.default.removeItem(at: library.source.appendingPathComponent("Takeout/Google Photos/Zoo and garden"))
        let settings = Self.settings(folder, library)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let album = "albums/takeout/google-photos/summer-at-grandma-s"
        let page = try String(contentsOf: settings.output.appendingPathComponent("\(album)/img-20190704-181512.html"), encoding: .utf8)
        let publicFiles = page.components(separatedBy: "src=\"../../../../").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            .filter { !$0.hasPrefix("static/") }
        #expect(!publicFiles.isEmpty && publicFiles.allSatisfy { $0.hasPrefix("media/") }, "\(publicFiles)")

        try folder.write("src/Takeout/Google Photos/Summer at Grandma's/album.yml", Array("private: true\npassphrase_file: ../../../../key.txt\n".utf8))
        try folder.write("key.txt", Array("grandma's garden gate".utf8))
        try? FileManager.default.removeItem(at: settings.output)
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.takeoutCopiesFolded == 2, "\(report.summary)")
        for file in publicFiles {
            #expect(!FileManager.default.fileExists(atPath: settings.output.appendingPathComponent(file).path), "\(file) is public")
        }
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.renditionsMade == 0 && again.filesWritten.isEmpty, "\(again.summary)")
    }

    /// An export's file names on what is not a regular file: never opened (a
    /// FIFO would block the build), and a link out of SOURCE never read.
    @Test(.timeLimit(.minutes(1))) func exportNamesOnOtherKindsOfFileAreNeverOpened() async throws {
        let folder = try TemporaryFolder()
        try folder.write("src/Trip/a.jpg", try ExportLibraries.photo(seed: 1, date: "2020:01:01 10:00:00"))
        try folder.write("src/Trip/a.jpg.json", ExportLibraries.takeoutJSON(title: "a.jpg", description: "From the JSON"))
        try folder.write("outside.json", Array(#"{"title": "OUTSIDE-SECRET"}"#.utf8))
        let source = folder.url.appendingPathComponent("src")
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("Trip/metadata.json").path,
                                                   withDestinationPath: folder.url.appendingPathComponent("outside.json").path)
        try folder.write("src/Phone/Photos/b.jpg", try ExportLibraries.photo(seed: 2, date: "2020:01:02 10:00:00"))
        try FileManager.default.createDirectory(at: source.appendingPathComponent("Phone/Albums"), withIntermediateDirectories: true)
        #expect(mkfifo(source.appendingPathComponent("Phone/Photos/Photo Details.csv").path, 0o644) == 0)
        #expect(mkfifo(source.appendingPathComponent("Phone/Albums/Trip.csv").path, 0o644) == 0)
        #expect(mkfifo(source.appendingPathComponent("Phone/metadata.json").path, 0o644) == 0)
        var settings = BuildSettings(source: source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 2, "\(report.summary)")
        let trip = try String(contentsOf: settings.output.appendingPathComponent("albums/trip/a.html"), encoding: .utf8)
        #expect(trip.contains("From the JSON") && !trip.contains("OUTSIDE-SECRET"))
    }
}

