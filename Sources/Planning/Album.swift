import GalleryCore
import Foundation

/// A folder of the source tree with the photos published from it.
public struct Album: Sendable {
    /// Its place in the tree.
    public var path: AlbumPath
    /// Display title (the folder name unless a sidecar says otherwise).
    public var title: String
    /// Markdown description from the sidecar.
    public var description: String?
    /// Its photos in display order.
    public var photos: [MediaItem]
    /// Child albums that hold photos somewhere below them, in display order
    /// (hidden ones included: they get pages, but are not listed).
    public var children: [AlbumPath]
    /// Unlisted: left out of listings and the moments timeline.
    public var hidden: Bool
    /// Not an album (a Takeout's year folder): left out of listings, its
    /// photos on the timeline.
    public var timelineOnly = false
    /// Some of its photos live in other folders (an iCloud album lists
    /// photos of the download's `Photos/`; a Takeout album, a photo another
    /// album holds too): their pages are their own folders', and they are on
    /// the timeline from there, not from here.
    public var listsOthers = false

    /// Whether `photo` lives in this album's folder (its page is here).
    @inline(__always)
    public func isHome(of photo: MediaItem) -> Bool { !listsOthers || photo.source.albumPath == path }
    /// The places of the stack the photo at `index` is in: its cover's, then
    /// its other items' (just `index` for a photo in no stack).
    public func stackRange(at index: Int) -> Range<Int> {
        switch photos[index].stack {
        case .single: return index..<index + 1
        case .cover(let count): return index..<min(photos.count, index + count)
        case .member(let offset):
            let cover = max(0, index - offset)
            return cover..<min(photos.count, cover + photos[cover].stack.tileCount)
        }
    }

    /// The tile (a photo, or a stack's cover) listed before the one holding `index`.
    public func previousTile(before index: Int) -> Int? {
        let start = stackRange(at: index).lowerBound
        return start > 0 ? stackRange(at: start - 1).lowerBound : nil
    }

    /// The tile listed after the one holding `index`.
    public func nextTile(after index: Int) -> Int? {
        let end = stackRange(at: index).upperBound
        return end < photos.count ? end : nil
    }

    /// How many of a stack's items an item page's strip shows at most: a
    /// burst of thousands shows the frames around the one on the page.
    public static let stripLength = 15

    /// The items the page of the photo at `index` shows in its stack's strip
    /// (empty for a photo in no stack).
    public func stackStrip(at index: Int) -> Range<Int> {
        let stack = stackRange(at: index)
        guard stack.count > 1 else { return index..<index }
        guard stack.count > Self.stripLength else { return stack }
        let start = min(max(stack.lowerBound, index - Self.stripLength / 2), stack.upperBound - Self.stripLength)
        return start..<start + Self.stripLength
    }

    /// File name of the cover photo chosen by the sidecar.
    public var coverFileName: String?
    /// Where it publishes when it is private or below a private album: its
    /// nearest private ancestor's (or its own) vault; nil when public.
    public var vault: Vault?

    /// Creates an album.
    public init(path: AlbumPath, title: String, description: String? = nil, photos: [MediaItem] = [], children: [AlbumPath] = [],
                hidden: Bool = false, coverFileName: String? = nil) {
        self.path = path
        self.title = title
        self.description = description
        self.photos = photos
        self.children = children
        self.hidden = hidden
        self.coverFileName = coverFileName
    }
}

/// Everything a site is rendered from.
public struct Gallery: Sendable {
    /// Site title.
    public var title: String
    /// Every album that has photos in its subtree, the root always included.
    public var albums: [AlbumPath: Album]
    /// Each stack's other items as its tile carries them for the viewer (at
    /// most a strip's worth), by its cover's source path.
    public private(set) var stackMembers: [String: ArraySlice<MediaItem>] = [:]
    /// How many stacks the albums hold, and how many items are in them.
    public private(set) var stackCounts = (stacks: 0, items: 0)

    /// Creates a gallery.
    public init(title: String, albums: [AlbumPath: Album]) {
        self.title = title
        self.albums = albums
        for album in albums.values {
            for (index, photo) in album.photos.enumerated() {
                guard case .cover(let count) = photo.stack else { continue }
                stackCounts.stacks += 1
                stackCounts.items += count
                stackMembers[photo.source.relativePath] = album.photos[index + 1 ..< min(album.photos.count, index + min(count, Album.stripLength))]
            }
        }
    }

    /// The name an album goes by: the site's title for the root, else its
    /// sidecar's title, else its folder's name.
    public func title(of path: AlbumPath) -> String {
        path.isRoot ? title : (albums[path]?.title ?? path.name)
    }

    /// Groups photos into albums, orders each album (sidecar order, else the
    /// site default), applies sidecar titles, covers and hidden flags, and links
    /// every album that has photos below it to its parent.
    /// `vaults` are the private albums' (by the album that says `private: true`).
    /// `references`: albums that list photos of other folders, by the photos'
    /// paths below SOURCE (beside a folder's own photos).
    public static func assemble(title: String, photos: [MediaItem], sidecars: [AlbumPath: AlbumSettings] = [:],
                                options: Settings = Settings(), vaults: [AlbumPath: Vault] = [:],
                                references: [AlbumPath: [String]] = [:]) -> Gallery {
        var albums: [AlbumPath: Album] = [.root: Album(path: .root, title: title)]
        // A folder's photos come in runs (the items are in path order): each
        // run is added to its album, and its album to the parents, once.
        var run: [MediaItem] = [], runPath = AlbumPath.root, runSidecar: AlbumSettings?
        func addRun() {
            guard !run.isEmpty else { return }
            add(run, to: runPath, in: &albums, title: title)
            run.removeAll(keepingCapacity: true)
        }
        for var photo in photos {
            if run.isEmpty || photo.source.albumPath != runPath {
                addRun()
                runPath = photo.source.albumPath
                runSidecar = sidecars[runPath]
            }
            if let words = runSidecar?.photoWords[photo.source.fileName] { photo.metadata.words = words.filled(from: photo.metadata.words) }
            run.append(photo)
        }
        addRun()
        let listing = listed(references, from: photos, into: &albums, title: title, vaults: vaults)
        // Each album's photos sorted on every core (a thousand albums of a hundred: a tenth of a second on one).
        let keys = Array(albums.keys), unsorted = albums
        // …and its stacks laid out (only its own photos are stacked).
        let ordered = parallelMap(keys, minimumCount: 8) { key in
            let sidecar = sidecars[key] ?? AlbumSettings()
            let photos = sorted(unsorted[key]!.photos, by: sidecar.sort ?? options.albumSort, sidecar.order ?? options.albumOrder)
            let isHome: (MediaItem) -> Bool = listing.contains(key) ? { $0.source.albumPath == key } : { _ in true }
            return Stacks.arrange(photos, rules: StackRules(options: options, sidecar: sidecar), choices: sidecar.stackChoices, isHome: isHome)
        }
        for (key, photos) in zip(keys, ordered) {
            var album = albums[key]!
            let sidecar = sidecars[key] ?? AlbumSettings()
            if let custom = sidecar.title, !key.isRoot { album.title = custom }
            album.description = sidecar.description
            album.hidden = sidecar.hidden && !key.isRoot
            album.timelineOnly = sidecar.timelineOnly && !key.isRoot
            album.listsOthers = listing.contains(key)
            album.coverFileName = sidecar.cover
            album.children = Array(Set(album.children)).sorted()
            album.photos = photos
            if !key.isRoot { album.vault = vaults.nearest(to: key) }
            albums[key] = album
        }
        return Gallery(title: title, albums: albums)
    }

    /// Adds `photos` to the album at `path` (made if new) and links it to
    /// its parents, up to the first that was already there.
    static func add(_ photos: [MediaItem], to path: AlbumPath, in albums: inout [AlbumPath: Album], title: String) {
        func make(_ path: AlbumPath) -> Album { Album(path: path, title: path.isRoot ? title : path.name) }
        albums[path, default: make(path)].photos.append(contentsOf: photos)
        var child = path
        while let parent = child.parent {
            let isNew = albums[parent] == nil
            albums[parent, default: make(parent)].children.append(child)
            if !isNew { break }
            child = parent
        }
    }

    /// Adds to albums the photos they list from other folders (each photo
    /// once, after their own until sorted) and links them to their parents;
    /// returns those albums. A listed photo not published (left out, or not
    /// found) is passed over, and so is one across a private album's line
    /// (another vault's, or none): a public album never shows a private
    /// album's photo, nor a private one a photo it would carry out of its vault.
    static func listed(_ references: [AlbumPath: [String]], from photos: [MediaItem], into albums: inout [AlbumPath: Album],
                       title: String, vaults: [AlbumPath: Vault]) -> Set<AlbumPath> {
        guard !references.isEmpty else { return [] }
        let wanted = Set(references.values.joined())
        var byPath: [String: MediaItem] = [:]
        for photo in photos where wanted.contains(photo.source.relativePath) { byPath[photo.source.relativePath] = photo }
        var filled = Set<AlbumPath>()
        for (path, members) in references.sorted(by: { $0.key < $1.key }) where !path.isRoot {
            var seen = Set((albums[path]?.photos ?? []).map(\.source.relativePath))
            let vault = vaults.nearest(to: path)?.folder
            let items = members.compactMap { member -> MediaItem? in
                guard seen.insert(member).inserted, let item = byPath[member], vaults.nearest(to: item.source.albumPath)?.folder == vault else { return nil }
                return item
            }
            guard !items.isEmpty else { continue }
            add(items, to: path, in: &albums, title: title)
            filled.insert(path)
        }
        return filled
    }

    static func sorted(_ photos: [MediaItem], by key: PhotoSortKey, _ direction: SortDirection) -> [MediaItem] {
        // Each photo's instant and name made once, not twice per comparison.
        let instants = key == .date ? photos.map { $0.metadata.captureDate.instant } : []
        let names = photos.map(\.source.fileName)
        let ascending = photos.indices.sorted { a, b in
            if key == .date, instants[a] != instants[b] { return instants[a] < instants[b] }
            return NaturalOrder.less(names[a], names[b])
        }.map { photos[$0] }
        return direction == .ascending ? ascending : ascending.reversed()
    }

    /// True when the album or one of its ancestors is hidden, or it is
    /// private: left out of the timeline, tags, search, the feed and the sitemap.
    public func isHidden(_ path: AlbumPath) -> Bool {
        if albums[path]?.vault != nil { return true }
        var current: AlbumPath? = path
        while let p = current {
            if albums[p]?.hidden == true { return true }
            current = p.parent
        }
        return false
    }

    /// The children an album lists (hidden ones left out, and private ones
    /// unless the album is inside the same vault: those are locked cards).
    public func listedChildren(of path: AlbumPath) -> [AlbumPath] {
        let own = albums[path]?.vault?.folder
        return (albums[path]?.children ?? []).filter { child in
            guard let album = albums[child], !album.hidden, !album.timelineOnly else { return false }
            return album.vault == nil || album.vault?.folder == own
        }
    }

    /// The private albums an album shows as locked cards: no title, cover or
    /// count, only a link to the album's locked first page.
    public func lockedChildren(of path: AlbumPath) -> [AlbumPath] {
        let own = albums[path]?.vault?.folder
        return (albums[path]?.children ?? []).filter { child in
            guard let album = albums[child], !album.hidden, !album.timelineOnly, let vault = album.vault else { return false }
            return vault.folder != own
        }
    }

    /// Photos in this album and all listed albums below it.
    public func photoCount(under path: AlbumPath) -> Int {
        guard let album = albums[path] else { return 0 }
        return album.photos.count + listedChildren(of: path).reduce(0) { $0 + photoCount(under: $1) }
    }

    /// Every photo in this album and the listed albums below it.
    public func photos(under path: AlbumPath) -> [MediaItem] {
        guard let album = albums[path] else { return [] }
        return album.photos + listedChildren(of: path).flatMap { photos(under: $0) }
    }

    /// The sidecar's cover if it names a photo of this album, else the first
    /// photo, else the cover of the first listed child.
    public func cover(of path: AlbumPath) -> MediaItem? {
        guard let album = albums[path] else { return nil }
        if let name = album.coverFileName, let chosen = album.photos.first(where: { $0.source.fileName == name }) { return chosen }
        if let first = album.photos.first { return first }
        for child in listedChildren(of: path) { if let photo = cover(of: child) { return photo } }
        return nil
    }

    /// Every photo that appears in the moments timeline: from listed albums
    /// only, a stack by its cover.
    public var timelinePhotos: [MediaItem] {
        albums.values.filter { !isHidden($0.path) }.flatMap { album in
            album.photos.filter { $0.stack.isListed && album.isHome(of: $0) }
        }
    }
}

/// An album's download (`album_downloads`): a ZIP of its own items' published
/// files, named by a hash of what it holds, so it is remade only when that changes.
public struct AlbumDownload: Sendable, Equatable {
    /// Path relative to the site root.
    public var path: String
    /// Its size in bytes, shown on the button.
    public var bytes: Int64

    /// Creates a record.
    public init(path: String, bytes: Int64) {
        self.path = path
        self.bytes = bytes
    }
}
