import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit

/// A first build sets its photo entries aside in a state file of their own
/// after the media step and commits from it: the page step holds none, the
/// state is the bytes of the state encoded whole (the tests' check compares
/// every commit from a base file with that), and the file is gone after.
@Suite(.serialized) struct EntriesSetAsideTests {
    typealias Library = PageIncrementalityTests.Library

    init() { BuildState.checkCommitsFromBase() }

    static func asideFile(_ settings: BuildSettings) -> URL {
        settings.stateFolder.appendingPathComponent(OutputFolder.asideFileName)
    }

    @Test func aFirstBuildCommitsFromItsEntriesSetAside() async throws {
        var random = PageIncrementalityTests.Random(state: 5)
        let library = try Library()
        for _ in 0..<9 { try library.add(&random) }
        var context = BuildContext(settings: library.settings, theme: try BuildConfiguration.loadTheme(library.settings.values), quiet: true)
        var heldAfterMedia = -1, countAfterMedia = -1, asideDuringPages = false
        for step in GalleryBuilder().steps {
            try await step.run(&context)
            if step.name == ProcessMediaStep().name {
                heldAfterMedia = context.photoCache.count
                countAfterMedia = context.photoCountWithBase ?? -1
                asideDuringPages = FileManager.default.fileExists(atPath: Self.asideFile(library.settings).path)
            }
        }
        #expect(context.report.published > 0)
        #expect(heldAfterMedia == 0 && countAfterMedia >= context.report.published && asideDuringPages,
                "the entries are in the aside file, not in memory")
        #expect(context.report.stateFromBase, "committed from the aside file")
        #expect(context.changedPages == nil && context.pageCountWithBase == nil, "every page is new: no set of them all, none left in the file")
        #expect(!FileManager.default.fileExists(atPath: Self.asideFile(library.settings).path), "removed once committed")
        let state = try BuildState.decode(Data(contentsOf: BuildState.location(in: library.settings.stateFolder)))
        #expect(state.photos.count == countAfterMedia && state.pages.count > context.report.published)
        // The next build is a no-op, and the site is a clean build's after a change.
        let again = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        #expect(again.pagesRendered == 0 && again.renditionsMade == 0)
        try library.add(&random)
        _ = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        let after = try PageIncrementalityTests.files(library.settings.output), clean = try await PageIncrementalityTests().cleanSite(library)
        #expect(after == clean, "\(Set(after.keys).union(clean.keys).filter { after[$0] != clean[$0] }.sorted())")
    }

    /// An aside file a failed build left is removed by the next build's commit.
    @Test func aLeftoverAsideFileIsRemoved() async throws {
        var random = PageIncrementalityTests.Random(state: 6)
        let library = try Library()
        for _ in 0..<3 { try library.add(&random) }
        _ = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        try Data("left by a build that failed".utf8).write(to: Self.asideFile(library.settings))
        let report = try await GalleryBuilder().build(settings: library.settings, quiet: true)
        #expect(report.pagesRendered == 0)
        #expect(!FileManager.default.fileExists(atPath: Self.asideFile(library.settings).path))
    }
}
