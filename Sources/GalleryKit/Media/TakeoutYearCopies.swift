import Foundation
import GalleryCore
import Scanning

/// Google Takeout puts every photo of an album in its year folder too
/// (`Photos from 2019`), byte for byte. The year folder's copy of a photo
/// that is in an album is left out: the photo is one item, shown in its
/// album and once on the timeline. A photo only in a year folder stays
/// (the timeline shows it); two different photos never fold, whatever
/// their names: only equal content does.
///
/// Which copies fold is known once every other item is: the media step
/// holds the year folders' files back until then (`hold`), so a folded
/// copy has no rendition made, not even one pruned afterwards (a copy of a
/// photo in a private album would otherwise be public for a moment).
final class TakeoutYearCopies: @unchecked Sendable {
    let yearFolders: Set<AlbumPath>
    private let lock = NSLock()
    private var albumHashes: Set<ContentHash>?

    init(yearFolders: Set<AlbumPath>) {
        self.yearFolders = yearFolders
    }

    /// Whether `file` is in a Takeout year folder.
    func isInYearFolder(_ file: SourceFile) -> Bool {
        !yearFolders.isEmpty && yearFolders.contains(file.albumPath)
    }

    /// Whether `file` must wait until the items outside year folders are known.
    func mustWait(_ file: SourceFile) -> Bool {
        isInYearFolder(file) && lock.withLock { albumHashes == nil }
    }

    /// The items outside year folders are all known: their contents decide which copies fold.
    func hold(_ items: [MediaItem]) {
        var hashes = Set<ContentHash>()
        for item in items where !yearFolders.contains(item.source.albumPath) { hashes.insert(item.contentHash) }
        lock.withLock { albumHashes = hashes }
    }

    /// Whether `file`, of this content, is a year folder's copy of an album's item.
    func isFolded(_ file: SourceFile, contentHash: ContentHash) -> Bool {
        isInYearFolder(file) && lock.withLock { albumHashes?.contains(contentHash) == true }
    }
}
