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

/// One of a stack's other items as its cover's tile carries it, in a
/// `<template>` (inert: nothing is fetched until the viewer steps into the
/// stack), with the data the viewer reads from a grid link. Every field is
/// present (empty for none): a missing one would be looked up on the cover.
public struct StackMember: Sendable, Encodable {
    public var memberHref: String
    public var memberPreviewSrcset: String
    public var memberPreviewAvifSrcset: String
    public var memberPreviewWidth: Int
    public var memberPreviewHeight: Int
    public var memberFacts: String
    public var memberFaces: String
    public var memberOriginal: String
    public var memberPoster: String
    public var memberVideo: String
    public var memberLive: Bool
    public var memberCaption: String
    public var memberThumbnail: String
    public var memberThumbnailSrcset: String
    public var memberThumbnailWidth: Int
    public var memberThumbnailHeight: Int
    public var memberAlt: String

    init(_ tile: Thumbnail) {
        memberHref = tile.href ?? ""
        memberPreviewSrcset = tile.previewSrcset ?? ""
        memberPreviewAvifSrcset = tile.previewAvifSrcset ?? ""
        memberPreviewWidth = tile.previewWidth ?? 1
        memberPreviewHeight = tile.previewHeight ?? 1
        memberFacts = tile.factsJSON
        memberFaces = tile.facesJSON ?? ""
        memberOriginal = tile.original ?? ""
        memberPoster = tile.posterLarge ?? ""
        memberVideo = tile.video ?? ""
        memberLive = tile.live
        memberCaption = tile.caption ?? ""
        memberThumbnail = tile.image.src
        memberThumbnailSrcset = tile.image.srcset
        memberThumbnailWidth = tile.image.width
        memberThumbnailHeight = tile.image.height
        memberAlt = tile.image.alt
    }
}
