/// A folder of the source tree with the photos published from it.
public struct Album: Sendable {
    /// Its place in the tree.
    public var path: AlbumPath
    /// Display title (the folder name unless a sidecar says otherwise).
    public var title: String
    /// Its photos in display order.
    public var photos: [Photo]
    /// Child albums that hold photos somewhere below them, in display order.
    public var children: [AlbumPath]

    /// Creates an album.
    public init(path: AlbumPath, title: String, photos: [Photo] = [], children: [AlbumPath] = []) {
        self.path = path
        self.title = title
        self.photos = photos
        self.children = children
    }
}

/// Everything a site is rendered from.
public struct Gallery: Sendable {
    /// Site title.
    public var title: String
    /// Every album that has photos in its subtree, the root always included.
    public var albums: [AlbumPath: Album]

    /// Creates a gallery.
    public init(title: String, albums: [AlbumPath: Album]) {
        self.title = title
        self.albums = albums
    }

    /// Groups photos into albums, sorts each album by capture time (then name),
    /// and links every album that has photos below it to its parent.
    public static func assemble(title: String, photos: [Photo]) -> Gallery {
        var albums: [AlbumPath: Album] = [.root: Album(path: .root, title: title)]
        for photo in photos {
            var path = photo.source.albumPath
            albums[path, default: Album(path: path, title: path.name)].photos.append(photo)
            // Make sure every ancestor exists and lists its child once.
            while let parent = path.parent {
                let isNew = albums[parent] == nil
                albums[parent, default: Album(path: parent, title: parent.isRoot ? title : parent.name)]
                    .children.append(path)
                if !isNew { break }
                path = parent
            }
        }
        for key in Array(albums.keys) {
            albums[key]!.children = Array(Set(albums[key]!.children)).sorted()
            albums[key]!.photos.sort { a, b in
                let x = a.metadata.captureDate.instant, y = b.metadata.captureDate.instant
                if x != y { return x < y }
                return a.source.fileName.localizedStandardCompare(b.source.fileName) == .orderedAscending
            }
        }
        return Gallery(title: title, albums: albums)
    }

    /// Photos in this album and all below it.
    public func photoCount(under path: AlbumPath) -> Int {
        guard let album = albums[path] else { return 0 }
        return album.photos.count + album.children.reduce(0) { $0 + photoCount(under: $1) }
    }

    /// The album's first photo, or the first photo found below it.
    public func cover(of path: AlbumPath) -> Photo? {
        guard let album = albums[path] else { return nil }
        if let first = album.photos.first { return first }
        for child in album.children { if let photo = cover(of: child) { return photo } }
        return nil
    }
}
