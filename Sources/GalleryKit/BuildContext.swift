import Foundation
import SiteOutput
import GalleryCore
import Planning
import Rendering
import Sealing
import Scanning

/// The state one build threads through its steps.
public struct BuildContext: Sendable {
    /// Where from, where to, and every setting.
    public let settings: BuildSettings
    /// The theme, loaded (and so checked) before the build started.
    public let theme: Theme
    /// Suppresses progress output (tests).
    public let quiet: Bool
    /// The part of a sharded build this run makes (`--shard`); nil: the whole build.
    public let shard: Shard?
    /// Items published so far (none while they are deferred).
    public var items: [MediaItem] = []
    /// A rebuild's unchanged items, not made unless a step needs them
    /// (`makeDeferredItems`); nil when `items` holds them all.
    var deferredItems: DeferredItems?
    /// Album sidecars, read and checked before any image work.
    public var sidecars: [AlbumPath: AlbumSettings] = [:]
    /// Google Takeout's year folders: their copies of album photos fold into the albums'.
    var takeoutYearFolders: Set<AlbumPath> = []
    /// Google Takeout's album folders (those with an album JSON).
    var takeoutAlbumFolders: Set<AlbumPath> = []
    /// Albums that list photos living in other folders (an iCloud download's
    /// `Albums/*.csv`): the photos' paths below SOURCE, by album.
    var albumReferences: [AlbumPath: [String]] = [:]
    /// people.yml (read with `publish_people`): who is who, who is hidden.
    public var people = PeopleList()
    /// The private albums' passphrases, by the album that says `private: true`
    /// (read with the sidecars, dropped once the keys are derived).
    var passphrases: [AlbumPath: [UInt8]] = [:]
    /// The passphrase files inside SOURCE (paths in SOURCE): never published, never a sidecar.
    var passphraseFiles: Set<String> = []
    /// The private albums' keys, by the album that says `private: true`.
    var albumKeys: [AlbumPath: AlbumKey] = [:]
    /// OUT, opened by the first step; every file operation on OUT goes through it.
    var output: OutputFolder?
    /// What the previous build left: owned files, photo cache, page fingerprint.
    public var previousState = BuildState()
    /// The previous state as read ahead by a `BuildSession`, taken by the
    /// prepare step if its file is unchanged since.
    var preloadedState: BuildState?
    /// What the last walk of SOURCE found, when builds follow one another in one process.
    var scanMemory: ScanMemory?
    /// The photo cache this build hands on.
    public var photoCache: PhotoEntries = [:]
    /// The keys of `photoCache`'s entries that differ from the previous
    /// state's, when it was read from a file (`BuildState.hasBaseFile`):
    /// whether any differ is `photoCacheUnchanged`.
    var changedPhotos: Set<PhotoKey> = []
    /// Set when `photoCache` holds only the changed entries, the others left
    /// in the previous state's file (`BuildState.photoCountWithBase`): how many there are in all.
    var photoCountWithBase: Int?
    /// Each album's download (`album_downloads`).
    public var downloads: [AlbumPath: AlbumDownload] = [:]
    /// Each page's fingerprint and files, handed on to the next build.
    public var pageRecords: PageEntries = [:]
    /// The ids of `pageRecords`' records that may differ from the previous
    /// state's (nil: not known, as in a part of a sharded page build).
    var changedPages: Set<PageKey>?
    /// Set when `pageRecords` holds only the changed records, the others left
    /// in the previous state's file (`BuildState.pageCountWithBase`): how many there are in all.
    var pageCountWithBase: Int?
    /// Faults to fail OUT's writes with (tests); nil in a real build.
    public var writeFaults: WriteFaults?
    /// The digest of everything the pages were made from, handed on too.
    public var siteInputs: StableHash.Digest = .zero
    /// Files this build produced (relative to OUT).
    public var producedFiles = ProducedFiles()
    /// Free memory is handed back to the system after a step that lets go
    /// of much (and by the prune, mid-step); not in a watch session, whose
    /// next build would fault it in again (`MemoryTuning.releaseFreeMemory`).
    public var handsBackFreeMemory = true
    /// Every cache entry is the previous build's (nothing read, nothing gone).
    var photoCacheUnchanged = false
    /// The previous build's pages were taken whole (`RenderPagesStep.reuseAll`).
    var pagesReused = false
    /// The page step rendered most pages, and let go of its plan before
    /// their records were made (a first build, a new theme): the prune then
    /// frees the items before its lists are made, as no plan's peak is above them.
    /// True until the page step says otherwise: a build it did not decide
    /// for frees its items there, the lower peak.
    var renderedMostPages = true
    /// Parts of a sharded build were merged into the previous state.
    var mergedParts = false
    /// The report.
    public var report = BuildReport()
    /// `faces: auto` with the models found: the media step's faces, for the faces step.
    var faceWork: FaceWork?

    /// Live progress.
    let progress: ProgressReporter

    /// Creates a context.
    public init(settings: BuildSettings, theme: Theme, quiet: Bool = false, shard: Shard? = nil) {
        self.settings = settings
        self.theme = theme
        self.quiet = quiet
        self.shard = shard
        self.progress = ProgressReporter(quiet: quiet)
    }

    /// OUT, once the prepare step has opened it.
    func openOutput() throws(GalleryError) -> OutputFolder {
        guard let output else { throw .invalidSetting("internal: the output folder was used before it was opened") }
        return output
    }
}

