import GalleryCore

/// Google Takeout writes a photo that is in several albums once per album
/// folder, byte for byte. The copies fold into one item: the first by path
/// keeps its page, and every other album lists it as an album of iCloud's
/// lists its photos, so the photo is in each album and once on the timeline.
/// Only public albums' copies fold (a private album keeps its own, sealed);
/// only equal content folds, whatever the names.
public enum TakeoutAlbumCopies {
    /// `items` (in path order) without the later copies, the albums that
    /// list the kept item instead (by its path below SOURCE), and how many copies folded.
    public static func folded(_ items: [MediaItem], albums: Set<AlbumPath>) -> (kept: [MediaItem], listed: [AlbumPath: [String]], folded: Int) {
        guard albums.count > 1 else { return (items, [:], 0) }
        var first: [ContentHash: String] = [:]
        var listed: [AlbumPath: [String]] = [:]
        var kept: [MediaItem] = []
        kept.reserveCapacity(items.count)
        for item in items {
            let album = item.source.albumPath
            guard albums.contains(album) else {
                kept.append(item)
                continue
            }
            if let home = first[item.contentHash] {
                listed[album, default: []].append(home)
            } else {
                first[item.contentHash] = item.source.relativePath
                kept.append(item)
            }
        }
        return (kept, listed, items.count - kept.count)
    }
}
