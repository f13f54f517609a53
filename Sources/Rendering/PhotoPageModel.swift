import GalleryCore

/// An item's own page (`photo`).
public struct PhotoPageModel: Sendable, Encodable {
    /// The preview shown.
    public struct Preview: Sendable, Encodable {
        /// `src`, `srcset`, `sizes`, `width`, `height`, `alt` of the `<img>`.
        public var image: ImageAttributes
        public var animated: Bool
        public var poster: String?
        /// Its placeholder (`data-ph`), see `Thumbnail.placeholder`.
        public var placeholder: String? = nil
    }
    /// A fact shown under the picture.
    public struct Fact: Sendable, Encodable {
        public var label: String
        public var value: String
        /// The fact's page (a place's), when it has one (`factHref`, not
        /// `url`: a missing key would find an outer `url`).
        public var factHref: String?
    }
    /// The published original.
    public struct Download: Sendable, Encodable {
        public var url: String
        public var name: String
    }

    /// A video's player: `<video controls>` over its poster.
    public struct Player: Sendable, Encodable {
        public var src: String
        public var poster: String
        public var width: Int
        public var height: Int
    }
    /// A Live or Motion Photo's motion, played over the still while pressed or hovered.
    public struct Motion: Sendable, Encodable {
        public var src: String
        public var width: Int
        public var height: Int
    }

    public var chrome: PageChrome
    public var breadcrumbs: [TitledLink]
    public var hasBreadcrumbs: Bool
    public var photo: Preview?
    public var video: Player?
    public var motion: Motion?
    public var facts: [Fact]
    public var original: Download?
    public var datetime: String
    /// The photographer's caption (plain text; line breaks kept by CSS).
    public var caption: String?
    /// Keywords, in the order the file lists them, each linked to its tag page.
    public var keywords: [KeywordLink]
    public var hasKeywords: Bool
    /// The published people it shows, each linked to their page, with where their face is.
    public var people: [PersonLink]
    public var hasPeople: Bool
    public var back: TitledLink
    public var prev: PlainLink?
    public var next: PlainLink?
    /// The strip of its stack's items, when it is in one.
    public var stack: StackStrip?
}
