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
    /// What the previous build left: owned files, photo cache, page fingerprint.
    public var previousState = BuildState()
    /// Files a previous, interrupted build journaled: owned too.
    public var interruptedFiles: Set<String> = []
    /// The photo cache this build hands on.
    public var photoCache: [String: CachedPhoto] = [:]
    /// The page fingerprint this build hands on.
    public var siteFingerprint = ""
    /// Writes every file, journaling it first.
    var writer: SiteWriter
    /// Held for the whole build.
    var lock: BuildLock?
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
        self.writer = SiteWriter(output: settings.output)
    }
}
