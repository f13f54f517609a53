import Configuration
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Planning
@testable import GalleryKit

/// `base_url`: canonical links, sitemap.xml and robots.txt, only with an
/// address the user gave, listing exactly the published pages.
@Suite struct SharingTests {
    @Test func baseURLIsCheckedAndEndsWithASlash() throws {
        #expect(try ConfigFile.parse("base_url: https://example.org/photos\n").baseURL == "https://example.org/photos/")
        #expect(try ConfigFile.parse("base_url: http://example.org/\n").baseURL == "http://example.org/")
        #expect(try ConfigFile.parse("title: x\n").baseURL == "")
        for bad in ["example.org", "ftp://example.org/", "https:///path", "https://example.org/a b", "https://example.org/?q=1"] {
            #expect(throws: ConfigError.self, "\(bad)") { _ = try ConfigFile.parse("base_url: \"\(bad)\"\n") }
        }
    }

    /// The `<loc>`s of an XML file, read by Foundation's parser (so the file is well-formed).
    final class Locations: NSObject, XMLParserDelegate {
        var pages: [String] = [], images: [String] = []
        var text = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "loc" { pages.append(text) }
            if name == "image:loc" { images.append(text) }
        }
    }

    @Test func theSitemapListsExactlyThePublishedPages() async throws {
        let library = try EndToEndTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        settings.baseURL = "https://example.org/my%20photos/"
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = library.output
        let data = try Data(contentsOf: out.appendingPathComponent("sitemap.xml"))
        let locations = Locations()
        let parser = XMLParser(data: data)
        parser.delegate = locations
        #expect(parser.parse(), "sitemap.xml is well-formed XML")
        let base = "https://example.org/my%20photos/"
        #expect(!locations.pages.isEmpty && locations.pages.allSatisfy { $0.hasPrefix(base) })
        let listed = Set(locations.pages.map { String($0.dropFirst(base.count)).removingPercentEncoding! })
        // Every published HTML page but the search page and the hidden album's pages, and nothing else.
        let html = Set(try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".html") })
        let expected = html.filter { !$0.hasPrefix("albums/private/") && $0 != "search/index.html" }
        #expect(listed == expected, "missing \(expected.subtracting(listed)), extra \(listed.subtracting(expected))")
        for image in locations.images {
            let path = String(image.dropFirst(base.count)).removingPercentEncoding!
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(path).path), "\(image)")
        }
        #expect(!locations.images.isEmpty)
        // Canonical links name each page itself.
        let page = try String(contentsOf: out.appendingPathComponent("albums/trips/paris/rotated.html"), encoding: .utf8)
        #expect(page.contains("<link rel=\"canonical\" href=\"\(base)albums/trips/paris/rotated.html\">"))
        let robots = try String(contentsOf: out.appendingPathComponent("robots.txt"), encoding: .utf8)
        #expect(robots.contains("Sitemap: \(base)sitemap.xml"))
    }

    /// The `content` of `<meta property|name="key">` in `html`.
    static func meta(_ key: String, in html: String) -> String? {
        guard let start = html.range(of: "=\"\(key)\" content=\"") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test func pagesCarryLinkPreviewsWhosePicturesExist() async throws {
        let library = try EndToEndTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        settings.baseURL = "https://example.org/"
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let out = library.output
        for page in ["index.html", "albums/trips/paris/index.html", "albums/trips/paris/rotated.html", "moments/index.html", "moments/years.html"] {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            #expect(Self.meta("og:url", in: html) == "https://example.org/" + page, "\(page)")
            #expect(Self.meta("og:title", in: html)?.isEmpty == false && Self.meta("og:description", in: html)?.isEmpty == false, "\(page)")
            #expect(Self.meta("twitter:card", in: html) == "summary_large_image", "\(page)")
            let image = try #require(Self.meta("og:image", in: html), "\(page)")
            let file = String(image.dropFirst("https://example.org/".count))
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(page): \(image)")
            // The stated size is the file's (rendition names end in -WxH).
            let size = try #require(Self.meta("og:image:width", in: html)).appending("x").appending(try #require(Self.meta("og:image:height", in: html)))
            #expect(file.hasSuffix("-\(size).webp"), "\(page): \(file) is not \(size)")
        }
        // Every other kind of page: tags, a tag, favourites, search (no picture there), canonical links everywhere.
        for page in ["tags/index.html", "search/index.html"] + ((try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("tags").path)) ?? [])
            .filter { !$0.hasSuffix(".html") }.prefix(1).map { "tags/\($0)/index.html" }
            where FileManager.default.fileExists(atPath: out.appendingPathComponent(page).path) || page == "search/index.html" {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            #expect(Self.meta("og:url", in: html) == "https://example.org/" + page, "\(page)")
            #expect(Self.meta("og:title", in: html)?.isEmpty == false && Self.meta("twitter:card", in: html) != nil, "\(page)")
            #expect(html.contains("<link rel=\"canonical\" href=\"https://example.org/\(page)\">"), "\(page)")
        }
        let item = try String(contentsOf: out.appendingPathComponent("albums/trips/paris/rotated.html"), encoding: .utf8)
        #expect(Self.meta("og:type", in: item) == "article")
        #expect(Self.meta("og:site_name", in: item) == "Test &lt;Gallery&gt;", "escaped like every value")
    }

    @Test func withoutABaseURLNoAbsoluteAddressIsMadeUp() async throws {
        let library = try EndToEndTests.makeLibrary()
        _ = try await GalleryBuilder().build(settings: EndToEndTests.settings(library), quiet: true)
        let out = library.output
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sitemap.xml").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("robots.txt").path))
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!page.contains("rel=\"canonical\"") && !page.contains("https://") && !page.contains("og:"))
    }

    @Test func aRobotsFileOfTheUsersOwnIsKept() async throws {
        let library = try EndToEndTests.makeLibrary()
        var settings = EndToEndTests.settings(library)
        settings.baseURL = "https://example.org/"
        try FileManager.default.createDirectory(at: library.output, withIntermediateDirectories: true)
        let own = library.output.appendingPathComponent("robots.txt")
        try Data("User-agent: *\nDisallow: /\n".utf8).write(to: own)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(try String(contentsOf: own, encoding: .utf8) == "User-agent: *\nDisallow: /\n")
        #expect(FileManager.default.fileExists(atPath: library.output.appendingPathComponent("sitemap.xml").path))
        // Ours, once written, is ours: base_url removed, it goes with the sitemap.
        let second = try EndToEndTests.makeLibrary()
        var withURL = EndToEndTests.settings(second)
        withURL.baseURL = "https://example.org/"
        _ = try await GalleryBuilder().build(settings: withURL, quiet: true)
        #expect(FileManager.default.fileExists(atPath: second.output.appendingPathComponent("robots.txt").path))
        withURL.baseURL = ""
        _ = try await GalleryBuilder().build(settings: withURL, quiet: true)
        #expect(!FileManager.default.fileExists(atPath: second.output.appendingPathComponent("robots.txt").path))
        #expect(!FileManager.default.fileExists(atPath: second.output.appendingPathComponent("sitemap.xml").path))
    }
}
