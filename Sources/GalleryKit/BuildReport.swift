import Foundation

/// A photo left out of the site, and why.
public struct SkippedPhoto: Sendable, Equatable {
    /// Path below SOURCE.
    public var path: String
    /// One-line reason.
    public var reason: String
}

/// What a build did, for the summary line and for tests.
public struct BuildReport: Sendable {
    /// Photos published.
    public var published = 0
    /// Photos that could not be read.
    public var skipped: [SkippedPhoto] = []
    /// Renditions encoded in this build.
    public var renditionsMade = 0
    /// Renditions that were already up to date.
    public var renditionsReused = 0
    /// Site files written (pages, static files, media).
    public var filesWritten: [String] = []
    /// Site files removed because the build no longer produces them.
    public var filesRemoved: [String] = []
    /// Pages rendered.
    public var pages = 0
    /// Wall-clock duration in seconds.
    public var seconds: Double = 0

    /// Creates an empty report.
    public init() {}

    /// The closing summary.
    public var summary: String {
        var text = "Built \(published) photo\(published == 1 ? "" : "s")"
        text += " (\(renditionsMade) renditions made, \(renditionsReused) up to date), \(pages) pages"
        if !skipped.isEmpty { text += "; skipped \(skipped.count) unreadable file\(skipped.count == 1 ? "" : "s")" }
        text += String(format: " in %.1f s", seconds)
        return text
    }
}
