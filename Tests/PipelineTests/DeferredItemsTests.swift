import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit

/// A rebuild whose media step finds nothing changed makes no item
/// (`DeferredItems`): the pages are taken whole from the items' digests, and
/// when the site does change, the items are made from the state's entries
/// and give the clean build's site.
@Suite(.serialized) struct DeferredItemsTests {
    typealias Library = PageIncrementalityTests.Library

    /// What the context held after the media step and after the page step.
    struct Held {
        var itemsAfterMedia = -1, deferredAfterMedia = -1, itemsAfterPages = -1, deferredAfterPages = -1
        var pagesReused = false
        /// The items' paths after the media step, in their order.
        var pathsAfterMedia: [String] = []
    }

    /// A whole build, step by step as `GalleryBuilder` runs them, looking at the context between steps.
    static func build(_ settings: BuildSettings) async throws -> (report: BuildReport, held: Held) {
        var context = BuildContext(settings: settings, theme: try BuildConfiguration.loadTheme(settings.values), quiet: true)
        var held = Held()
        for step in GalleryBuilder().steps {
            try await step.run(&context)
            switch step.name {
            case ProcessMediaStep().name:
                held.itemsAfterMedia = context.items.count
                held.deferredAfterMedia = context.deferredItems?.count ?? 0
                held.pathsAfterMedia = context.items.map(\.source.relativePath)
            case RenderPagesStep().name:
                held.itemsAfterPages = context.items.count
                held.deferredAfterPages = context.deferredItems?.count ?? 0
                held.pagesReused = context.pagesReused
            default: break
            }
        }
        return (context.report, held)
    }

    static func library(photos: Int) async throws -> Library {
        var random = PageIncrementalityTests.Random(state: 11)
        let library = try Library()
        for _ in 0..<photos { try library.add(&random) }
        _ = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        return library
    }

    static func stateBytes(_ settings: BuildSettings) throws -> Data {
        try Data(contentsOf: BuildState.location(in: settings.stateFolder))
    }

    @Test func aNoOpMakesNoItemAndTakesEveryPageWhole() async throws {
        let library = try await Self.library(photos: 9)
        let site = try PageIncrementalityTests.files(library.settings.output), state = try Self.stateBytes(library.settings)
        let pages = site.keys.count { $0.hasSuffix(".html") && !$0.hasPrefix("static/") }
        let (report, held) = try await Self.build(library.settings)
        #expect(report.published > 0)
        #expect(report.pages == pages, "the pages counted from the state's list of files")
        #expect(held.itemsAfterMedia == 0 && held.deferredAfterMedia == report.published, "\(held)")
        #expect(held.pagesReused && held.itemsAfterPages == 0 && held.deferredAfterPages == report.published, "\(held)")
        #expect(report.pagesRendered == 0 && report.renditionsMade == 0 && report.filesRemoved.isEmpty)
        #expect(try PageIncrementalityTests.files(library.settings.output) == site)
        #expect(try Self.stateBytes(library.settings) == state, "a no-op leaves the state as it was")
    }

    /// A cover album.yml names that no photo is: told on a no-op too, from
    /// the deferred files, without making the items.
    @Test func aMissingCoverIsToldWithoutMakingTheItems() async throws {
        let library = try await Self.library(photos: 9)
        let album = try #require(library.photos.first { $0.contains("/") }.map { String($0[..<$0.lastIndex(of: "/")!]) })
        try Data("cover: missing.jpg\n".utf8).write(to: library.source.appendingPathComponent(album + "/album.yml"))
        let first = try await Self.build(library.settings)
        let (report, held) = try await Self.build(library.settings)
        for warnings in [first.report.warnings, report.warnings] {
            #expect(warnings.contains { $0.contains("cover 'missing.jpg' is not a published photo") }, "\(warnings)")
        }
        #expect(held.itemsAfterPages == 0 && held.deferredAfterPages == report.published && held.pagesReused, "\(held)")
        // The cover named, the warning is gone.
        let cover = try #require(library.photos.first { $0.hasPrefix(album + "/") && !$0.dropFirst(album.count + 1).contains("/") })
        try Data("cover: \(cover.split(separator: "/").last!)\n".utf8).write(to: library.source.appendingPathComponent(album + "/album.yml"))
        _ = try await Self.build(library.settings)
        #expect(!(try await Self.build(library.settings)).report.warnings.contains { $0.contains("cover") })
    }

    /// A setting every page shows: the items are made from the entries (no
    /// photo opened, no rendition made) and the site is the clean build's.
    @Test func aChangedSettingMakesTheItemsFromTheState() async throws {
        let library = try await Self.library(photos: 9)
        library.settings.values.photosPerPage = 4
        let (report, held) = try await Self.build(library.settings)
        #expect(held.itemsAfterMedia == 0 && held.deferredAfterMedia == report.published, "\(held)")
        #expect(!held.pagesReused && held.itemsAfterPages == report.published && held.deferredAfterPages == 0, "\(held)")
        #expect(report.renditionsMade == 0 && report.pagesRendered > 0)
        let after = try PageIncrementalityTests.files(library.settings.output), clean = try await PageIncrementalityTests().cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
    }

    /// A page deleted from OUT (and nothing else): the pages are planned
    /// from the items made then, and that page alone is written again; no
    /// rendition is pruned for want of its item.
    @Test func aPageGoneFromOUTIsMadeFromDeferredItems() async throws {
        let library = try await Self.library(photos: 9)
        try FileManager.default.removeItem(at: library.settings.output.appendingPathComponent("moments/index.html"))
        let (report, held) = try await Self.build(library.settings)
        #expect(held.itemsAfterMedia == 0 && held.deferredAfterMedia == report.published, "\(held)")
        #expect(held.itemsAfterPages == report.published, "\(held)")
        #expect(report.pagesRendered == 1 && report.renditionsMade == 0 && report.filesRemoved.isEmpty)
        let after = try PageIncrementalityTests.files(library.settings.output), clean = try await PageIncrementalityTests().cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
    }

    /// A rendition deleted from OUT (and nothing else): made again, every
    /// page taken whole (they are produced again by the state's list of the
    /// files), nothing pruned, and the state's bytes as they were.
    @Test func aRenditionGoneFromOUTIsMadeAgainAndNothingIsPruned() async throws {
        let library = try await Self.library(photos: 9)
        let output = library.settings.output
        let site = try PageIncrementalityTests.files(output), state = try Self.stateBytes(library.settings)
        let rendition = try #require(site.keys.sorted().first { $0.hasPrefix("media/") })
        try FileManager.default.removeItem(at: output.appendingPathComponent(rendition))
        let (report, held) = try await Self.build(library.settings)
        #expect(held.pagesReused, "\(held)")
        #expect(report.renditionsMade == 1 && report.pagesRendered == 0 && report.filesRemoved.isEmpty, "\(report.filesRemoved)")
        #expect(try PageIncrementalityTests.files(output) == site)
        #expect(try Self.stateBytes(library.settings) == state)
    }

    /// The state's bytes as version 13 wrote them: page records by their
    /// ids (`id` of each key), sorted by id.
    static func version13(_ state: BuildState, ids: [PageKey: String]) throws -> Data {
        var writer = StateWriter(), body = StateWriter()
        writer.raw(BuildState.magic)
        writer.int(13)
        writer.int(Int64(bitPattern: state.siteInputs.high))
        writer.int(Int64(bitPattern: state.siteInputs.low))
        state.fileList.write(to: &writer, chunkSize: 1 << 30) { _ in }
        writer.int(state.photos.count)
        for key in state.photos.keys.sorted() { BuildState.writePhoto(key, state.photos[key]!, to: &writer, body: &body) }
        writer.int(state.pages.count)
        let pages = try state.pages.map { key, record in (id: try #require(ids[key], "no id for a page key"), record: record) }
        for (id, record) in pages.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
            writer.string(id)
            writer.int(Int64(bitPattern: record.fingerprint.high))
            writer.int(Int64(bitPattern: record.fingerprint.low))
            writer.int(record.files?.count ?? 0)
            for file in record.files ?? [] { writer.string(file) }
        }
        return Data(writer.bytes)
    }

    /// Upgrading from a state of version 13 (page records by id): nothing
    /// read or rendered again, no item made, and the state committed in
    /// the current layout, the bytes a build of this version commits.
    @Test func aVersion13StateIsTakenWholeAndCommittedAnew() async throws {
        let library = try await Self.library(photos: 9)
        let url = BuildState.location(in: library.settings.stateFolder)
        let site = try PageIncrementalityTests.files(library.settings.output), current = try Self.stateBytes(library.settings)
        let state = try BuildState.decode(current)
        // Each page's id is one of OUT's files (a group's, its first).
        let ids = Dictionary(site.keys.map { (PageKey(path: $0), $0) }, uniquingKeysWith: { a, _ in a })
        try Self.version13(state, ids: ids).write(to: url)
        #expect(try BuildState.decode(Data(contentsOf: url)).version == 13)
        let (report, held) = try await Self.build(library.settings)
        #expect(held.itemsAfterMedia == 0 && held.pagesReused && held.itemsAfterPages == 0, "\(held)")
        #expect(report.pagesRendered == 0 && report.renditionsMade == 0 && report.filesRemoved.isEmpty)
        #expect(try PageIncrementalityTests.files(library.settings.output) == site)
        #expect(try Self.stateBytes(library.settings) == current)
    }

    /// A photo added: every item is made in the media step (the new one read,
    /// the others from their entries), in path order.
    @Test func aPhotoAddedMakesEveryItem() async throws {
        let library = try await Self.library(photos: 9)
        var random = PageIncrementalityTests.Random(state: 99)
        try library.add(&random)
        let (report, held) = try await Self.build(library.settings)
        #expect(held.itemsAfterMedia == report.published && held.deferredAfterMedia == 0, "\(held)")
        #expect(held.pathsAfterMedia == held.pathsAfterMedia.sorted() && Set(held.pathsAfterMedia).count == report.published)
        let after = try PageIncrementalityTests.files(library.settings.output), clean = try await PageIncrementalityTests().cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
    }

    /// Photos added where the walk starts and where it ends, and one
    /// removed: every item in path order, the removed one's entry gone,
    /// the clean build's site, and a no-op after it.
    @Test func photosAddedFirstAndLastAndOneRemovedGiveTheCleanSite() async throws {
        let library = try await Self.library(photos: 9)
        let date = IncrementalTests.exif("2024:02:10 09:30:00")
        try library.folder.write("src/0-first.jpg", try IncrementalTests.photo(101, exif: date))
        try library.folder.write("src/zz-last/z.jpg", try IncrementalTests.photo(102, exif: date))
        let removed = try #require(library.photos.sorted()[4...].first)
        try FileManager.default.removeItem(at: library.source.appendingPathComponent(removed))
        library.photos.removeAll { $0 == removed }
        library.photos += ["0-first.jpg", "zz-last/z.jpg"]
        let (report, held) = try await Self.build(library.settings)
        #expect(report.published == library.photos.count && held.deferredAfterMedia == 0, "\(held)")
        #expect(held.pathsAfterMedia == library.photos.sorted(), "\(held.pathsAfterMedia)")
        let state = try BuildState.decode(Self.stateBytes(library.settings))
        #expect(state.photos.count == library.photos.count && state.photos[BuildState.key(for: removed)] == nil)
        let after = try PageIncrementalityTests.files(library.settings.output), clean = try await PageIncrementalityTests().cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
        // And the next build changes nothing.
        let (again, heldAgain) = try await Self.build(library.settings)
        #expect(heldAgain.pagesReused && again.pagesRendered == 0, "\(heldAgain)")
    }

    /// The records are kept in parts (each let go of once its items are
    /// made), in the order they came, each found by its place.
    @Test func recordsAreKeptInPartsInTheOrderTheyCame() {
        let size = DeferredItems.Records.partSize, count = 2 * size + 3
        var records = DeferredItems.Records()
        records.expect(count)
        let file = SourceFile(url: URL(fileURLWithPath: "/src/a/IMG_1.jpg"), relativeComponents: ["a", "IMG_1.jpg"], byteCount: 1,
                                modificationDate: Date(timeIntervalSince1970: 0))
        for index in 0..<count {
            records.append(DeferredItems.Record(file: file, entry: Int32(index), inputs: .zero))
        }
        #expect(records.count == count)
        #expect(records.parts.map(\.count) == [size, size, 3])
        #expect((0..<count).allSatisfy { records[$0].entry == Int32($0) })
        let second = records.takePart(1)
        #expect(second.count == size && second.first?.entry == Int32(size))
        #expect(records.parts[1].isEmpty && records.parts[2].count == 3 && records[2 * size + 2].entry == Int32(count - 1))
    }
}
