import GalleryCore

/// A keyword, linked to its tag page when it has one (items of hidden
/// albums are on no tag page).
public struct KeywordLink: Sendable, Encodable {
    public var name: String
    public var url: String?
}

/// A person in a photo, linked to their page when they have one (people
/// only in private or hidden albums have none).
public struct PersonLink: Sendable, Encodable {
    public var name: String
    public var url: String?
}

/// The strip of a stack's items under an item page's picture: each linked
/// to its own page, the page's own marked.
public struct StackStrip: Sendable, Encodable {
    /// One item of the strip.
    public struct Frame: Sendable, Encodable {
        public var url: String?
        public var image: ImageAttributes
        public var current: Bool
    }
    /// What the strip is, for a screen reader ("The 8 photos of this stack").
    public var label: String
    /// Where the page's item is in it ("3 of 8").
    public var position: String
    public var frames: [Frame]
    /// Frames of the stack left out at either end of a long strip.
    public var hiddenBefore: Bool
    public var hiddenAfter: Bool
}
