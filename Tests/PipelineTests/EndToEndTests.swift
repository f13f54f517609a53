import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import Planning
@testable import GalleryKit
@testable import Imaging

/// Runs the real pipeline on a small generated library into a temporary folder.
@Suite struct EndToEndTests {
    struct Library {
        let folder: TemporaryFolder
        var source: URL { folder.url.appendingPathComponent("Pictures") }
        var output: URL { folder.url.appendingPathComponent("site") }
    }

    static func makeLibrary() throws -> Library {
        let folder = try TemporaryFolder()
        let image = Fixtures.quadrants(width: 320, height: 240)
        try folder.write("Pictures/root.jpg", try Fixtures.jpeg(image, exif: Fixtures.cameraExif()))
        try folder.write("Pictures/Trips/Paris/rotated.jpg", try Fixtures.jpeg(image, exif: Fixtures.cameraExif(orientation: 6)))
        try folder.write("Pictures/Trips/Paris/graphic.png", Fixtures.png(Fixtures.gradient(width: 200, height: 100), exif: Fixtures.cameraExif()))
        let frame = Fixtures.GIFFrame(width: 40, height: 30, indices: [UInt8](repeating: 2, count: 1200))
        try folder.write("Pictures/Trips/anim.gif", Fixtures.gif(width: 40, height: 30, frames: [frame, frame]))
        try folder.write("Pictures/Misc/w.webp", try Fixtures.webp(Fixtures.gradient(width: 300, height: 200), exif: Fixtures.cameraExif()))
        let upper = try Fixtures.jpeg(Fixtures.gradient(width: 120, height: 90))
        try folder.write("Pictures/Misc/UPPER.JPEG", upper)
        try folder.write("Pictures/Trips/same-as-upper.jpg", upper)  // same content, second album
        try folder.write("Pictures/Private/hidden.jpg", try Fixtures.jpeg(Fixtures.quadrants(width: 100, height: 80)))
        try folder.write("Pictures/Private/album.yml", Array("hidden: true\ntitle: Private stuff\n".utf8))
        let truncated = try Fixtures.jpeg(Fixtures.quadrants(width: 400, height: 300), quality: 95)
        try folder.write("Pictures/Misc/broken.jpg", Array(truncated.prefix(truncated.count / 2)))
        try folder.write("Pictures/Misc/text.jpg", Array("this is not an image".utf8))
        try folder.write("Pictures/Misc/empty.png", [])
        try folder.write("Pictures/Misc/notes.txt", Array("ignored".utf8))
        try folder.write("Pictures/.hidden/secret.jpg", try Fixtures.jpeg(image))
        try folder.write("Pictures/Misc/.secret.jpg", try Fixtures.jpeg(image))
        return Library(folder: folder)
    }

    static func settings(_ library: Library, format: OutputFormat = .webp) -> BuildSettings {
        BuildSettings(source: library.source, output: library.output, title: "Test <Gallery>",
                      thumbnailBoxes: [PixelSize(width: 64, height: 48), PixelSize(width: 128, height: 96)],
                      previewBoxes: [PixelSize(width: 160, height: 120)], format: format, jobs: 2)
    }

    /// Every `href`/`src`/`srcset` URL of a page.
    static func links(in html: String) -> [String] {
        var found: [String] = []
        let pattern = try! NSRegularExpression(pattern: #"(?:href|src)="([^"]+)"|srcset="([^"]+)""#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            if let r = Range(match.range(at: 1), in: html) { found.append(String(html[r])) }
            if let r = Range(match.range(at: 2), in: html) {
                found += html[r].split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
            }
        }
        return found.map { $0.replacingOccurrences(of: "&amp;", with: "&") }
    }

    /// Resolves `.` and `..` in a relative path (NSString does not on Linux).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    @Test func buildsABrowsableSite() async throws {
        let library = try Self.makeLibrary()
        let sourceBefore = try FileManager.default.subpathsOfDirectory(atPath: library.source.path).sorted()
        let report = try await GalleryBuilder().build(settings: Self.settings(library), quiet: true)
        #expect(report.published == 8)
        #expect(Set(report.skipped.map(\.path)) == ["Misc/broken.jpg", "Misc/text.jpg", "Misc/empty.png"])
        for skipped in report.skipped { #expect(!skipped.reason.isEmpty) }

        let fm = FileManager.default
        let index = try String(contentsOf: library.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("albums/trips/index.html"))
        #expect(index.contains("albums/misc/index.html"))
        #expect(index.contains("Test &lt;Gallery&gt;"))
        #expect(!index.contains("<Gallery>"))

        // Crawl: every page and image link resolves, every <img> has a size.
        var pages = ["index.html"]
        var seen: Set<String> = []
        var imagesSeen: Set<String> = []
        while let page = pages.popLast() {
            guard seen.insert(page).inserted else { continue }
            let html = try String(contentsOf: library.output.appendingPathComponent(page), encoding: .utf8)
            for img in html.components(separatedBy: "<img ").dropFirst() {
                let tag = img.prefix { $0 != ">" }
                #expect(tag.contains("width=\"") && tag.contains("height=\""), "unsized image on \(page)")
            }
            let folder = (page as NSString).deletingLastPathComponent
            for link in Self.links(in: html) where !link.hasPrefix("data:") {
                #expect(!link.hasPrefix("/") && !link.contains("://"), "non-relative URL \(link)")
                let withoutFragment = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? link
                let decoded = withoutFragment.removingPercentEncoding ?? withoutFragment
                let target = Self.normalize(folder.isEmpty ? decoded : folder + "/" + decoded)
                #expect(fm.fileExists(atPath: library.output.appendingPathComponent(target).path), "broken link \(link) on \(page)")
                if target.hasSuffix(".html") { pages.append(target) } else if target.hasPrefix("media/") { imagesSeen.insert(target) }
            }
        }
        #expect(seen.contains("albums/trips/paris/index.html"))
        #expect(seen.contains("albums/misc/index.html"))
        #expect(seen.contains("albums/trips/paris/rotated.html"))
        #expect(seen.contains("moments/index.html"))
        // The hidden album has pages but nothing links to them.
        #expect(!seen.contains { $0.hasPrefix("albums/private") })
        #expect(fm.fileExists(atPath: library.output.appendingPathComponent("albums/private/index.html").path))
        // 7 listed photos × (2 thumbnails + 1 preview), minus boxes a small image fills whole.
        #expect(imagesSeen.count >= 12)

        // Moments: every listed photo once (the duplicate shown once, the hidden one not at all).
        let moments = try String(contentsOf: library.output.appendingPathComponent("moments/index.html"), encoding: .utf8)
        let shown = moments.components(separatedBy: "<img ").count - 1
        #expect(shown == 6)
        #expect(!moments.contains("hidden.jpg"))
        // Quiet days (a few photos each) share a grid: the day is named above its first photo, whole in its title.
        #expect(moments.contains("<time datetime=\"2024-03-10\">Sunday, March 10, 2024</time>")
                || (moments.contains("title=\"Sunday, March 10, 2024, ") && moments.contains("<time datetime=\"2024-03-10\">Mar 10, 2024</time>")))

        // A photo page: preview with srcset, neighbours linked and preloaded, facts, no GPS.
        let photoPage = try String(contentsOf: library.output.appendingPathComponent("albums/trips/paris/rotated.html"), encoding: .utf8)
        #expect(photoPage.contains("rel=\"preload\" as=\"image\""))
        #expect(photoPage.contains("<link rel=\"prev\" href=\"graphic.html\">") || photoPage.contains("<link rel=\"next\" href=\"graphic.html\">"))
        #expect(photoPage.contains("NIKON D70"))
        #expect(photoPage.contains("ƒ/2.8") && photoPage.contains("1/250 s") && photoPage.contains("35 mm"))
        #expect(!photoPage.contains("48.85") && !photoPage.contains("GPS"))

        // The rotated photo's rendition is portrait; sizes in the page match the files.
        let paris = try String(contentsOf: library.output.appendingPathComponent("albums/trips/paris/index.html"), encoding: .utf8)
        #expect(paris.contains("href=\"rotated.html\""))
        #expect(paris.contains("alt=\"Photo, "), "no title or caption: the alt text says what and when, not a file name")
        #expect(paris.contains("width=\"36\" height=\"48\""))

        // Nothing published carries EXIF or GPS.
        for path in imagesSeen {
            let data = try Data(contentsOf: library.output.appendingPathComponent(path))
            #expect(data.range(of: Data("Exif".utf8)) == nil, "\(path) carries EXIF")
            #expect(data.range(of: Data("NIKON".utf8)) == nil, "\(path) carries camera tags")
        }

        // Hidden files and non-photos are ignored; SOURCE is untouched.
        #expect(!index.contains("secret"))
        #expect(try fm.subpathsOfDirectory(atPath: library.source.path).sorted() == sourceBefore)
    }

    @Test func renditionFilesHaveTheSizesThePagesClaim() async throws {
        let library = try Self.makeLibrary()
        _ = try await GalleryBuilder().build(settings: Self.settings(library, format: .jpeg), quiet: true)
        let html = try String(contentsOf: library.output.appendingPathComponent("index.html"), encoding: .utf8)
        let item = try #require(html.components(separatedBy: "<li").first { $0.contains("root.html\"") })
        let img = try #require(item.components(separatedBy: "<img ").dropFirst().first)
        #expect(img.contains("width=\"64\" height=\"48\""))
        let src = try #require(img.components(separatedBy: "src=\"").dropFirst().first?.prefix { $0 != "\"" })
        let bytes = try [UInt8](Data(contentsOf: library.output.appendingPathComponent(String(src))))
        let decoded = try bytes.withUnsafeBytes { try JPEGCodec.decode($0, scaleDenominator: 1, maximumPixels: 1 << 30) }.image
        #expect(decoded.size == PixelSize(width: 64, height: 48))
        #expect(src.hasSuffix(".jpg"))
    }

    @Test func secondBuildReusesEverything() async throws {
        let library = try Self.makeLibrary()
        let first = try await GalleryBuilder().build(settings: Self.settings(library), quiet: true)
        #expect(first.renditionsMade > 0)
        let second = try await GalleryBuilder().build(settings: Self.settings(library), quiet: true)
        #expect(second.renditionsMade == 0)
        #expect(second.renditionsReused == first.renditionsMade + first.renditionsReused)
        #expect(second.filesWritten.isEmpty)
        #expect(second.filesRemoved.isEmpty)
    }

    @Test func userFilesInOutputSurviveAndStaleFilesGo() async throws {
        let library = try Self.makeLibrary()
        _ = try await GalleryBuilder().build(settings: Self.settings(library), quiet: true)
        try Data("example.org".utf8).write(to: library.output.appendingPathComponent("CNAME"))
        try FileManager.default.removeItem(at: library.source.appendingPathComponent("Misc"))
        let report = try await GalleryBuilder().build(settings: Self.settings(library), quiet: true)
        #expect(report.filesRemoved.contains("albums/misc/index.html"))
        #expect(FileManager.default.fileExists(atPath: library.output.appendingPathComponent("CNAME").path))
        #expect(!FileManager.default.fileExists(atPath: library.output.appendingPathComponent("albums/misc").path))
    }

    @Test func refusesOutputInsideSourceAndMissingSource() async throws {
        let library = try Self.makeLibrary()
        var settings = Self.settings(library)
        settings.output = library.source.appendingPathComponent("site")
        await #expect(throws: OutputError.self) { try await GalleryBuilder().build(settings: settings, quiet: true) }
        #expect(!FileManager.default.fileExists(atPath: settings.output.path))
        settings.output = library.source
        await #expect(throws: OutputError.self) { try await GalleryBuilder().build(settings: settings, quiet: true) }
        settings.source = library.folder.url.appendingPathComponent("nope")
        settings.output = library.output
        await #expect(throws: GalleryError.self) { try await GalleryBuilder().build(settings: settings, quiet: true) }
    }
}
