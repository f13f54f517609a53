import Archives
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Planning
@testable import GalleryKit
@testable import Metadata
@testable import Rendering

/// The Atom feed and the album downloads, on real builds.
@Suite struct FeedAndDownloadTests {
    /// An Atom document as Foundation's XML parser reads it: the feed's
    /// elements and each entry's, with namespaces resolved.
    final class AtomReader: NSObject, XMLParserDelegate {
        struct Entry { var fields: [String: String] = [:]; var links: [[String: String]] = []; var thumbnails: [[String: String]] = [] }
        var root = "", rootNamespace = ""
        var feed: [String: String] = [:]
        var feedLinks: [[String: String]] = []
        var entries: [Entry] = []
        var inEntry = false, inAuthor = false
        var text = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root.isEmpty { root = name; rootNamespace = namespaceURI ?? "" }
            text = ""
            switch (name, namespaceURI ?? "") {
            case ("entry", "http://www.w3.org/2005/Atom"): inEntry = true; entries.append(Entry())
            case ("author", _): inAuthor = true
            case ("link", _): if inEntry { entries[entries.count - 1].links.append(attributes) } else { feedLinks.append(attributes) }
            case ("thumbnail", "http://search.yahoo.com/mrss/"): if inEntry { entries[entries.count - 1].thumbnails.append(attributes) }
            default: break
            }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let key = inAuthor && name == "name" ? "author" : name
            if name == "entry" { inEntry = false; return }
            if name == "author" { inAuthor = false; return }
            if inEntry { entries[entries.count - 1].fields[key] = text } else { feed[key] = text }
        }
    }

    static func readFeed(_ out: URL) throws -> AtomReader {
        let data = try Data(contentsOf: out.appendingPathComponent("feed.xml"))
        let reader = AtomReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        #expect(parser.parse(), "feed.xml is well-formed XML: \(String(describing: parser.parserError))")
        return reader
    }

    @Test func theFeedListsTheListedAlbumsNewestFirst() async throws {
        let library = try EndToEndTests.makeLibrary()
        // One album newer than the rest.
        try library.folder.write("Pictures/Later/new.jpg", try Fixtures.jpeg(Fixtures.quadrants(width: 64, height: 48),
                                                                             exif: Fixtures.cameraExif(original: "2025:06:01 10:00:00", offset: "+09:00")))
        // A folder named with a control character (legal on Linux, forbidden in XML).
        try library.folder.write("Pictures/Bell\u{7}s/b.jpg", try Fixtures.jpeg(Fixtures.quadrants(width: 64, height: 48),
                                                                               exif: Fixtures.cameraExif(original: "2020:01:01 10:00:00")))
        let settings = EndToEndTests.settings(library)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = library.output
        let atom = try Self.readFeed(out)
        #expect(atom.root == "feed" && atom.rootNamespace == "http://www.w3.org/2005/Atom")
        // RFC 4287 4.1.1: id, title, updated; an author (no entry has its own).
        #expect(atom.feed["id"]?.hasPrefix("urn:uuid:") == true && atom.feed["title"] == "Test <Gallery>" && atom.feed["author"] == "Test <Gallery>")
        let dates = ISO8601DateFormatter()
        #expect(dates.date(from: atom.feed["updated"] ?? "") != nil)
        #expect(atom.feedLinks.contains { $0["rel"] == "self" && $0["href"] == "feed.xml" })
        // Listed albums with items of their own; not the hidden one; the newest first.
        let titles = atom.entries.map { $0.fields["title"] ?? "" }
        // Misc's and Trips' undated files are dated by their files (now): they come first, then Later (2025), then the 2024 albums.
        #expect(Set(titles.prefix(2)) == ["Misc", "Trips"] && titles[2] == "Later", "\(titles)")
        #expect(Set(titles) == ["Later", "Test <Gallery>", "Trips", "Paris", "Misc", "Bells"], "\(titles)")
        let updated = atom.entries.compactMap { dates.date(from: $0.fields["updated"] ?? "") }
        #expect(updated.count == atom.entries.count && updated == updated.sorted(by: >))
        #expect(atom.entries[2].fields["updated"] == "2025-06-01T01:00:00+00:00", "the capture time in UTC")
        #expect(atom.feed["updated"] == atom.entries[0].fields["updated"])
        var ids: Set<String> = []
        for entry in atom.entries {
            let id = try #require(entry.fields["id"])
            #expect(id.hasPrefix("urn:uuid:") && id.count == 45 && ids.insert(id).inserted)
            let link = try #require(entry.links.first { $0["rel"] == "alternate" }?["href"])
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(link).path), "\(link)")
            #expect(entry.fields["summary"]?.isEmpty == false && dates.date(from: entry.fields["published"] ?? "") != nil)
            // The content is HTML whose pictures and links are published files.
            let content = try #require(entry.fields["content"])
            let links = EndToEndTests.links(in: content)
            #expect(links.contains { $0.hasPrefix("media/") })
            for target in links { #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(target).path), "\(target)") }
            let thumbnail = try #require(entry.thumbnails.first?["url"])
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(thumbnail).path))
        }
        // Without base_url nothing absolute is made up.
        let text = try String(contentsOf: out.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(!text.contains("href=\"http") && !text.contains("url=\"http") && !text.contains("src=&quot;http"))
        // Every page names the feed for a reader to find.
        for page in ["index.html", "albums/trips/paris/index.html", "moments/index.html", "albums/trips/paris/rotated.html"] {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            let href = try #require(html.firstMatch(of: /<link rel="alternate" type="application\/atom\+xml" href="([^"]+)"/)?.1)
            let resolved = EndToEndTests.normalize((page as NSString).deletingLastPathComponent + "/" + href)
            #expect(resolved == "feed.xml", "\(page)")
        }

        // With base_url: absolute addresses, the same ids.
        var withBase = settings
        withBase.baseURL = "https://example.org/photos/"
        _ = try await GalleryBuilder().build(settings: withBase, quiet: true)
        let absolute = try Self.readFeed(out)
        #expect(absolute.entries.map { $0.fields["id"] } == atom.entries.map { $0.fields["id"] })
        #expect(absolute.feedLinks.contains { $0["rel"] == "self" && $0["href"] == "https://example.org/photos/feed.xml" })
        #expect(absolute.entries.allSatisfy { $0.links.allSatisfy { $0["href"]?.hasPrefix("https://example.org/photos/") == true } })
        #expect(absolute.entries.allSatisfy { $0.thumbnails.allSatisfy { $0["url"]?.hasPrefix("https://example.org/photos/media/") == true } })
    }

    /// The archives of a build, by album page: the button's link and size text.
    static func downloadButtons(_ out: URL, pages: [String]) throws -> [String: (url: String, name: String, size: String)] {
        var found: [String: (String, String, String)] = [:]
        for page in pages {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            guard let match = html.firstMatch(of: /<p class="album-download"><a href="([^"]+)" download="([^"]+)" type="application\/zip">[^<]*<span class="album-download-size">\(ZIP, ([^)]+)\)<\/span><\/a><\/p>/) else { continue }
            found[page] = (EndToEndTests.normalize((page as NSString).deletingLastPathComponent + "/" + match.1), String(match.2), String(match.3))
        }
        return found
    }

    @Test func albumDownloadsAreStoredZipsRemadeOnlyWhenTheAlbumChanges() async throws {
        let library = try EndToEndTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = library.output
        let pages = ["index.html", "albums/trips/index.html", "albums/trips/paris/index.html", "albums/misc/index.html"]
        #expect(try Self.downloadButtons(out, pages: pages).isEmpty, "off by default")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("media/albums").path))

        // A name that is a path to Windows' unzip (legal on Linux; a leading dot would make it a hidden file).
        try library.folder.write("Pictures/Odd/x\\..\\..\\evil\u{1}.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 90, height: 60)))
        settings.albumDownloads = true
        let first = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(first.archivesMade == 6, "root, Trips, Paris, Misc, Odd and the hidden album (it has pages)")
        let odd = try #require(try Self.downloadButtons(out, pages: ["albums/odd/index.html"])["albums/odd/index.html"])
        #expect(try AlbumArchive.listing(out.appendingPathComponent(odd.url)).map(\.name) == ["x .. .. evil.webp"], "no backslash, no control character")
        let buttons = try Self.downloadButtons(out, pages: pages)
        #expect(buttons.count == 4)
        let paris = try #require(buttons["albums/trips/paris/index.html"])
        #expect(paris.name == "Paris.zip")
        let zip = out.appendingPathComponent(paris.url)
        let listing = try AlbumArchive.listing(zip)
        #expect(listing.map(\.name) == ["graphic.webp", "rotated.webp"])
        #expect(listing.allSatisfy { $0.stored }, "stored, not deflated again")
        // Each member is the published preview, byte for byte.
        let page = try String(contentsOf: out.appendingPathComponent("albums/trips/paris/rotated.html"), encoding: .utf8)
        let preview = try #require(page.firstMatch(of: /<figure class="photo">\s*<img src="([^"]+)"/)?.1)
        let previewBytes = try Data(contentsOf: out.appendingPathComponent(EndToEndTests.normalize("albums/trips/paris/" + String(preview))))
        #expect(try AlbumArchive.contents(of: "rotated.webp", in: zip) == previewBytes)
        // The size on the button is the file's.
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? NSNumber).int64Value
        let strings = try Theme.load("default").strings
        #expect(paris.size == strings.fileSize(bytes) && paris.size.hasSuffix(" KB"))
        // Python's zipfile (a second reader) opens it and checks every CRC.
        let check = try CameraFixtures.run("python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.namelist()))", zip.path])
        #expect(check.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "\(check)")

        // No change: nothing remade, the same file.
        let modified = try FileManager.default.attributesOfItem(atPath: zip.path)[.modificationDate] as? Date
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.archivesMade == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: zip.path)[.modificationDate] as? Date == modified)

        // A photo added to Paris: only Paris's archive is remade, the old one goes.
        try library.folder.write("Pictures/Trips/Paris/added.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 90, height: 60)))
        let grown = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(grown.archivesMade == 1)
        let after = try Self.downloadButtons(out, pages: pages)
        #expect(after["albums/trips/paris/index.html"]?.url != paris.url && !FileManager.default.fileExists(atPath: zip.path))
        #expect(after["albums/misc/index.html"]?.url == buttons["albums/misc/index.html"]?.url)
        let newZip = out.appendingPathComponent(try #require(after["albums/trips/paris/index.html"]).url)
        #expect(try AlbumArchive.listing(newZip).map(\.name) == ["added.webp", "graphic.webp", "rotated.webp"])

        // With publish_originals the archive holds the published originals: no GPS.
        settings.publishOriginals = true
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let originals = try Self.downloadButtons(out, pages: pages)
        let originalZip = out.appendingPathComponent(try #require(originals["albums/trips/paris/index.html"]).url)
        #expect(try AlbumArchive.listing(originalZip).map(\.name) == ["added.jpg", "graphic.png", "rotated.jpg"])
        let original = try AlbumArchive.contents(of: "rotated.jpg", in: originalZip)
        let source = try Data(contentsOf: library.source.appendingPathComponent("Trips/Paris/rotated.jpg"))
        let sourceMetadata = try source.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) }
        let zipped = try original.withUnsafeBytes { try MetadataReader.read($0, modificationDate: Date()) }
        #expect(sourceMetadata.gps != nil && zipped.gps == nil, "the location never leaves in a download")
    }

    @Test func downloadNamesAreSafeFileNames() {
        #expect(Slug.downloadName("Paris: été 2024") == "Paris été 2024")
        #expect(Slug.downloadName("a/b\\c*?\"<>|d") == "a b c d")
        #expect(Slug.downloadName("...hidden") == "hidden")
        #expect(Slug.downloadName("\u{7}") == "album")
        #expect(Slug.downloadName("..\\..\\evil", fallback: "photo") == "evil" && Slug.downloadName("..", fallback: "photo") == "photo")
    }
}

/// The note that link previews need `base_url`: said on the first build
/// into an OUT only, never with `base_url` set.
@Suite struct BaseURLAdviceTests {
    @Test func theNoteIsSaidOnceAndOnlyWithoutAnAddress() async throws {
        let library = try EndToEndTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        let first = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(first.summary.contains("base_url") && first.advice.count == 1)
        let second = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(second.advice.isEmpty && !second.summary.contains("base_url"))
        let other = try TemporaryFolder()
        settings = BuildSettings(source: library.source, output: other.url.appendingPathComponent("site"), values: settings.values)
        settings.baseURL = "https://example.org/"
        let withAddress = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(withAddress.advice.isEmpty)
    }
}
