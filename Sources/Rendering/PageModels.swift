import GalleryCore
/// The page models: one struct per page kind, and the pieces they share.
/// A template sees exactly these properties, by their Swift names (the
/// renderer turns a model into the template's context with `TemplateContext`),
/// so this file is the contract between Swift and the templates. An optional
/// that is nil is absent for the template (`{{#key}}` does not render).
///
/// # The contract between the pages, the templates and `viewer.js`
///
/// `Themes/default/static/viewer.js` reads the HTML that `photo-grid.mustache`
/// writes; a theme that overrides that template must keep these:
///
/// - Every thumbnail is an `<a>` inside `.photo-grid`, inside an `<li>` whose
///   `id` is the photo's anchor (`Thumbnail.id`, `p-<slug>`). The viewer opens on
///   `a[data-srcset]` and names the open photo in the URL as `#view=<id>`
///   (`#view=<index>` when the `<li>` has no id); a page loaded with that hash
///   opens the viewer there. The photo page's back link ends in `#<id>` too.
/// - `href`: the photo's own page (the viewer's fallback without JavaScript).
/// - `data-srcset` (`previewSrcset`): the previews as a `srcset` list;
///   `data-avif-srcset` (`previewAvifSrcset`), when there is AVIF: the same
///   as AVIF, shown where the grid's own `<picture>` chose AVIF;
///   `data-width`/`data-height` (`previewWidth`/`previewHeight`): the largest
///   preview's size, for the aspect ratio and the zoom limit.
/// - `data-facts` (`factsJSON`): a JSON array of `[label, value]` pairs.
/// - `data-animated="true"` (`animated`): the item moves; `data-poster`
///   (`posterLarge`): its still for reduced motion.
/// - `data-original` (`original`): the published original, for the download link.
/// - `data-caption` (`caption`): "Title — caption", the viewer's caption line.
/// - `data-video` (`video`): a video's (or a Live/Motion Photo's motion's)
///   playback file; `data-live="true"` (`live`): the file is the motion of a
///   still, played while pressed, not a clip with controls. The viewer never
///   fetches a neighbour's video bytes, only its poster (the previews).
/// - `.pager a[rel=next]`: the next page, which the viewer fetches to go on.
/// - The grid's row height is the CSS variable `--row-base` (`rowHeight`;
///   `--row-mobile` on phones, `mobileRowHeight`), and `--gap` its spacing;
///   each `<li>` carries `--grow` (`Thumbnail.grow`, width / height) so rows
///   are justified without layout shift.
///
/// `Tests/PageTests/PageContractTests.swift` checks that the attributes the
/// viewer reads are the ones the grid template writes.
///
/// Shared by every page: the header, the stylesheets and the grid's layout.
public struct PageChrome: Sendable, Encodable, FlattenedInTemplateContext {
    /// The site as a whole.
    public struct Site: Sendable, Encodable { public var title: String }
    /// A `<link rel>` to another page.
    public struct RelLink: Sendable, Encodable {
        public var rel: String
        public var url: String
    }
    /// The neighbours' previews a photo page preloads once its own photo has
    /// arrived (`neighbours.js` moves them from a `<template>` into the head):
    /// on a slow connection they must not share the photo's bandwidth.
    public struct NeighbourPreloads: Sendable, Encodable {
        public var script: String
        public var links: [Preload]
    }
    /// A `<link rel="preload" as="image">` of a neighbour's preview.
    public struct Preload: Sendable, Encodable {
        public var href: String
        public var srcset: String
        public var sizes: String
        /// `image/avif` when it preloads AVIF: a browser that cannot show it skips it.
        public var type: String? = nil
    }

    public var site: Site
    /// The site's language (`<html lang>`).
    public var language: String
    /// The page's own title.
    public var title: String
    public var isHome = false
    public var stylesheet: String
    public var themeStylesheet: String
    public var script: String
    /// The scripts' strings in the site's language (`static/strings.js`).
    public var stringsScript: String
    /// The Atom feed.
    public var feedURL: String
    /// Continuous pages (`pages.js`), on pages with a pager.
    public var pagesScript: String
    /// The placeholders' painter (`placeholders.js`), on every page: tiles can come from search too.
    public var placeholderScript: String
    public var home: String
    public var momentsURL: String
    /// The tag list, when the site has tags.
    public var tagsURL: String?
    /// The Favourites page, when there is one.
    public var favouritesURL: String?
    /// The places (`moment_places`), when some item has one.
    public var placesURL: String?
    public var inPlaces = false
    /// The People page (`publish_people`), when someone is published.
    public var peopleURL: String? = nil
    public var inPeople = false
    public var inFavourites = false
    /// The search page (the header's search box submits to it).
    public var searchURL: String
    public var inSearch = false
    public var inAlbums: Bool
    public var inMoments: Bool
    public var inTags = false
    /// `--gap`, CSS px.
    public var spacing: Int
    /// `--row-base`, CSS px.
    public var rowHeight: Int
    /// `--row-mobile`, CSS px.
    public var mobileRowHeight: Int
    /// The viewer's slideshow interval, seconds (`data-slideshow` on <body>).
    public var slideshowSeconds: Int
    /// The footer line (`footer` setting).
    public var footer: String
    /// The page's absolute address (`base_url` + its path), when `base_url` is set.
    public var canonicalURL: String?
    /// A page that only sends the reader on: where to (`<meta http-equiv="refresh">`).
    public var refreshURL: String? = nil
    /// What a chat or a social network shows for a shared link (OpenGraph,
    /// Twitter card), when `base_url` is set.
    public var share: ShareCard?
    public var relLinks: [RelLink] = []
    /// Nil on pages that preload nothing.
    public var neighbours: NeighbourPreloads? = nil
}

/// A link with a title (breadcrumbs, the albums of a moment).
/// A page's link preview: `og:*` and `twitter:*` tags (absolute addresses only).
public struct ShareCard: Sendable, Encodable {
    public var type: String
    public var headline: String
    public var summary: String
    public var url: String
    /// The picture (a preview of the 1200-px class), with its size and text.
    public var imageURL: String?
    public var imageWidth: Int?
    public var imageHeight: Int?
    public var imageAlt: String?
    /// `summary_large_image` with a picture, else `summary`.
    public var card: String
}

public struct TitledLink: Sendable, Encodable {
    public var title: String
    public var url: String
}

/// A link alone (previous / next photo).
public struct PlainLink: Sendable, Encodable {
    public var url: String
}

/// The attributes of an `<img>`: every rendition in `srcset`, the size the
/// page reserves (`width`/`height`, so nothing shifts) and its text.
public struct ImageAttributes: Sendable, Encodable, FlattenedInTemplateContext {
    public var src: String
    public var srcset: String
    public var sizes: String
    public var width: Int
    public var height: Int
    public var alt: String
    /// The same picture as AVIF, for a `<source type="image/avif">` before
    /// the `<img>` (with the same `sizes`); nil without AVIF.
    public var avifSrcset: String? = nil
}

/// One thumbnail of a grid, with what the viewer needs (see the contract above).
public struct Thumbnail: Sendable, Encodable {
    /// `src`, `srcset`, `sizes`, `width`, `height`, `alt` of the `<img>`.
    public var image: ImageAttributes
    /// Width / height, for `--grow`.
    public var grow: String
    /// The first rows load at once; the rest when scrolled near.
    public var lazy: Bool
    public var animated: Bool
    public var href: String?
    public var id: String?
    public var previewSrcset: String?
    /// The previews as AVIF (`data-avif-srcset`), nil without AVIF.
    public var previewAvifSrcset: String?
    public var previewWidth: Int?
    public var previewHeight: Int?
    public var factsJSON: String
    /// The published people's faces, for the viewer's outlines (`data-faces`).
    public var facesJSON: String? = nil
    public var original: String?
    public var poster: String?
    public var posterLarge: String?
    /// The playback file (a video, or a still's motion).
    public var video: String?
    /// The item is a Live or Motion Photo (a still whose `video` is its motion).
    public var live = false
    /// A video's length for the badge ("0:07").
    public var duration: String?
    /// "Title — caption" for the viewer's caption line (`data-caption`).
    public var caption: String?
    /// On moments pages, inside a run of quiet days: the day it begins.
    public var dayLabel: DayLabel?
    /// A stack's cover: its count on the badge, and what it says to a screen reader.
    public var stackCount: String?
    public var stackLabel: String?
    public var stackMembers: [StackMember]?
    /// The `<img>` is wrapped in a `<picture>`: it has an AVIF or a reduced-motion poster to offer.
    public var picture = false
    /// Its placeholder (`data-ph`): the ThumbHash in base64, painted until the picture arrives.
    public var placeholder: String?

    /// It moves and has a still frame to show instead: what the page's
    /// "Pause animations" button acts on.
    public var pausable: Bool { animated && poster != nil }

    /// Whether a page showing `tiles` is sent with that button (`animationToggle`).
    public static func needToggle(_ tiles: some Sequence<Thumbnail>) -> Bool { tiles.contains { $0.pausable } }
}

/// The pager of a paged album or timeline.
public struct Pager: Sendable, Encodable {
    /// A page number, or a gap between numbers.
    public struct Item: Sendable, Encodable {
        public var gap = false
        public var number: Int?
        public var url: String?
        public var current = false
    }
    public var items: [Item]
    public var count: Int
    public var number: Int
    public var prev: String?
    public var next: String?
}

/// A child album's card.
public struct AlbumCard: Sendable, Encodable {
    public var title: String
    public var url: String
    public var countLabel: String
    public var dateRange: String
    public var cover: Thumbnail?
    /// A private album's card: titled "Private album", no cover, no count.
    public var locked = false
}

/// A page of an album (`index` for the root album, `album` for the others).
public struct AlbumPageModel: Sendable, Encodable {
    public var chrome: PageChrome
    public var photoCountLabel: String
    public var dateRange: String?
    public var breadcrumbs: [TitledLink]
    public var hasBreadcrumbs: Bool
    /// Rendered by the escaping Markdown renderer (the one `{{{ }}}` value).
    public var descriptionHTML: String?
    public var albums: [AlbumCard]?
    public var hasAlbums: Bool?
    public var photos: [Thumbnail]
    public var hasPhotos: Bool
    public var pager: Pager?
    /// The album's ZIP (`album_downloads`).
    public struct Download: Sendable, Encodable {
        public var url: String
        /// The name a browser saves it under.
        public var fileName: String
        /// "12.3 MB", in the site's language.
        public var size: String
    }
    public var download: Download?
    /// On a person's pages: their face, beside their name.
    public var personFace: PersonFace? = nil
    /// Some photo of this page can be paused: the page is sent with the
    /// button, so that nothing moves when the script shows it.
    public var animationToggle = false
}

/// One section (a day, a month or a run) of a moments page.
public struct MomentSectionModel: Sendable, Encodable {
    public var datetime: String
    public var heading: String
    public var countLabel: String
    public var albums: [TitledLink]
    /// Its places' pages (`moment_places`), most photos first.
    public var places: [TitledLink]
    /// The section began on the previous page.
    public var continued: Bool
    /// The section goes on on the next page.
    public var continues: Bool
    public var photos: [Thumbnail]
    /// Its `id` (on the page where it starts), which the month index links to.
    public var anchor: String?
    /// `m-YYYY-MM` when it is its month's first section: the month index's links land there.
    public var monthAnchor: String?
    /// `YYYY-MM` of its first photo: what the index marks "you are here".
    public var month: String
}

/// The label over the first photo of a day inside a run of quiet days
/// (days with few photos share rows; each day is named above its first photo).
public struct DayLabel: Sendable, Encodable {
    public var anchor: String?
    /// `m-YYYY-MM` when this day is its month's first.
    public var monthAnchor: String?
    public var datetime: String
    /// Short: "Kyoto · 3 May 2025".
    public var text: String
    /// With places: the place part ("Kyoto & Osaka"), linked to the page of
    /// the place with most photos, and the date part after it.
    public var placeText: String?
    public var placeHref: String?
    public var dateText: String?
    /// Whole: "Kyoto · Saturday 3 May 2025, 2 photos".
    public var title: String
    public var month: String
    /// The day's photos' summed aspect ratios: how far the label may run.
    public var span: String
}

/// A run of consecutive quiet days sharing one justified grid.
public struct MomentRunModel: Sendable, Encodable {
    public var photos: [Thumbnail]
}

/// A block of a moments page: a day (or month, or burst) with its own heading
/// and grid, or a run of quiet days sharing rows.
public struct MomentBlock: Sendable, Encodable {
    public var section: MomentSectionModel?
    public var run: MomentRunModel?
    /// Its tiles, the section's or the run's.
    public var photos: [Thumbnail] { section?.photos ?? run?.photos ?? [] }
}

/// One year in the month index (the moments pages' rail, the years page).
public struct YearIndexEntry: Sendable, Encodable {
    public struct Month: Sendable, Encodable {
        /// "Jul".
        public var name: String
        /// "July 2019: 52 photos".
        public var label: String
        /// "52" (on the years page).
        public var countLabel: String?
        /// Page and anchor of its first section; nil for a month without items
        /// (`href`, not `url`: a missing key would find the year's `url`).
        public var href: String?
        /// `YYYY-MM`.
        public var key: String
        /// Some of its items are on this page.
        public var current = false
    }
    public var year: String
    /// "1,234" (on the years page).
    public var countLabel: String?
    /// "1,234 photos, 5 videos".
    public var fullCountLabel: String
    /// Its first month's link.
    public var url: String
    /// Shown unfolded (the year of this page).
    public var open: Bool
    public var months: [Month]
    public var cover: Thumbnail?
}

/// A page of the moments timeline (`moments`).
public struct MomentsPageModel: Sendable, Encodable {
    public var chrome: PageChrome
    /// The whole timeline's count: on every page of a short timeline, on the
    /// first only of one cut by year.
    public var photoCountLabel: String?
    /// "page 3 of 7" (a short timeline: its pages are numbered as one run).
    public var pageNumber = false
    public var blocks: [MomentBlock]
    public var pager: Pager?
    /// The month index, every year.
    public var years: [YearIndexEntry]
    /// The years overview.
    public var yearsURL: String
    /// Where this page is: "July 2019" (the bar's title on phones).
    public var hereLabel: String
    /// Sections are named after places: credit GeoNames.
    public var placesCredit: Bool
    /// Some photo of this page can be paused (`AlbumPageModel.animationToggle`).
    public var animationToggle = false
}

/// The years overview (`years`): a cover, a count and the months of each year.
/// A month of a timeline cut by year (`moments-month`): the way on to where it begins.
public struct MonthPageModel: Sendable, Encodable {
    public var chrome: PageChrome
    public var heading: String
    public var href: String
    public var linkText: String
}

public struct YearsPageModel: Sendable, Encodable {
    public var chrome: PageChrome
    public var countLabel: String
    public var years: [YearIndexEntry]
}

/// The list of tags (`tags`).
public struct TagIndexModel: Sendable, Encodable {
    /// One tag with its count.
    public struct Entry: Sendable, Encodable {
        public var name: String
        public var url: String
        public var countLabel: String
        public var cover: Thumbnail?
    }
    public var chrome: PageChrome
    public var countLabel: String
    public var tags: [Entry]
}

/// The search page (`search`): `static/search.js` fills its grid from the
/// index scripts in `search/`.
public struct SearchPageModel: Sendable, Encodable {
    public var chrome: PageChrome
    public var searchScript: String
    public var indexScript: String
}
