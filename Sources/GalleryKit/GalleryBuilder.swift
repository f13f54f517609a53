import Foundation
import GalleryCore
import SiteOutput
import Planning
import Rendering

/// Runs a whole build: check SOURCE and its album sidecars, prepare OUT,
/// process the media, make the album downloads, render pages, prune.
public struct GalleryBuilder: Sendable {
    /// The steps, in order.
    public let steps: [any BuildStep]

    /// The standard pipeline.
    public init() {
        steps = [CheckSourceStep(), PrepareOutputStep(), PrivateAlbumsStep(), ProcessMediaStep(), FacesStep(), AlbumDownloadsStep(), RenderPagesStep(), PruneStep()]
    }

    /// One part of a sharded build: its media's renditions and its state, no pages.
    static let shardSteps: [any BuildStep] = [CheckSourceStep(), PrepareOutputStep(), PrivateAlbumsStep(), ProcessMediaStep(), FacesStep(), CommitShardStep()]

    /// One part of a sharded page build (after every media part): its share
    /// of the pages, planned from the whole site, and its state; the site-wide
    /// files (search index, sitemap, feed), static files and pruning are the
    /// last whole build's.
    static let pageShardSteps: [any BuildStep] = [CheckSourceStep(), PrepareOutputStep(), PrivateAlbumsStep(), ProcessMediaStep(), FacesStep(), RenderPagesStep(), CommitShardStep()]

    /// Builds the site and returns the report. Unreadable photos are skipped and
    /// listed in the report; only problems with SOURCE, OUT or settings throw.
    /// `session`: the process builds again and again (`build --watch`).
    public func build(_ resolved: ResolvedBuild, quiet: Bool = false, shard: Shard? = nil, faults: WriteFaults? = nil,
                      session: BuildSession? = nil) async throws -> BuildReport {
        let started = Date()
        MemoryTuning.keepLargeBlocks()
        var context = BuildContext(settings: resolved.settings, theme: resolved.theme, quiet: quiet, shard: shard)
        context.writeFaults = faults
        context.preloadedState = session?.takeState()
        context.scanMemory = session?.scanMemory
        context.handsBackFreeMemory = session == nil
        // Read ahead even when this build fails: the next one starts from whatever state is there.
        defer { session?.readAhead(after: resolved.settings) }
        context.report.shard = shard
        let chosen: [any BuildStep]
        switch shard?.phase {
        case nil: chosen = steps
        case .media: chosen = Self.shardSteps
        case .pages: chosen = Self.pageShardSteps
        }
        try await Interruption.asBuild {
            for step in chosen {
                let stepStarted = Date()
                try await step.run(&context)
                if step.letsGoOfMuch, context.handsBackFreeMemory { MemoryTuning.releaseFreeMemory() }
                context.report.stepSeconds.append((step.name, Date().timeIntervalSince(stepStarted), MemoryTuning.peakResidentBytes()))
            }
        }
        context.report.seconds = Date().timeIntervalSince(started)
        let report = context.report
        ReleasedLater.drop(context)
        return report
    }

    /// Builds with the default theme (or `settings.theme`) loaded here: for tests
    /// and tools that set values in code rather than through gallery.yml.
    public func build(settings: BuildSettings, quiet: Bool = false, shard: Shard? = nil, faults: WriteFaults? = nil) async throws -> BuildReport {
        try await build(ResolvedBuild(settings: settings, theme: try BuildConfiguration.loadTheme(settings.values)), quiet: quiet, shard: shard,
                        faults: faults)
    }
}

/// Lets go of a value on a thread of its own. A build's context holds every
/// item of the site, and freeing it (hundreds of thousands of small objects)
/// was a tenth of a no-op rebuild of 100,000 photos that nothing waits for:
/// the report is printed meanwhile, and a process that ends first frees it all at once.
enum ReleasedLater {
    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
        init(_ value: Value) { self.value = value }
    }

    /// The values being let go of.
    private static let pending = DispatchGroup()

    static func drop<Value>(_ value: consuming Value) {
        let box = Box(value)
        pending.enter()
        let thread = Thread {
            box.value = nil
            pending.leave()
        }
        thread.start()
    }

    /// Lets go of `values` a part on each core, each on a thread of its own:
    /// the last holder of an item frees it, and a million items freed on
    /// one thread (the plan's) kept an add at 1,000,000 items waiting a
    /// second, the other core idle. Each part is a copy of its share of
    /// the list (a reference an element), `values` itself let go of here.
    static func dropInParts<Element>(_ values: consuming [Element]) {
        let parts = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for part in 0..<parts { drop(Array(values[values.count * part / parts ..< values.count * (part + 1) / parts])) }
    }

    /// Waits until every value dropped so far is freed: for a step about to
    /// make large tables of its own, whose memory would otherwise be added
    /// to what is still being freed.
    static func waitUntilFreed() {
        pending.wait()
    }
}
