import Foundation
import BuildCache
import GalleryCore
import Rendering

/// The state one build threads through its steps.
public struct BuildContext: Sendable {
    /// The settings.
    public let settings: BuildSettings
    /// Page options (theme, paging, moments, layout).
    public let site: SiteOptions
    /// Suppresses progress output (tests).
    public let quiet: Bool
    /// Photos published so far.
    public var photos: [Photo] = []
    /// Album sidecars found during the scan.
    public var sidecars: [AlbumPath: AlbumSettings] = [:]
    /// The assembled albums.
    public var gallery: Gallery?
    /// What the previous build left (for pruning).
    public var previousManifest = BuildManifest()
    /// Files this build produced (relative to OUT).
    public var producedFiles: Set<String> = []
    /// The report.
    public var report = BuildReport()
    /// Live progress.
    let progress: ProgressReporter

    /// Creates a context.
    public init(settings: BuildSettings, site: SiteOptions = SiteOptions(), quiet: Bool = false) {
        self.settings = settings
        self.site = site
        self.quiet = quiet
        self.progress = ProgressReporter(quiet: quiet)
    }
}
