import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit

/// An iCloud Photos download inside SOURCE: dates, favourites, hidden and
/// recently deleted photos from its `Photo Details.csv`.
@Suite struct ICloudExportTests {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    @Test func photoDetailsAreReadAsTheOwnerMeantThem() async throws {
        let folder = try TemporaryFolder()
        let library = try ExportLibraries.iCloud(in: folder)
        var settings = BuildSettings(source: library.source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        settings.includeRejected = true  // hidden and deleted are not "rejected": no setting publishes them
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = settings.output
        let pages = "albums/icloud-photos-part-1-of-1/photos"
        func page(_ name: String) throws -> String { try String(contentsOf: out.appendingPathComponent("\(pages)/\(name).html"), encoding: .utf8) }

        #expect(report.summary.contains("iCloud Photos download: 6 photos and videos read with its Photo Details table; 2 albums from its Albums folder"), "\(report.summary)")
        #expect(report.published == 4, "\(report.summary)")
        #expect(Set(report.leftOut.map(\.reason)) == ["hidden in iCloud Photos", "recently deleted in iCloud Photos"])
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("\(pages)/img-0003.html").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("\(pages)/img-0004.html").path))

        // The table's date where the file has none; the file's own EXIF date where it has one.
        let day = CaptureDate(exportRecord: Date(timeIntervalSince1970: TimeInterval(ExportLibraries.march3Morning))).localDay
        let screenshot = try page("img-0002")
        #expect(screenshot.contains("<dt>Taken</dt>") && screenshot.contains("\(Self.months[day.month - 1]) \(day.day), \(day.year)"))
        #expect(try page("img-0001").contains("October 6, 2023"))
        // The favourite (a hostile row's quotes and line break read as one field) is in Favourites, nothing else is.
        let favourites = try String(contentsOf: out.appendingPathComponent("favourites/index.html"), encoding: .utf8)
        #expect(favourites.contains("img-0005.html") && !favourites.contains("img-0001.html") && !favourites.contains("img-0006.html"))
        // Albums: each table an album listing photos of Photos/, their pages there; Photos/ is no album; each photo once on the timeline.
        let albums = "albums/icloud-photos-part-1-of-1/albums"
        let trip = try String(contentsOf: out.appendingPathComponent("\(albums)/trip/index.html"), encoding: .utf8)
        #expect(trip.contains("../../photos/img-0005.html") && trip.contains("../../photos/img-0006.html"), "\(trip)")
        let friends = try String(contentsOf: out.appendingPathComponent("\(albums)/friends-family/index.html"), encoding: .utf8)
        #expect(friends.contains("Friends &amp; family") && friends.contains("../../photos/img-0005.html"))
        #expect(!friends.contains("img-0003") && !friends.contains("own.html"), "hidden, and a path out of Photos/: not listed")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("\(albums)/trip/img-0005.html").path), "no second page")
        let download = try String(contentsOf: out.appendingPathComponent("albums/icloud-photos-part-1-of-1/index.html"), encoding: .utf8)
        #expect(download.contains("albums/index.html") && !download.contains("photos/index.html"), "Photos/ is not listed as an album")
        let moments = try String(contentsOf: out.appendingPathComponent("moments/index.html"), encoding: .utf8)
        #expect(moments.components(separatedBy: "img-0005.html\"").count == 2, "once on the timeline")
        // The table is an input: un-hiding a photo publishes it, and no image of the others is made again.
        let table = library.source.appendingPathComponent("\(library.photos)/Photo Details.csv")
        let text = try String(contentsOf: table, encoding: .utf8).replacingOccurrences(of: "IMG_0003.JPG,AbC3,no,yes", with: "IMG_0003.JPG,AbC3,no,no")
        try Data(text.utf8).write(to: table)
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.published == 5 && again.leftOut.map(\.reason) == ["recently deleted in iCloud Photos"], "\(again.summary)")
        #expect(again.renditionsMade == 2, "IMG_0003's two renditions only: \(again.summary)")
        // Nothing of the hidden or deleted photos, and no table, under OUT.
        for path in FileManager.default.enumerator(atPath: out.path)!.compactMap({ $0 as? String }) {
            #expect(!path.hasSuffix(".csv") && !path.contains("img-0004"), "\(path)")
        }
    }

    /// A table that cannot be read is said once, not once per photo, and its photos are published without it.
    @Test func anUnreadableTableIsOneWarning() async throws {
        let folder = try TemporaryFolder()
        for seed in 1...3 { try folder.write("src/Photos/IMG_\(seed).JPG", try ExportLibraries.photo(seed: seed, date: "2020:01:0\(seed) 10:00:00")) }
        try folder.write("src/Photos/Photo Details.csv", Array("imgName,favorite\nIMG_1.JPG,\"yes\nIMG_2.JPG,no\n".utf8))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 3)
        #expect(report.warnings.filter { $0.contains("Photo Details.csv") } == [
            "Photos/Photo Details.csv: not read (a quote opened on line 2 is never closed); its photos are published without it"])
    }

    /// An album never lists a photo across a private album's line: a public
    /// album table naming photos of a private Photos/ shows none of them.
    @Test func aPublicAlbumListsNoPrivatePhoto() async throws {
        let folder = try TemporaryFolder()
        let library = try ExportLibraries.iCloud(in: folder)
        try folder.write("src/\(library.photos)/album.yml", Array("private: true\npassphrase_file: ../../../key.txt\n".utf8))
        try folder.write("key.txt", Array("a long enough passphrase".utf8))
        var settings = BuildSettings(source: library.source, output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 4, "\(report.summary)")
        let albums = settings.output.appendingPathComponent("albums/icloud-photos-part-1-of-1/albums")
        #expect(!FileManager.default.fileExists(atPath: albums.appendingPathComponent("trip/index.html").path), "no public album of private photos")
        for path in FileManager.default.enumerator(atPath: settings.output.path)!.compactMap({ $0 as? String }) where path.hasSuffix(".html") {
            let page = try String(contentsOf: settings.output.appendingPathComponent(path), encoding: .utf8)
            #expect(path.hasPrefix("sealed/") || !page.contains("img-0005"), "\(path)")
        }
    }
}

