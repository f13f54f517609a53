import SiteOutput
import GalleryCore
import Metadata
import Scanning

/// What became of one source file.
enum MediaOutcome: Sendable {
    /// Published, with the number of renditions encoded now and reused, the
    /// cache entry for the next build, a note for the user (e.g. an
    /// animation published as a still), and a clip found beside the still
    /// that turned out not to be its Live Photo motion (to publish on its own).
    /// `droppedRegions`: face regions the file carried that could not be faces.
    case published(MediaItem, made: Int, reused: Int, cache: CachedPhoto, note: String?, detachedClip: SourceFile? = nil,
                   droppedRegions: DroppedRegions = DroppedRegions())
    /// Left out, with the reason.
    case skipped(SourceFile, reason: String)
    /// Readable, but not to be published (rejected, or rated below
    /// `min_rating`); cached so the next build decides without reading it.
    case leftOut(SourceFile, reason: String, cache: CachedPhoto)
    /// A Takeout year folder's copy of an item in an album: shown through
    /// the album's; cached, with nothing made.
    case folded(SourceFile, cache: CachedPhoto)
    /// OUT could not be written (full, read-only, …): not the file's fault,
    /// so it is not skipped; the build stops with this error.
    case stopped(OutputError)
    /// Removed (or moved away) after the scan found it: nothing to publish
    /// and nothing wrong; the site simply does not show it.
    case vanished(SourceFile)
}

extension MediaOutcome {
    /// The outcome puts an entry in the next build's cache (a file read and published, left out or folded).
    var recordsAnEntry: Bool {
        switch self {
        case .published, .leftOut, .folded: true
        case .skipped, .stopped, .vanished: false
        }
    }
}

/// Rethrows `error` when it is a fault of OUT that stops the build, for the
/// places that otherwise carry on without an optional part (a motion clip).
func rethrowIfTheBuildMustStop(_ error: Error) throws {
    if let error = error as? OutputError, error.stopsTheBuild { throw error }
}

/// The rules every media job applies the same way: which items are left
/// out, and what the next build remembers of a file read now.
struct PublishingRules: Sendable {
    let settings: BuildSettings
    /// Place names for GPS (`moment_places`); nil when the setting is off.
    let places: PlaceFinder?
    // Read once: every photo of a rebuild is checked against them (a
    // setting read through its key path costs more than the check).
    let includeRejected: Bool
    let minRating: Int
    let publishPeople: Bool
    let publishArchived: Bool
    /// Stills' looks are made whatever `stacks.near_duplicates` says: the
    /// state is then a clean build's whichever setting made it, and turning
    /// the rule on opens no photo again.
    let wantsLooks = true
    /// Which Takeout year-folder copies fold into an album's item.
    let yearCopies: TakeoutYearCopies
    /// The export tables (iCloud's Photo Details) read in this build, each once.
    let exportTables = ExportTables()

    init(settings: BuildSettings, places: PlaceFinder?, yearCopies: TakeoutYearCopies = TakeoutYearCopies(yearFolders: [])) {
        self.yearCopies = yearCopies
        self.settings = settings
        self.places = places
        includeRejected = settings.includeRejected
        minRating = settings.minRating
        publishPeople = settings.publishPeople
        publishArchived = settings.publishArchived
    }

    /// Why an item with these words is not published, or nil.
    func leftOutReason(_ words: PhotoWords) -> String? {
        switch words.serviceStatus {
        case .trashed?: return "in Google Photos' trash"
        case .hidden?: return "hidden in iCloud Photos"
        case .recentlyDeleted?: return "recently deleted in iCloud Photos"
        case .archived? where !publishArchived: return "archived in Google Photos (publish_archived: true publishes it)"
        case .archived?, nil: break
        }
        if words.isRejected && !includeRejected { return "rejected (rating -1; include_rejected: true publishes it)" }
        if minRating > 0, (words.rating ?? 0) < minRating {
            return "rated \(max(0, words.rating ?? 0)) stars, below min_rating: \(minRating)"
        }
        return nil
    }

    /// The place of a location, when places are wanted.
    func place(near location: GPSCoordinate?) -> Place? {
        location.flatMap { places?.place(near: $0) }
    }

    /// What the next build remembers of a file read now.
    /// `shardKey` is the file's key for sharded builds (a part of one then
    /// reads only its own entries of the state): of a photo, from the bytes
    /// just read; of a video, which is not read whole, from the file.
    func cacheEntry(_ file: SourceFile, contentHash: ContentHash, metadata: PhotoMetadata, clip: CachedClip? = nil,
                    shardKey: UInt64) -> CachedPhoto {
        CachedPhoto(size: file.byteCount, modified: file.modifiedNanoseconds, contentHash: contentHash, metadata: metadata, clip: clip,
                    sidecarStamp: SidecarWords.stamp(file), keepPeople: publishPeople, keepPlace: places != nil,
                    shardKey: shardKey)
    }
}

extension CachedPhoto {
    /// The item this entry publishes for `file`: the entry's metadata box
    /// and digest, so an item holds only what the state keeps (no GPS; people
    /// and places when published), as a no-op build's items do.
    func item(_ file: SourceFile, renditions: [Rendition]) -> MediaItem {
        var item = MediaItem(source: file, contentHash: contentHash, metadata: $metadata, renditions: renditions, metadataDigest: metadataDigest)
        if looks != nil { item.looks = looks }
        return item
    }
}
