/// A finished page: where it goes and its bytes.
public struct RenderedPage: Sendable, Equatable {
    /// Path relative to the site root.
    public var path: String
    /// UTF-8 HTML.
    public var html: String
    /// A file that is not text (an avatar): its bytes, written instead of `html`.
    public var bytes: [UInt8]? = nil
    /// A file named by its content that OUT already holds: kept, not written.
    public var isKept = false

    /// Creates a page.
    public init(path: String, html: String) {
        self.path = path
        self.html = html
    }

    /// A binary file of a group (an avatar made now).
    public init(path: String, bytes: [UInt8]) {
        self.init(path: path, html: "")
        self.bytes = bytes
    }

    /// A file of a group that OUT already holds (an avatar made before).
    public init(keeping path: String) {
        self.init(path: path, html: "")
        isKept = true
    }
}

/// One piece of a site's rendering: a page, or the search index's files.
/// Jobs share nothing mutable, so they may run at once on every core.
public struct PageJob: Sendable {
    /// What the job makes, for the build's timing by kind.
    public enum Kind: String, Sendable, CaseIterable {
        case album = "album pages", item = "item pages", moments = "moments pages", tag = "tag pages", place = "place pages", search = "search"
        case people = "people pages"
        case sitemap = "sitemap and feed"
    }
    public let kind: Kind
    /// Renders the job's files.
    public let render: @Sendable () throws(ThemeError) -> [RenderedPage]
}
