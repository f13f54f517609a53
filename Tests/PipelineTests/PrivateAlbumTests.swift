import Archives
import Configuration
import Foundation
import Synchronization
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import GalleryKit
@testable import Sealing
@testable import SiteOutput

/// Private albums on real builds: OUT read as an attacker would read it
/// (every file and every name), the sealed files opened with the key, the
/// public files compared with a build that never had the album, and the
/// rebuilds (nothing sealed again; a new passphrase seals everything anew).
/// The browser half (the passphrase asked, the album shown) is
/// Tests/browser/test_private.py.
@Suite struct PrivateAlbumTests {
    /// Every state committed from the previous one's file is checked against the state encoded whole.
    init() { BuildState.checkCommitsFromBase() }

    static let passphrase = "staple hunter2 orchid"
    /// Everything of the private album and of a rejected photo: none of it may be readable in OUT.
    static let secrets = ["Quetzalcoatl Reunion", "Marzipancousins", "Snorkelwombat", "kumquatparade", "Familienfeier", "Geheimkammer",
                          "kiwiportrait", "subfolderphoto", "clubhouse", "Blurry reject quokka", "quokkareject", passphrase]

    static func makeLibrary(withPrivateAlbum: Bool = true) throws -> EndToEndTests.Library {
        let folder = try TemporaryFolder()
        try folder.write("Pictures/Public/harbour.jpg", try Fixtures.jpeg(Fixtures.quadrants(width: 320, height: 240), exif: Fixtures.cameraExif()))
        try folder.write("Pictures/Public/album.yml", Array("title: Harbour days\n".utf8))
        // Rejected (xmp:Rating -1): left out, its words too.
        try folder.write("Pictures/Public/quokkareject.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 200, height: 150)))
        try folder.write("Pictures/Public/quokkareject.xmp", Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="-1">\
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Blurry reject quokka</rdf:li></rdf:Alt></dc:title>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8))
        guard withPrivateAlbum else { return EndToEndTests.Library(folder: folder) }
        try folder.write("Pictures/Familienfeier/kiwiportrait.jpg",
                         try Fixtures.jpeg(Fixtures.gradient(width: 240, height: 320), exif: Fixtures.cameraExif(original: "2023:07:01 12:00:00")))
        // The passphrase file beside a photo of the same name: never a caption, never published.
        try folder.write("Pictures/Familienfeier/clubhouse.jpg", try Fixtures.jpeg(Fixtures.quadrants(width: 160, height: 160)))
        try folder.write("Pictures/Familienfeier/clubhouse.txt", Array((passphrase + "\n").utf8))
        try folder.write("Pictures/Familienfeier/Geheimkammer/subfolderphoto.png", Fixtures.png(Fixtures.gradient(width: 90, height: 60)))
        try folder.write("Pictures/Familienfeier/album.yml", Array("""
            title: Quetzalcoatl Reunion
            description: Only for the Marzipancousins.
            private: true
            passphrase_file: clubhouse.txt
            photos:
              kiwiportrait.jpg:
                title: Snorkelwombat
                keywords: [kumquatparade]

            """.utf8))
        return EndToEndTests.Library(folder: folder)
    }

    static func build(_ library: EndToEndTests.Library) async throws -> BuildReport {
        var settings = EndToEndTests.settings(library)
        settings.values.albumDownloads = true
        settings.values.publishOriginals = true
        return try await GalleryBuilder().build(settings: settings, quiet: true)
    }

    /// Every file under OUT, dot-files included, relative to OUT.
    static func files(_ out: URL) -> [String] {
        let base = out.standardizedFileURL.path
        return (FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    @Test func nothingOfAPrivateAlbumIsReadableInOUT() async throws {
        let library = try Self.makeLibrary()
        let report = try await Self.build(library)
        #expect(report.skipped.isEmpty)
        let files = Self.files(library.output)
        #expect(files.contains("index.html"))
        let lower = Self.secrets.map { Array($0.lowercased().utf8) }
        for path in files {
            let bytes = Array(try Data(contentsOf: library.output.appendingPathComponent(path)))
            // Words in any letter case, HTML-escaped spaces too.
            let text = Array(String(decoding: bytes, as: UTF8.self).lowercased().replacingOccurrences(of: "&#32;", with: " ").utf8)
            for (secret, needle) in zip(Self.secrets, lower) {
                #expect(!path.lowercased().contains(secret.lowercased()), "\(path) is named after '\(secret)'")
                #expect(text.firstRange(of: needle) == nil, "\(path) holds '\(secret)'")
            }
        }
        // The public album is published in plain, with a locked card for the private one.
        let home = try String(contentsOf: library.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("Harbour days"))
        #expect(home.contains("album-card-locked"))
        // Every file of the vault is sealed and opens with the album's key.
        let key = try SaltStore(stateFolder: EndToEndTests.settings(library).stateFolder)
            .key(for: AlbumPath(components: ["Familienfeier"]), passphrase: Array(Self.passphrase.utf8))
        let sealed = files.filter { $0.hasPrefix("sealed/") }
        #expect(sealed.allSatisfy { $0.hasPrefix(key.vault.folder) })
        var pages = 0, media = 0
        var opened = ""
        var openedFiles: [String: Data] = [:]
        for path in sealed {
            let text = try String(contentsOf: library.output.appendingPathComponent(path), encoding: .utf8)
            let payload: String
            if path.hasSuffix(".html") {
                let start = try #require(text.range(of: #"id="gallerygen-sealed""#)).upperBound
                let body = text[start...].drop { $0 != ">" }.dropFirst()
                payload = String(body.prefix { $0 != "<" })
                pages += 1
            } else {
                #expect(text.hasPrefix("gallerygenSealed(\"\(AlbumKey.name(of: path))\",\""))
                payload = String(text.split(separator: "\"")[3])
                media += 1
            }
            let plain = try key.open(try #require(Data(base64Encoded: payload)), path: path)
            if path.hasSuffix(".html") { opened += String(decoding: plain, as: UTF8.self) } else { openedFiles[path] = plain }
        }
        // Two albums' pages and four items' pages; thumbnails, previews and originals of three items.
        #expect(pages == 5)
        #expect(media >= 9)
        #expect(opened.contains("Quetzalcoatl Reunion") && opened.contains("Snorkelwombat") && opened.contains("Geheimkammer"))
        #expect(!opened.contains(Self.passphrase), "the passphrase file became a caption")
        // The album's download is a sealed ZIP of its photos, opened, under their own names.
        let link = try #require(opened.firstMatch(of: /class="album-download"><a href="([0-9a-f]{32}\.js)" download="Quetzalcoatl Reunion\.zip"/))
        let zip = try #require(openedFiles[key.vault.folder + link.1])
        let zipFile = library.folder.url.appendingPathComponent("download.zip")
        try zip.write(to: zipFile)
        let members = try Archives.AlbumArchive.listing(zipFile)
        #expect(members.map(\.name).sorted() == ["clubhouse.jpg", "kiwiportrait.jpg"])
        #expect(try Archives.AlbumArchive.contents(of: "clubhouse.jpg", in: zipFile).starts(with: [0xFF, 0xD8, 0xFF]))
        // The public files are exactly those of a build that never had the private album.
        let without = try Self.makeLibrary(withPrivateAlbum: false)
        _ = try await Self.build(without)
        let publicFiles = files.filter { $0.hasPrefix("media/") }
        #expect(publicFiles == Self.files(without.output).filter { $0.hasPrefix("media/") })
    }

    @Test func aRebuildSealsNothingAgainAndANewPassphraseSealsEverythingAnew() async throws {
        let library = try Self.makeLibrary()
        _ = try await Self.build(library)
        let before = Self.files(library.output).filter { $0.hasPrefix("sealed/") }
        let again = try await Self.build(library)
        #expect(again.filesWritten.isEmpty && again.pagesRendered == 0 && again.renditionsMade == 0)
        #expect(Self.files(library.output).filter { $0.hasPrefix("sealed/") } == before)

        try library.folder.write("Pictures/Familienfeier/clubhouse.txt", Array("a new passphrase\n".utf8))
        _ = try await Self.build(library)
        let after = Self.files(library.output).filter { $0.hasPrefix("sealed/") }
        #expect(after.count == before.count)
        #expect(Set(after).isDisjoint(with: before), "files sealed with the old key were kept")
        let state = EndToEndTests.settings(library).stateFolder
        let old = try SaltStore(stateFolder: state).key(for: AlbumPath(components: ["Familienfeier"]), passphrase: Array("a new passphrase".utf8))
        #expect(after.allSatisfy { $0.hasPrefix(old.vault.folder) })
    }

    @Test func aPrivateAlbumNeedsAReadablePassphraseOutsideOUT() async throws {
        // No passphrase_file: the build stops before any work, naming the file and line.
        #expect(throws: ConfigError.self) { try AlbumSidecar.parse("title: x\nprivate: true\n", file: "Family/album.yml") }
        do {
            _ = try AlbumSidecar.parse("title: x\nprivate: true\n", file: "Family/album.yml")
        } catch {
            #expect(error.description == "Family/album.yml:2: key 'private': a private album needs passphrase_file: the file (outside OUT) that holds its passphrase")
        }
        let library = try Self.makeLibrary()
        try library.folder.write("Pictures/Familienfeier/clubhouse.txt", Array("\n".utf8))
        await #expect(throws: ConfigError.self) { _ = try await Self.build(library) }
        #expect(!FileManager.default.fileExists(atPath: library.output.path), "OUT was touched before the sidecars were checked")
        try library.folder.write("site/secret.txt", Array("in OUT".utf8))
        try library.folder.write("Pictures/Familienfeier/album.yml", Array("private: true\npassphrase_file: ../../site/secret.txt\n".utf8))
        do {
            _ = try await Self.build(library)
            Issue.record("a passphrase inside OUT was taken")
        } catch let error as ConfigError {
            #expect(error.description.contains("Familienfeier/album.yml:2: key 'passphrase_file'") && error.description.contains("inside OUT"))
        }
    }
}
