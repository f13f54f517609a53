import Configuration
import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Metadata

/// The photographer's words: XMP, IPTC, EXIF and sidecars read safely, camera
/// boilerplate dropped, rejects left out, and everything shown as text.
@Suite struct WordsTests {
    // MARK: Fixtures

    static func xmpPacket(_ description: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        \(description)
        </rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    /// Lightroom's way: title, description and subject as elements, rating as an attribute.
    static let lightroom = xmpPacket("""
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmp:Rating="4">
          <dc:title><rdf:Alt><rdf:li xml:lang="de">Am Hafen</rdf:li><rdf:li xml:lang="x-default">At the harbour</rdf:li></rdf:Alt></dc:title>
          <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Boats &amp; gulls at dawn, Brittany</rdf:li></rdf:Alt></dc:description>
          <dc:subject><rdf:Bag><rdf:li>boats</rdf:li><rdf:li>Sea</rdf:li><rdf:li>sea</rdf:li></rdf:Bag></dc:subject>
          <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|France|Brittany</rdf:li></rdf:Bag></lr:hierarchicalSubject>
        </rdf:Description>
        """)

    /// A JPEG of `seed` with an XMP packet and/or an IPTC block (inside
    /// Photoshop image resources) and/or EXIF.
    static func jpeg(_ seed: Int, xmp: String? = nil, iptc: [UInt8]? = nil, exif: [UInt8]? = nil) throws -> [UInt8] {
        var image = Fixtures.gradient(width: 64, height: 48)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i + 1] = UInt8(truncatingIfNeeded: seed * 41) }
        let plain = try Fixtures.jpeg(image, exif: exif)
        var segments: [UInt8] = []
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            segments += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        if let xmp { segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)) }
        if let iptc {
            let resource = Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + Fixtures.be32(UInt32(iptc.count)) + iptc + (iptc.count % 2 == 1 ? [0] : [])
            segment(0xED, Array("Photoshop 3.0\0".utf8) + resource)
        }
        return Array(plain[0..<2]) + segments + Array(plain[2...])
    }

    /// IPTC-IIM datasets: (record, dataset, bytes).
    static func iptc(_ datasets: [(UInt8, UInt8, [UInt8])]) -> [UInt8] {
        datasets.flatMap { [0x1C, $0.0, $0.1, UInt8($0.2.count >> 8), UInt8($0.2.count & 0xFF)] + $0.2 }
    }

    /// An EXIF block with an ImageDescription and a date.
    static func exif(description: String? = nil) -> [UInt8] {
        var ifd0: [UInt16: Fixtures.Value] = [:]
        if let description { ifd0[0x010E] = .ascii(description) }
        return Fixtures.tiff(ifd0: ifd0, exif: [0x9003: .ascii("2025:05:03 10:00:00")])
    }

    // MARK: Readers

    @Test func xmpGivesTitleCaptionKeywordsAndRating() {
        let words = WordsReader.xmp(Array(Self.lightroom.utf8))
        #expect(words.title == "At the harbour", "x-default wins over another language")
        #expect(words.caption == "Boats & gulls at dawn, Brittany")
        #expect(words.keywords == ["boats", "Sea", "Brittany"], "repeats dropped, hierarchy leaves added")
        #expect(words.rating == 4)
    }

    @Test func xmpRatingsPicksAndFaces() {
        let rejected = WordsReader.xmp(Array(Self.xmpPacket(
            #"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Rating>-1</xmp:Rating></rdf:Description>"#).utf8))
        #expect(rejected.rating == -1 && rejected.isRejected)
        let picked = WordsReader.xmp(Array(Self.xmpPacket(
            #"<rdf:Description xmlns:xmpDM="http://ns.adobe.com/xmp/1.0/DynamicMedia/" xmpDM:pick="-1"/>"#).utf8))
        #expect(picked.isRejected, "Lightroom's reject flag")
        let windows = WordsReader.xmp(Array(Self.xmpPacket(
            #"<rdf:Description xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/" MicrosoftPhoto:Rating="75"/>"#).utf8))
        #expect(windows.rating == 4)
        let faces = WordsReader.xmp(Array(Self.xmpPacket("""
            <rdf:Description xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/">
              <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag>
                <rdf:li><rdf:Description mwg-rs:Name="Ada Lovelace" mwg-rs:Type="Face"/></rdf:li>
                <rdf:li><rdf:Description mwg-rs:Name="Rex" mwg-rs:Type="Pet"/></rdf:li>
                <rdf:li rdf:parseType="Resource"><mwg-rs:Name>Alan Turing</mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type></rdf:li>
              </rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>
            </rdf:Description>
            """).utf8))
        #expect(faces.people == ["Ada Lovelace", "Alan Turing"], "faces, not pets")
    }

    @Test func hostileXMPIsReadSafely() {
        // An external entity is never resolved; the packet's other words still count.
        let external = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li>A &secret; B</rdf:li></rdf:Alt></dc:title>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let words = WordsReader.xmp(Array(external.utf8))
        #expect(!(words.title ?? "").contains("root:"))
        // Broken XML keeps what came before the break; control characters go.
        let broken = Self.xmpPacket("<rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:description><rdf:Alt><rdf:li>Line\u{7}one</rdf:li></rdf:Alt></dc:description><dc:subject><rdf:Bag><rdf:li>a</rdf")
        let partial = WordsReader.xmp(Array(broken.utf8))
        #expect(partial.caption?.hasPrefix("Line") == true && partial.caption?.contains("\u{7}") == false, "\(String(describing: partial.caption))")
        #expect(WordsReader.xmp([UInt8](repeating: 0x41, count: WordsReader.maximumXMPBytes + 1)).isEmpty)
        #expect(WordsReader.xmp(Array("garbage <<< not xml".utf8)).isEmpty)
    }

    @Test func iptcIsReadInItsCharacterSet() {
        let latin1 = Self.iptc([(2, 5, [0x43, 0x61, 0x66, 0xE9]), (2, 120, Array("Terrasse au soleil".utf8)),
                                (2, 25, Array("caf".utf8) + [0xE9]), (2, 25, Array("Paris".utf8))])
        let words = latin1.withUnsafeBytes { WordsReader.iptc($0) }
        #expect(words.title == "Café" && words.caption == "Terrasse au soleil" && words.keywords == ["café", "Paris"])
        let utf8 = Self.iptc([(1, 90, [0x1B, 0x25, 0x47]), (2, 120, Array("東京タワー".utf8))])
        #expect(utf8.withUnsafeBytes { WordsReader.iptc($0) }.caption == "東京タワー")
        // A length past the end stops the walk; nothing is read out of bounds.
        let cut: [UInt8] = [0x1C, 2, 120, 0x7F, 0xFF, 0x41]
        #expect(cut.withUnsafeBytes { WordsReader.iptc($0) }.isEmpty)
    }

    @Test func exifWordsAndCameraBoilerplate() {
        func littleEndian(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
        func bigEndian(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        let xp: [UInt8] = littleEndian("Sunset") + [0, 0]
        let comment: [UInt8] = Array("UNICODE\0".utf8) + bigEndian("Über den Wolken")
        let words = ExifReader.words(description: Array("OLYMPUS DIGITAL CAMERA         ".utf8), xpTitle: xp, xpComment: nil,
                                     xpKeywords: littleEndian("a;b"),
                                     userComment: comment, rating: 3, bigEndian: true)
        #expect(words.title == "Sunset")
        #expect(words.caption == "Über den Wolken", "the boilerplate description gives way to the UserComment")
        #expect(words.keywords == ["a", "b"] && words.rating == 3)
        for junk in ["SONY DSC", "  ", "DCIM\\100CANON", "<Camera Model>", "KODAK Z981 DIGITAL CAMERA", "Default", "...", "0000"] {
            #expect(PhotoWords.cleanText(junk) == nil, "\(junk)")
        }
        #expect(PhotoWords.cleanText("  Two\u{200B} words \r\n\r\n next line ") == "Two words\nnext line")
    }

    /// Names from face regions are published only with publish_people; until
    /// then they are in no page, no search file and not in OUT's state.
    @Test func peopleAreNotPublishedUnlessAsked() async throws {
        let folder = try TemporaryFolder()
        let faces = Self.xmpPacket("""
            <rdf:Description xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"><mwg-rs:Regions rdf:parseType="Resource">
            <mwg-rs:RegionList><rdf:Bag><rdf:li><rdf:Description mwg-rs:Name="Zoë Quux" mwg-rs:Type="Face"/></rdf:li></rdf:Bag>
            </mwg-rs:RegionList></mwg-rs:Regions></rdf:Description>
            """)
        try folder.write("src/party.jpg", try Self.jpeg(9, xmp: faces, exif: Self.exif()))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        func everything() throws -> String {
            let out = settings.output
            return try (FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".html") || $0.hasSuffix(".js") || $0.hasSuffix(".bin") }
                .map { String(decoding: try Data(contentsOf: out.appendingPathComponent($0)), as: UTF8.self) }.joined()
        }
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        let before = try everything().lowercased()
        #expect(!before.contains("quux"), "no page, search file or state holds the name")
        settings.publishPeople = true
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.renditionsMade == 0)
        let page = try String(contentsOf: settings.output.appendingPathComponent("albums/party.html"), encoding: .utf8)
        #expect(page.contains(#"<a href="../people/zoe-quux/index.html">Zoë Quux</a>"#), "named, linked to their page")
        #expect(try everything().contains("\"zoe\""), "searchable, accents folded")
    }

    /// Lightroom's "Save metadata to file" rewrites a JPEG's XMP, IPTC and
    /// EXIF: the pages change, the images are not re-encoded. A new
    /// orientation is new pixels.
    @Test func wordsWrittenIntoTheFileDoNotReencode() async throws {
        let folder = try TemporaryFolder()
        func caption(_ text: String) -> String {
            Self.xmpPacket("<rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(text)</rdf:li></rdf:Alt></dc:description></rdf:Description>")
        }
        try folder.write("src/p.jpg", try Self.jpeg(3, xmp: caption("First words"), exif: Self.exif(description: "old")))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        let first = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(first.renditionsMade == 2)
        try folder.write("src/p.jpg", try Self.jpeg(3, xmp: caption("Second, longer words"), iptc: Self.iptc([(2, 25, Array("new".utf8))]),
                                                   exif: Self.exif(description: "a new description")))
        let second = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(second.renditionsMade == 0, "\(second.summary)")
        let page = try String(contentsOf: settings.output.appendingPathComponent("albums/p.html"), encoding: .utf8)
        #expect(page.contains("Second, longer words") && page.contains(">new</a>"))
        let turned = Fixtures.tiff(ifd0: [0x0112: .short(6)], exif: [0x9003: .ascii("2025:05:03 10:00:00")])
        try folder.write("src/p.jpg", try Self.jpeg(3, xmp: caption("Second, longer words"), exif: turned))
        let third = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(third.renditionsMade == 2, "a new orientation is new pixels: \(third.summary)")
    }

    /// A TIFF (or DNG) exported with its words: XMP in tag 700, IPTC in 33723.
    @Test func tiffCarriesItsWordsInItsDirectory() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("scan.tif", CameraFixtures.tiff(Fixtures.gradient(width: 32, height: 24), layout: .rgb8))
        _ = try CameraFixtures.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title=Old map", "-IPTC:Keywords=maps",
                                                "-IPTC:Caption-Abstract=Found in the attic", url.path])
        let bytes = try [UInt8](Data(contentsOf: url))
        let metadata = try bytes.withUnsafeBytes { try MetadataReader.read($0, fileName: "scan.tif", modificationDate: Date()) }
        #expect(metadata.words.title == "Old map" && metadata.words.caption == "Found in the attic" && metadata.words.keywords == ["maps"])
    }

    @Test func albumYAMLPhotoEntries() throws {
        let settings = try AlbumSidecar.parse("photos:\n  IMG_1.jpg:\n    title: Summit\n    caption: At noon.\n    keywords: a, b\n")
        #expect(settings.photoWords["IMG_1.jpg"] == PhotoWords(title: "Summit", caption: "At noon.", keywords: ["a", "b"]))
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("photos:\n  IMG_1.jpg:\n    rating: 5\n") }
    }

    @Test func markdownSidecars() {
        let sigal = SidecarWords.markdown("Title: Old harbour\nKeywords: boats, sea\n\nThe **old** harbour at low tide.\n")
        #expect(sigal.title == "Old harbour" && sigal.keywords == ["boats", "sea"])
        #expect(sigal.caption == "The **old** harbour at low tide.")
        let heading = SidecarWords.markdown("# Grandma's garden\nRoses everywhere.")
        #expect(heading.title == "Grandma's garden" && heading.caption == "Roses everywhere.")
        let prose = SidecarWords.markdown("Note: we arrived late.")
        #expect(prose.title == nil && prose.caption == "Note: we arrived late.")
    }

    // MARK: Through the build

    @Test func wordsReachThePagesSafelyAndRejectsAreLeftOut() async throws {
        let folder = try TemporaryFolder()
        let xss = "<script>alert(1)</script> & \"quotes\""
        try folder.write("src/a.jpg", try Self.jpeg(1, xmp: Self.lightroom,
                                                   iptc: Self.iptc([(2, 120, Array("IPTC caption loses".utf8))]), exif: Self.exif()))
        try folder.write("src/b.jpg", try Self.jpeg(2, iptc: Self.iptc([(2, 5, Array("Nur IPTC".utf8)), (2, 25, Array("iptc-tag".utf8))]),
                                                   exif: Self.exif()))
        try folder.write("src/c.jpg", try Self.jpeg(3, exif: Self.exif(description: "OLYMPUS DIGITAL CAMERA")))
        try folder.write("src/d.jpg", try Self.jpeg(4, xmp: Self.lightroom, exif: Self.exif()))
        try folder.write("src/d.md", Array("Title: From the sidecar\n\n\(xss)\n".utf8))
        try folder.write("src/e.jpg", try Self.jpeg(5, exif: Self.exif()))
        try folder.write("src/e.jpg.xmp", Array(Self.xmpPacket(
            #"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="-1"/>"#).utf8))
        try folder.write("src/f.jpg", try Self.jpeg(6, exif: Self.exif()))
        try folder.write("src/f.txt", Array("  A plain caption.  ".utf8))
        try folder.write("src/notes.txt", Array("not anybody's sidecar".utf8))
        try folder.write("src/album.yml", Array("photos:\n  b.jpg:\n    title: From album.yml\n    keywords: [yml-tag, iptc-tag]\n".utf8))
        try folder.write("src/Private/album.yml", Array("hidden: true\n".utf8))
        try folder.write("src/Private/p.jpg", try Self.jpeg(7, xmp: Self.xmpPacket(
            #"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag><rdf:li>secret-tag</rdf:li></rdf:Bag></dc:subject></rdf:Description>"#),
            exif: Self.exif()))
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"))
        settings.thumbnailBoxes = [PixelSize(width: 32, height: 24)]
        settings.previewBoxes = [PixelSize(width: 64, height: 48)]
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 6 && report.leftOut.map(\.path) == ["e.jpg"], "\(report.summary)")
        #expect(report.ignored == ["notes.txt"], "sidecars are not 'ignored files'; a stray text file is")
        #expect(report.summary.contains("left out 1 rejected, low-rated, trashed or hidden"))

        let out = settings.output
        func page(_ name: String) throws -> String { try String(contentsOf: out.appendingPathComponent("albums/\(name).html"), encoding: .utf8) }
        let a = try page("a")
        #expect(a.contains("<h1 class=\"photo-title\">At the harbour</h1>") && a.contains("<title>At the harbour · Photos</title>"))
        #expect(a.contains("Boats &amp; gulls at dawn, Brittany") && !a.contains("IPTC caption loses"))
        #expect(a.contains("<li><a href=\"../tags/boats/index.html\">boats</a></li>") && a.contains(">Brittany</a></li>") && a.contains("★★★★☆"))
        let b = try page("b")
        #expect(b.contains(">From album.yml</h1>") && !b.contains("Nur IPTC"), "album.yml's entry wins over the file's IPTC")
        #expect(b.contains(">yml-tag</a></li>") && b.contains("<li><a href=\"../tags/iptc-tag/index.html\">iptc-tag</a></li>"))
        let c = try page("c")
        #expect(!c.contains("OLYMPUS") && c.contains("<h1 class=\"photo-title\">c.jpg</h1>"))
        let d = try page("d")
        #expect(d.contains(">From the sidecar</h1>"), "a sidecar's title wins over the file's XMP")
        #expect(!d.contains("<script>alert") && d.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"))
        #expect(try page("f").contains("<p class=\"photo-caption\">A plain caption.</p>"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("albums/e.html").path), "the reject has no page")

        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("alt=\"At the harbour\"") && index.contains("alt=\"From the sidecar\""))
        #expect(index.contains("alt=\"Photo, May 3, 2025\""), "no words: what and when, not the file name")
        #expect(index.contains("data-caption=\"At the harbour — Boats &amp; gulls at dawn, Brittany\""))
        #expect(!index.contains("<script>alert"))

        // Tag pages: every keyword, with its items (once each), linked from the header.
        #expect(index.contains("<a href=\"tags/index.html\">Tags</a>"))
        let tags = try String(contentsOf: out.appendingPathComponent("tags/index.html"), encoding: .utf8)
        for (name, count) in [("boats", "2 photos"), ("Sea", "2 photos"), ("Brittany", "2 photos"), ("iptc-tag", "1 photo")] {
            #expect(tags.contains("<span class=\"tag-name\">\(name)</span> <span class=\"tag-count\">\(count)</span>"), "\(name)")
        }
        let boats = try String(contentsOf: out.appendingPathComponent("tags/boats/index.html"), encoding: .utf8)
        #expect(boats.contains("<h1 class=\"page-title\">boats</h1>") && boats.contains("href=\"../../albums/a.html\"")
                && boats.contains("href=\"../../albums/d.html\"") && !boats.contains("albums/b.html"))
        #expect(!tags.contains("secret-tag") && !FileManager.default.fileExists(atPath: out.appendingPathComponent("tags/secret-tag").path),
                "a hidden album's keywords make no tag page")

        // Favourites: four stars and up (a and d, from Lightroom's XMP), linked from the header.
        #expect(index.contains("<a href=\"favourites/index.html\">Favourites</a>"))
        let favourites = try String(contentsOf: out.appendingPathComponent("favourites/index.html"), encoding: .utf8)
        #expect(favourites.contains("href=\"../albums/a.html\"") && favourites.contains("href=\"../albums/d.html\"")
                && !favourites.contains("albums/b.html") && favourites.contains("2 photos"))

        // A sidecar edit is read again; no image is re-encoded.
        try folder.write("src/f.txt", Array("An edited caption.".utf8))
        let edited = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(edited.renditionsMade == 0, "\(edited.summary)")
        #expect(try page("f").contains("An edited caption."))
        // Un-rejecting in the sidecar publishes it.
        try folder.write("src/e.jpg.xmp", Array(Self.xmpPacket(
            #"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/>"#).utf8))
        let restored = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(restored.published == 7 && restored.leftOut.isEmpty)

        // Only four stars and up.
        settings.minRating = 4
        let best = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(best.published == 3 && best.leftOut.count == 4, "a, d (4 stars from XMP) and e (5): \(best.summary)")
    }
}
