import Foundation
import BuildCache
import GalleryCore
import Rendering

/// The state one build threads through its steps.
public struct BuildContext: Sendable {
    /// The settings.
    public let settings: BuildSettings
    /// The theme (built-in name or folder).
    public let themeName: String
    /// Suppresses progress output (tests).
    public let quiet: Bool
    /// Photos published so far.
    public var photos: [Photo] = []
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
    public init(settings: BuildSettings, themeName: String = "default", quiet: Bool = false) {
        self.settings = settings
        self.themeName = themeName
        self.quiet = quiet
        self.progress = ProgressReporter(quiet: quiet)
    }
}
