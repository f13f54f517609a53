import Foundation
import GalleryCore

/// Runs a whole build: prepare OUT, process photos, render pages, prune.
public struct GalleryBuilder: Sendable {
    /// The steps, in order.
    public let steps: [any BuildStep]

    /// The standard pipeline.
    public init() {
        steps = [PrepareOutputStep(), ProcessPhotosStep(), RenderPagesStep(), PruneStep()]
    }

    /// Builds the site and returns the report. Unreadable photos are skipped and
    /// listed in the report; only problems with SOURCE, OUT or settings throw.
    public func build(settings: BuildSettings, site: SiteOptions = SiteOptions(), quiet: Bool = false) async throws -> BuildReport {
        let started = Date()
        var context = BuildContext(settings: settings, site: site, quiet: quiet)
        for step in steps {
            try await step.run(&context)
        }
        context.report.seconds = Date().timeIntervalSince(started)
        return context.report
    }
}
