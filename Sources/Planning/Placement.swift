import GalleryCore

/// Where every album's and photo's pages live (`SiteMap`'s fields of the same names).
struct Placement: Sendable {
    var albumPages: [AlbumPath: [String]] = [:]
    var photoPlaces = StringTable<PhotoPlace>()
    var albumPhotoRanges: [AlbumPath: [Range<Int>]] = [:]

    init(_ gallery: Gallery, budget: Int) {
        // Sized once: grown by doubling, each was rehashed a dozen times at 100,000 items.
        let itemCount = gallery.albums.values.reduce(0) { $0 + $1.photos.count }
        photoPlaces.reserveCapacity(itemCount)
        albumPhotoRanges.reserveCapacity(gallery.albums.count)
        assign(.root, folder: "", gallery: gallery, budget: budget)
    }

    private mutating func assign(_ path: AlbumPath, folder: String, gallery: Gallery, budget: Int) {
        guard let album = gallery.albums[path] else { return }
        let ranges = PageSplitter.pages(of: album.photos, budget: budget)
        albumPhotoRanges[path] = ranges
        // A private album's pages are named by its vault (the plain path, hashed with its key).
        albumPages[path] = ranges.indices.map { number in
            let plain = SiteMap.albumPage(folder: folder, number: number)
            return album.vault.map { $0.page(plain) } ?? plain
        }
        let photoFolder = path.isRoot ? "albums/" : folder
        var photoSlugs = Slug.Uniquer()
        // Which of the album's pages lists each photo (a stack's items: its cover's).
        var pageOf = [Int](repeating: 0, count: album.photos.count)
        for (number, range) in ranges.enumerated() { for index in range { pageOf[index] = number } }
        // The slug of the album page's anchor: a stack's items are listed through their cover.
        var anchorSlug = ""
        // The photos an album lists from other folders have their pages there.
        for (index, photo) in album.photos.enumerated() where album.isHome(of: photo) {
            let source = photo.source  // copied once, not at each use
            var slug = Slug.make(source.fileStem, fallback: "photo")
            // Album pages own index.html and index-N.html.
            if slug == "index" || slug.hasPrefix("index-") { slug = "photo-" + slug }
            slug = photoSlugs.claim(slug)
            // A stack's items are listed through their cover: back to its tile.
            if case .member = photo.stack {} else { anchorSlug = slug }
            let page = album.vault.map { $0.pagePath(photoFolder + slug + ".html") } ?? PagePath(folder: photoFolder, name: slug)
            photoPlaces.set(PhotoPlace(pagePath: page, anchorSlug: anchorSlug, albumPage: pageOf[index]), for: source.relativePath)
        }
        var childSlugs = Slug.Uniquer()
        let childBase = path.isRoot ? "albums/" : folder
        for child in album.children {
            let slug = childSlugs.claim(Slug.make(child.name, fallback: "album"))
            assign(child, folder: childBase + slug + "/", gallery: gallery, budget: budget)
        }
    }
}

/// Where a photo is placed: its page, its anchor on its album page, and
/// which of the album's pages (an index into `SiteMap.albumPages`) shows it.
/// The page is held as its album's folder and the photo's name, the anchor
/// as its slug (`p-<slug>`): spelled when asked, not held for a million photos.
public struct PhotoPlace: Sendable, Equatable {
    public let pagePath: PagePath
    /// The slug the anchor is made of: the photo's, or its stack's cover's (empty: none).
    let anchorSlug: String
    public let albumPage: Int

    /// Its page, relative to OUT.
    public var page: String { pagePath.description }

    /// Its tile's id on its album page (`p-<slug>`).
    public var anchor: String { anchorSlug.isEmpty ? "" : "p-" + anchorSlug }
}
