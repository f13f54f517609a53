/// How the moments timeline groups photos.
public enum MomentGrouping: Sendable, Equatable {
    /// One section per local calendar day (the photographer's wall clock).
    case day
    /// One section per calendar month.
    case month
    /// A new section wherever consecutive photos are more than `hours` apart.
    case gap(hours: Double)
}

/// Which end of a list comes first.
public enum SortDirection: String, Sendable, Equatable {
    /// Oldest / A first.
    case ascending
    /// Newest / Z first.
    case descending
}

/// How an album orders its photos.
public enum PhotoSortKey: String, Sendable, Equatable {
    /// By capture time.
    case date
    /// By file name, in natural order (`2.jpg` before `10.jpg`).
    case name
}

/// What an album's sidecar (`album.yml`) may set.
public struct AlbumSettings: Sendable, Equatable {
    /// Display title instead of the folder name.
    public var title: String?
    /// Markdown description.
    public var description: String?
    /// File name of the cover photo, in this folder.
    public var cover: String?
    /// Photo order.
    public var sort: PhotoSortKey?
    /// Direction of that order.
    public var order: SortDirection?
    /// Left out of every listing and of the moments timeline (unlisted, not private).
    public var hidden: Bool = false
    /// Not an album (a Google Takeout's `Photos from 2019`): left out of the
    /// listings, its photos on the timeline (and a copy of a photo that is
    /// in an album too is shown through the album alone).
    public var timelineOnly: Bool = false
    /// Published only encrypted (`private: true`), it and the albums below it,
    /// with the key derived from the passphrase in `passphraseFile`.
    public var isPrivate: Bool = false
    /// The file holding the passphrase, as album.yml names it (relative to
    /// the album.yml's folder), and the line that names it, for errors.
    public var passphraseFile: String?
    public var passphraseLine: Int?
    /// The line that names the cover, for the warning when no photo of the folder has that name.
    public var coverLine: Int?
    /// Titles, captions and keywords of this folder's items, by file name
    /// (`photos:` in album.yml); they win over what the files say.
    public var photoWords: [String: PhotoWords] = [:]
    /// `stacks:` of album.yml: the stack rules for this album's own items
    /// (nil: the site's).
    public var stackBursts: Bool?
    public var stackEdits: Bool?
    public var stackNearDuplicates: Bool?
    /// Single items' part in their stack, by file name (`photos: NAME: stack:`).
    public var stackChoices: [String: StackChoice] = [:]

    /// No overrides.
    public init(title: String? = nil, description: String? = nil, cover: String? = nil,
                sort: PhotoSortKey? = nil, order: SortDirection? = nil, hidden: Bool = false) {
        self.title = title
        self.description = description
        self.cover = cover
        self.sort = sort
        self.order = order
        self.hidden = hidden
    }
}

/// What album.yml says of one item's part in its stack (`photos: NAME: stack:`).
public enum StackChoice: String, Sendable, Equatable {
    /// The stack's cover, whatever the camera picked.
    case cover
    /// Never stacked: listed on its own.
    case alone
}
