import GalleryCore

/// Google Takeout puts every photo of an album in its year folder too
/// (`Photos from 2019`), byte for byte. The copy in the year folder is
/// left out when the same content is in an album: the photo is one item,
/// shown in its album and once on the timeline. A photo only in a year
/// folder stays (the timeline shows it), and two different photos never
/// fold, whatever their names: only equal content does.
public enum TakeoutYearCopies {
    /// `items` without the year folders' copies of album items (order
    /// kept), and the copies left out.
    public static func folded(_ items: [MediaItem], yearFolders: Set<AlbumPath>) -> (kept: [MediaItem], folded: [MediaItem]) {
        guard !yearFolders.isEmpty else { return (items, []) }
        var inAlbums = Set<String>()
        for item in items where !yearFolders.contains(item.source.albumPath) { inAlbums.insert(item.contentHash) }
        guard !inAlbums.isEmpty else { return (items, []) }
        var kept: [MediaItem] = [], folded: [MediaItem] = []
        kept.reserveCapacity(items.count)
        for item in items {
            if yearFolders.contains(item.source.albumPath) && inAlbums.contains(item.contentHash) { folded.append(item) } else { kept.append(item) }
        }
        return (kept, folded)
    }
}
