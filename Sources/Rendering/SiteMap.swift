import GalleryCore

/// Where every page of the site lives (paths relative to the site root).
///
/// Albums mirror the folder tree under `albums/`, each folder name turned into a
/// readable slug (`Léa 7` → `lea-7`), made unique among its siblings.
public struct SiteMap: Sendable {
    /// The first page of each album; the root album is the home page `index.html`.
    public private(set) var albumPages: [AlbumPath: String] = [:]
    /// The folder of each album (`albums/a/b/`); empty for the root.
    public private(set) var albumFolders: [AlbumPath: String] = [:]

    /// Assigns paths to every album of `gallery`.
    public init(gallery: Gallery) {
        albumPages[.root] = "index.html"
        albumFolders[.root] = ""
        assign(.root, folder: "albums/", gallery: gallery)
    }

    private mutating func assign(_ path: AlbumPath, folder: String, gallery: Gallery) {
        guard let album = gallery.albums[path] else { return }
        var uniquer = Slug.Uniquer()
        for child in album.children {
            let slug = uniquer.claim(Slug.make(child.name, fallback: "album"))
            let childFolder = folder + slug + "/"
            albumFolders[child] = childFolder
            albumPages[child] = childFolder + "index.html"
            assign(child, folder: childFolder, gallery: gallery)
        }
    }
}
