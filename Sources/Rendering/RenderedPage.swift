/// A finished page: where it goes and its bytes.
public struct RenderedPage: Sendable, Equatable {
    /// Path relative to the site root.
    public var path: String
    /// UTF-8 HTML.
    public var html: String

    /// Creates a page.
    public init(path: String, html: String) {
        self.path = path
        self.html = html
    }
}
