import Foundation
import Synchronization
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit
@testable import Planning
@testable import Sealing

/// Page-level incrementality: a rebuild renders only the pages whose
/// fingerprint changed, and after any sequence of edits the site is byte for
/// byte the clean build of the same SOURCE.
@Suite(.serialized) struct PageIncrementalityTests {
    /// Every state committed from the previous one's file is checked against the state encoded whole.
    init() { BuildState.checkCommitsFromBase() }

    /// SplitMix64: the same sequence of edits on every machine.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let albums = ["", "Home", "Trips/Alps", "Trips/Coast", "Trips/Coast/Boats", "Zoo"]
    static let keywords = ["sea", "Sea", "snow", "boat", "family", "Zürich"]
    /// People's names as XML text (a name with markup in it, escaped as XMP writes it).
    static let people = ["Ada", "ada", "Countess Ada", "Grace", "Alan", "Zoë &lt;Quux&gt; &amp; &quot;Co&quot;"]

    /// A library being edited: which photos exist, and the next photo number.
    final class Library {
        let folder: TemporaryFolder
        var settings: BuildSettings
        var photos: [String] = []  // relative paths under src/
        var next = 0
        /// Albums made private by their album.yml (with the one passphrase file).
        var privateAlbums: Set<String> = []
        var passphraseFile: URL { folder.url.appendingPathComponent("passphrase.txt") }
        static let passphrase = "fjord lantern 42"

        init() throws {
            folder = try TemporaryFolder()
            settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 32, height: 24)], previewBoxes: [PixelSize(width: 64, height: 48)],
                                     jobs: 2)
            settings.values.photosPerPage = 3
            settings.values.publishPeople = true
        }

        var source: URL { settings.source }

        func add(_ random: inout Random) throws {
            next += 1
            let album = random.pick(PageIncrementalityTests.albums)
            let path = (album.isEmpty ? "" : album + "/") + "p\(next).jpg"
            let day = 1 + random.below(27), month = 1 + random.below(3), hour = 8 + random.below(12)
            let date = String(format: "2024:%02d:%02d %02d:%02d:00", month, day, hour, random.below(60))
            try folder.write("src/" + path, try IncrementalTests.photo(next, exif: IncrementalTests.exif(date)))
            photos.append(path)
            // Half the new photos come with words (and often faces) already.
            if random.below(2) == 0 { try words(&random, of: path) }
        }

        func sidecar(of path: String) -> URL {
            source.appendingPathComponent(String(path.dropLast(4)) + ".xmp")
        }

        func remove(_ random: inout Random) throws {
            guard !photos.isEmpty else { return }
            let path = photos.remove(at: random.below(photos.count))
            try FileManager.default.removeItem(at: source.appendingPathComponent(path))
            try? FileManager.default.removeItem(at: sidecar(of: path))
        }

        func move(_ random: inout Random) throws {
            guard !photos.isEmpty else { return }
            let index = random.below(photos.count)
            let old = photos[index]
            let album = random.pick(PageIncrementalityTests.albums)
            next += 1
            let new = (album.isEmpty ? "" : album + "/") + "moved\(next).jpg"
            let fm = FileManager.default
            try fm.createDirectory(at: source.appendingPathComponent(new).deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.moveItem(at: source.appendingPathComponent(old), to: source.appendingPathComponent(new))
            if fm.fileExists(atPath: sidecar(of: old).path) { try fm.moveItem(at: sidecar(of: old), to: sidecar(of: new)) }
            photos[index] = new
        }

        /// Title, keywords and rating in an XMP sidecar (a rating of -1 rejects the photo).
        func words(_ random: inout Random, of chosen: String? = nil) throws {
            guard !photos.isEmpty else { return }
            let path = chosen ?? random.pick(photos)
            let title = random.below(3) == 0 ? "" : "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Title \(random.below(100)) & co</rdf:li></rdf:Alt></dc:title>"
            let chosen = (0..<random.below(3)).map { _ in "<rdf:li>\(random.pick(PageIncrementalityTests.keywords))</rdf:li>" }.joined()
            let rating = random.pick([-1, 0, 2, 4, 5])
            // Faces tagged now and then (names in several spellings, a box each), and a person by keyword.
            let faces = (0..<random.below(4)).map { i in
                #"<rdf:li><rdf:Description mwg-rs:Name="\#(random.pick(PageIncrementalityTests.people))" mwg-rs:Type="Face">"#
                    + #"<mwg-rs:Area stArea:x="\#(0.2 + 0.3 * Double(i))" stArea:y="0.4" stArea:w="0.\#(1 + random.below(3))" stArea:h="0.2" stArea:unit="normalized"/>"#
                    + "</rdf:Description></rdf:li>"
            }.joined()
            let person = random.below(4) == 0 ? "<rdf:li>\(random.pick(PageIncrementalityTests.people))</rdf:li>" : ""
            let xmp = WordsTests.xmpPacket("""
                <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)" \
                xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#">\
                \(title)<dc:subject><rdf:Bag>\(chosen)\(person)</rdf:Bag></dc:subject>\
                <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag>\(faces)</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>\
                </rdf:Description>
                """)
            try Data(xmp.utf8).write(to: sidecar(of: path))
        }

        /// people.yml: spellings merged, an avatar chosen, someone hidden, or no file.
        func peopleFile(_ random: inout Random) throws {
            let file = source.appendingPathComponent("people.yml")
            guard random.below(4) != 0 else {
                try? FileManager.default.removeItem(at: file)
                return
            }
            var lines: [String] = []
            if random.below(2) == 0 { lines += ["Ada Lovelace:", "  also: [ada, Countess Ada]"] }
            let graceChosen = random.below(2) == 0 && !photos.isEmpty
            if graceChosen { lines += ["Grace:", "  avatar: \(random.pick(photos))"] }
            if random.below(2) == 0 { lines += [graceChosen || random.below(2) == 0 ? "Alan:" : "Grace:", "  hidden: true"] }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        }

        func albumSidecar(_ random: inout Random, album chosen: String? = nil, private makePrivate: Bool? = nil) throws {
            let album = chosen ?? random.pick(PageIncrementalityTests.albums.filter { !$0.isEmpty })
            let folder = source.appendingPathComponent(album)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var lines = ["title: \"Album \(random.below(50))\""]
            if random.below(2) == 0 { lines.append("description: \"Days by the **water**\"") }
            if random.below(4) == 0 { lines.append("hidden: true") }
            // Private now and then: its pages and files are sealed, and a
            // rebuild must seal exactly what a clean build with its key does.
            if makePrivate ?? (random.below(3) == 0) {
                try Data((Self.passphrase + "\n").utf8).write(to: passphraseFile)
                lines.append("private: true")
                lines.append("passphrase_file: \(passphraseFile.path)")
                privateAlbums.insert(album)
            } else {
                privateAlbums.remove(album)
            }
            if random.below(2) == 0 { lines.append("sort: " + random.pick(["date", "name"])) }
            if random.below(2) == 0 { lines.append("order: " + random.pick(["ascending", "descending"])) }
            let own = photos.filter { ($0 as NSString).deletingLastPathComponent == album }
            if let cover = own.last, random.below(2) == 0 { lines.append("cover: " + (cover as NSString).lastPathComponent) }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("album.yml"))
        }

        /// The keys of the private albums, as the build derived them (its salts are in the state).
        func keys(stateFolder: URL) throws -> [String: AlbumKey] {
            var keys: [String: AlbumKey] = [:]
            for album in privateAlbums {
                let path = AlbumPath(components: album.split(separator: "/").map(String.init))
                // PBKDF2 is slow on purpose: a salt seen before gives the key derived before.
                let salt = try Data(contentsOf: stateFolder.appendingPathComponent("private").appendingPathComponent(SaltStore.fileName(path)))
                if knownKeys[salt] == nil {
                    knownKeys[salt] = try SaltStore(stateFolder: stateFolder).key(for: path, passphrase: Array(Self.passphrase.utf8))
                }
                keys[knownKeys[salt]!.vault.folder] = knownKeys[salt]!
            }
            return keys
        }
        private var knownKeys: [Data: AlbumKey] = [:]

        func setting(_ random: inout Random) {
            switch random.below(8) {
            case 6: settings.values.publishPeople.toggle()
            case 0: settings.values.photosPerPage = random.pick([2, 3, 5, 120])
            case 1: settings.values.momentGroupBy = random.pick([.day, .month, .gap])
            case 2: settings.values.favourites.toggle()
            case 3: settings.values.title = random.pick(["Photos", "Our year", "Ünïcode & <friends>"])
            case 4: settings.values.albumSort = random.pick([.date, .name])
            case 5:
                // A size added or taken away: the renditions still there are
                // kept, the new ones made as a build of all of them makes them.
                settings.values.previewBoxes = random.pick([[PixelSize(width: 64, height: 48)],
                                                            [PixelSize(width: 64, height: 48), PixelSize(width: 40, height: 30)],
                                                            [PixelSize(width: 120, height: 90), PixelSize(width: 64, height: 48)]])
            default: settings.values.momentOrder = random.pick([.ascending, .descending])
            }
        }
    }

    /// Every file of a site but the build state: path → bytes.
    static func files(_ output: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: output.path) {
            let url = output.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            result[relative] = try Data(contentsOf: url)
        }
        return result
    }

    /// `files` with every sealed file opened: sealing takes a fresh nonce
    /// each time, so two builds' sealed bytes differ while what they hold,
    /// and their names, must not.
    static func opened(_ files: [String: Data], keys: [String: AlbumKey]) throws -> [String: Data] {
        var result = files
        for (path, data) in files where path.hasPrefix(Vault.root) {
            let folder = path.split(separator: "/").prefix(2).joined(separator: "/") + "/"
            let key = try #require(keys[folder], "\(path) is sealed with no private album's key")
            if path.hasSuffix(".html") {
                let text = String(decoding: data, as: UTF8.self)
                let start = try #require(text.range(of: #"id="gallerygen-sealed""#)).upperBound
                let payload = text[start...].drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }
                let wrapper = text.replacingOccurrences(of: payload, with: "")
                result[path] = Data(wrapper.utf8) + (try key.open(try #require(Data(base64Encoded: String(payload))), path: path))
            } else {
                result[path] = try key.openFile(data, path: path)
            }
        }
        return result
    }

    func build(_ settings: BuildSettings) async throws -> BuildReport {
        try await GalleryBuilder().build(settings: settings, quiet: true)
    }

    /// The site `library` builds into a fresh OUT.
    func cleanSite(_ library: Library) async throws -> [String: Data] {
        try await cleanBuild(library).files
    }

    /// The site and the state `library` builds into a fresh OUT.
    func cleanBuild(_ library: Library) async throws -> (files: [String: Data], state: BuildState) {
        var clean = library.settings
        clean.output = library.folder.url.appendingPathComponent("clean-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: clean.output)
            try? FileManager.default.removeItem(at: clean.stateFolder)
        }
        // The private albums' salts (random, kept in the state) carried over:
        // the clean build then names and seals with the same keys.
        let salts = library.settings.stateFolder.appendingPathComponent("private")
        if FileManager.default.fileExists(atPath: salts.path) {
            try FileManager.default.createDirectory(at: clean.stateFolder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: salts, to: clean.stateFolder.appendingPathComponent("private"))
        }
        _ = try await build(clean)
        return (try Self.opened(try Self.files(clean.output), keys: library.keys(stateFolder: clean.stateFolder)), try Self.state(clean))
    }

    static func state(_ settings: BuildSettings) throws -> BuildState {
        try BuildState.decode(try Data(contentsOf: BuildState.location(in: settings.stateFolder)))
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomEditsGiveTheCleanSite(seed: UInt64) async throws {
        var random = Random(state: seed)
        let library = try Library()
        for _ in 0..<14 { try library.add(&random) }
        // An album with a sub-album starts private; edits may open it or close others.
        try library.albumSidecar(&random, album: "Trips/Coast", private: true)
        _ = try await build(library.settings)
        var sealedSteps = 0, peopleSteps = 0, stackSteps = 0
        // Export sidecar edits (Takeout JSON, a year folder's copy, iCloud's table) beside every third step,
        // drawn apart (the seeds' other draws stay as they were).
        var exportRandom = Random(state: seed &+ 1_000), stackRandom = Random(state: seed &+ 2_000)
        for step in 0..<12 {
            let operation = random.below(8)
            if step % 3 == 1 { try library.exportSidecar(&exportRandom, kind: step / 3 + Int(seed)) }
            // Stacks (a burst frame, an edit, a member removed or re-rated, the rule switched) as often.
            if step % 3 != 1 { try library.stackMember(&stackRandom, kind: [0, 6, 1, 0, 3, 2, 4, 6][(step - step / 3 + Int(seed)) % 8]) }
            switch operation {
            case 0, 1: try library.add(&random)
            case 2: try library.remove(&random)
            case 3: try library.move(&random)
            case 4: try library.words(&random)
            case 5: try library.albumSidecar(&random)
            case 6: try library.peopleFile(&random)
            default: library.setting(&random)
            }
            let report = try await build(library.settings)
            let incremental = try Self.opened(try Self.files(library.settings.output), keys: library.keys(stateFolder: library.settings.stateFolder))
            let (clean, cleanState) = try await cleanBuild(library)
            let differing = Set(incremental.keys).union(clean.keys).filter { incremental[$0] != clean[$0] }.sorted()
            sealedSteps += incremental.keys.contains { $0.hasPrefix(Vault.root) } ? 1 : 0
            peopleSteps += incremental.keys.contains { $0.hasPrefix("people/") } ? 1 : 0
            stackSteps += incremental.values.contains { $0.range(of: Data("badge-stack\"".utf8)) != nil } ? 1 : 0
            #expect(differing.isEmpty, "seed \(seed), step \(step) (operation \(operation)): \(differing.prefix(8))")
            // The state remembers what a clean build would: no entry of a removed or moved file.
            let state = try Self.state(library.settings)
            let sameEntries = state.photos == cleanState.photos
            #expect(sameEntries, "seed \(seed), step \(step): entries differ, keys only one has: \(Set(state.photos.keys).symmetricDifference(cleanState.photos.keys))")
            #expect(report.pagesRendered <= report.pages)
            // Nothing changed since: nothing is rendered.
            let again = try await build(library.settings)
            #expect(again.pagesRendered == 0 && again.filesWritten.isEmpty, "seed \(seed), step \(step): a no-op rendered \(again.pagesRendered), wrote \(again.filesWritten.prefix(4)), made \(again.renditionsMade)")
        }
        #expect(sealedSteps > 0, "seed \(seed): no step had a private album")
        #expect(peopleSteps > 0, "seed \(seed): no step had people pages")
        #expect(stackSteps > 0, "seed \(seed): no step had a stack")
    }

    @Test func aCaptionEditRendersOnlyThePagesThatShowTheItem() async throws {
        var random = Random(state: 9)
        let library = try Library()
        library.settings.values.photosPerPage = 120
        for _ in 0..<30 { try library.add(&random) }
        let first = try await build(library.settings)
        #expect(first.pagesRendered == first.pages)
        let target = library.photos.first { $0.hasPrefix("Zoo/") }!
        let xmp = WordsTests.xmpPacket("""
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>\
            <rdf:li xml:lang="x-default">A new caption</rdf:li></rdf:Alt></dc:description></rdf:Description>
            """)
        try Data(xmp.utf8).write(to: library.sidecar(of: target))
        let report = try await build(library.settings)
        // The item's page, its neighbours' (they preload it), its album's page and
        // the moments page that shows it: not the other albums' items.
        #expect(report.pagesRendered >= 3 && report.pagesRendered <= 6, "rendered \(report.pagesRendered) of \(report.pages)")
        #expect(report.filesWritten.contains { $0.hasPrefix("albums/zoo/") })
        #expect(!report.filesWritten.contains { $0.hasPrefix("albums/home/") })
        #expect(try Self.files(library.settings.output) == (try await cleanSite(library)))
    }

    /// The search index numbers items by month: a photo added to one month
    /// rewrites that month's item files (and the token files), never another
    /// month's, and the site is the clean build's.
    @Test func aPhotoAddedToOneMonthRewritesOnlyThatMonthsSearchItems() async throws {
        var random = Random(state: 11)
        let library = try Library()
        for _ in 0..<40 { try library.add(&random) }  // January to March 2024
        _ = try await build(library.settings)
        let itemFiles = { (files: [String]) in files.filter { $0.hasPrefix("search/d-") } }
        #expect(Set(itemFiles(Array(try Self.files(library.settings.output).keys)).map { $0.split(separator: "-")[1] }).count == 3)
        try library.folder.write("src/Zoo/new.jpg", try IncrementalTests.photo(999, exif: IncrementalTests.exif("2024:02:14 12:00:00")))
        let report = try await build(library.settings)
        // February 2024, newest first: (9999 − 2024) × 12 + (12 − 2).
        let written = itemFiles(Array(report.filesWritten))
        #expect(!written.isEmpty && written.allSatisfy { $0.hasPrefix("search/d-95710-") }, "\(written)")
        #expect(report.filesWritten.contains("search/index.js"))
        let after = try Self.files(library.settings.output), clean = try await cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
    }

    @Test func aPageFileDeletedFromOUTIsMadeAgain() async throws {
        var random = Random(state: 5)
        let library = try Library()
        for _ in 0..<6 { try library.add(&random) }
        _ = try await build(library.settings)
        try FileManager.default.removeItem(at: library.settings.output.appendingPathComponent("moments/index.html"))
        // And a rendition: OUT is looked at, not only the state.
        let rendition = try #require(try Self.files(library.settings.output).keys.sorted().first { $0.hasPrefix("media/") && $0.contains("-32x24.") })
        try FileManager.default.removeItem(at: library.settings.output.appendingPathComponent(rendition))
        let report = try await build(library.settings)
        #expect(report.pagesRendered == 1)
        #expect(report.renditionsMade == 1)
        let after = try Self.files(library.settings.output), clean = try await cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
    }

    /// A preview size added (larger than the others: it changes the JPEG
    /// decode's scale; smaller: it is resampled from another) changes every
    /// still's bytes: each photo's stills are made again, under new names,
    /// with the bytes a clean build gives them.
    @Test func aNewRenditionSizeGivesTheCleanBytes() async throws {
        var random = Random(state: 3)
        let library = try Library()
        for _ in 0..<5 { try library.add(&random) }
        _ = try await build(library.settings)
        for boxes in [[PixelSize(width: 64, height: 48), PixelSize(width: 40, height: 30)],
                      [PixelSize(width: 200, height: 150), PixelSize(width: 64, height: 48), PixelSize(width: 40, height: 30)]] {
            library.settings.values.previewBoxes = boxes
            let report = try await build(library.settings)
            #expect(report.renditionsMade == 5 * (boxes.count + 1), "every still of five photos (a thumbnail, the previews)")
            let after = try Self.files(library.settings.output), clean = try await cleanSite(library)
            #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
        }
    }

    /// A build stopped before it commits its state (here its state cannot be
    /// written: a full disk) has rewritten pages the state still records with
    /// their old fingerprints. Undo the change, and those fingerprints match
    /// again: the journaled pages must be rendered anyway, not trusted.
    @Test func pagesAStoppedBuildWroteAreNotTrusted() async throws {
        var random = Random(state: 11)
        let library = try Library()
        for _ in 0..<8 { try library.add(&random) }
        _ = try await build(library.settings)
        try library.add(&random)
        let added = library.photos.last!
        await #expect(throws: (any Error).self) {
            _ = try await GalleryBuilder().build(settings: library.settings, quiet: true, faults: WriteFaults { path in
                path.hasSuffix("/" + BuildState.fileName) ? ENOSPC : nil
            })
        }
        // The change undone: the inputs are the first build's again.
        try FileManager.default.removeItem(at: library.source.appendingPathComponent(added))
        library.photos.removeLast()
        let report = try await build(library.settings)
        #expect(report.pagesRendered > 0)
        #expect(try Self.files(library.settings.output) == (try await cleanSite(library)))
    }
}
