import Foundation
import GalleryCore
import Planning
import SiteOutput

/// A photo left out of the site, and why.
public struct SkippedPhoto: Sendable, Equatable {
    /// Path below SOURCE.
    public var path: String
    /// One-line reason.
    public var reason: String
}

/// What a build did, for the summary line and for tests.
public struct BuildReport: Sendable {
    /// Items published (photos and videos).
    public var published = 0
    /// Of those, videos.
    public var videos = 0
    /// Photos that could not be read.
    public var skipped: [SkippedPhoto] = []
    /// Files of types gallerygen does not publish (paths below SOURCE).
    public var ignored: [String] = []
    /// Items left out by the photographer's own choice (rejected, rated
    /// below `min_rating`, trashed, archived or hidden), with the reason.
    public var leftOut: [SkippedPhoto] = []
    /// How the media of Google Takeout folders matched their JSON (nil: no Takeout export in SOURCE).
    public var takeout: TakeoutTally?
    /// The media in folders of an iCloud Photos download and their Photo Details tables (nil: none in SOURCE).
    public var iCloud: (media: Int, tables: Int)?
    /// Takeout JSON refused whole or in part in this build, counted by why (one line; nil: none).
    public var exportSidecarProblems: String?
    /// Albums read from an iCloud download's `Albums/` tables.
    public var iCloudAlbums = 0
    /// Copies in Takeout year folders of photos in albums, shown once, through the album.
    public var takeoutCopiesFolded = 0
    /// Copies of one photo in several Takeout albums, shown as one item listed by each album.
    public var takeoutAlbumCopiesFolded = 0
    /// Bursts and edits listed as one tile each (`stacks.*`), and the items they hold; nil when pages were not planned.
    public var stacks: (stacks: Int, items: Int)?
    /// RAW files left out for the JPEG/HEIC of the same name (raw_pairs: prefer_jpeg).
    public var pairedRaw: [String] = []
    /// Renditions encoded in this build.
    public var renditionsMade = 0
    /// Renditions that were already up to date.
    public var renditionsReused = 0
    /// Album downloads (ZIP archives) made in this build.
    public var archivesMade = 0
    /// Site files written (pages, static files, media), in the order written.
    public var filesWritten: WrittenPaths = []
    /// Site files removed because the build no longer produces them.
    public var filesRemoved: [String] = []
    /// The state was committed from the previous one's file (its unchanged entries copied).
    public var stateFromBase = false
    /// The site's pages (HTML files).
    public var pages = 0
    /// Pages rendered by this build (the others were up to date).
    public var pagesRendered = 0
    /// Each step's name and wall-clock seconds, in order, and the process's
    /// peak memory when it ended (which step raised it).
    public var stepSeconds: [(name: String, seconds: Double, peakBytes: Int?)] = []
    /// Rendering work by kind of page (summed over the cores that rendered
    /// them): how many files, and the seconds of work.
    public var pageWork: [(kind: String, files: Int, seconds: Double)] = []
    /// The phases of the page and prune steps and their wall-clock seconds,
    /// in order (what `-v` prints below the steps): at a million photos a
    /// page step's seconds are the items made, the site planned and its
    /// pages compared, a prune's the wait for the items' (or the plan's)
    /// memory, the sift of two million paths and the state's commit, and
    /// each is measured apart.
    public var stepPhases: [(step: String, phase: String, seconds: Double)] = []
    /// Wall-clock duration in seconds.
    public var seconds: Double = 0
    /// The part of a sharded build this was (nil: a whole build).
    public var shard: Shard?
    /// Media files the scan found that belong to other parts.
    public var inOtherParts = 0
    /// Face regions read in this build that could not be faces, by why.
    public var droppedRegions = DroppedRegions()
    /// `faces: auto`: what was found and grouped ("Faces: …"), one line.
    public var faces: String?
    /// One-line advice printed under the summary (said once, not every build).
    public var advice: [String] = []
    /// Mistakes in SOURCE that did not stop the build (a cover naming no photo), one line each, said at every build.
    public var warnings: [String] = []

    /// Creates an empty report.
    public init() {}

    /// "1 photo", "2 photos".
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// The closing summary: one line, plus one accounting for ignored files.
    public var summary: String {
        if let shard, shard.phase == .pages {
            var text = "Part \(shard) of a sharded page build: rendered \(pagesRendered) of its \(Self.count(pages, "page"))"
            if inOtherParts > 0 { text += " (\(Self.count(inOtherParts, "item")) not ready yet: left to the last build)" }
            text += String(format: " in %.1f s", seconds)
            text += "\nOnce every part is done, `gallerygen build` without --pages writes the rest of the site."
            return text
        }
        // A build that made, wrote and removed nothing says so, not "Built".
        let nothingChanged = renditionsMade == 0 && pagesRendered == 0 && filesWritten.isEmpty && filesRemoved.isEmpty && archivesMade == 0
        var text = shard.map { "Part \($0) of a sharded build: made the media of " } ?? (nothingChanged ? "Up to date: " : "Built ")
        text += Self.count(published - videos, "photo")
        if videos > 0 { text += " and \(Self.count(videos, "video"))" }
        text += " (\(Self.count(renditionsMade, "rendition")) made, \(renditionsReused) up to date"
        // A part renders no pages; it says how much it left to the others.
        text += shard == nil ? "), rendered \(pagesRendered) of \(Self.count(pages, "page"))" : "; \(Self.count(inOtherParts, "file")) left to the other parts)"
        if !skipped.isEmpty { text += "; skipped \(Self.count(skipped.count, "unreadable file"))" }
        if !leftOut.isEmpty { text += "; left out \(leftOut.count) rejected, low-rated, trashed or hidden" }
        if archivesMade > 0 { text += "; \(Self.count(archivesMade, "album download")) made" }
        text += String(format: " in %.1f s", seconds)
        if shard != nil { text += "\nOnce every part is done, `gallerygen build` without --shard renders the pages." }
        if let takeout {
            text += "\n" + takeout.summary
            if takeoutCopiesFolded > 0 { text += "; \(Self.count(takeoutCopiesFolded, "photo")) of albums also in year folders shown once" }
            if takeoutAlbumCopiesFolded > 0 { text += "; \(Self.count(takeoutAlbumCopiesFolded, "copy", "copies")) of photos in several albums shown once" }
            if let exportSidecarProblems { text += "\n" + exportSidecarProblems }
        }
        if let iCloud {
            text += "\niCloud Photos download: \(Self.count(iCloud.media, "photo or video", "photos and videos")) read with "
                + "\(iCloud.tables == 1 ? "its Photo Details table" : "\(iCloud.tables) Photo Details tables")"
                + (iCloudAlbums > 0 ? "; \(Self.count(iCloudAlbums, "album")) from its Albums folder" : "")
        }
        if let stacks, stacks.stacks > 0 {
            text += "\nStacked \(Self.count(stacks.items, "photo")) as \(Self.count(stacks.stacks, "tile")) (bursts, near-duplicates and edits: each stack listed by its cover)"
        }
        if let line = pairedRawSummary { text += "\n" + line }
        if let line = ignoredSummary { text += "\n" + line }
        if droppedRegions.total > 0 {
            text += "\nLeft out \(Self.count(droppedRegions.total, "face region")) that could not be faces: \(droppedRegions.summary)"
        }
        if let faces { text += "\n" + faces }
        for line in warnings { text += "\nwarning: " + line }
        for line in advice { text += "\n" + line }
        return text
    }

    /// "Showed 2 RAW files through the JPEG or HEIC of the same name beside it …", or nil.
    public var pairedRawSummary: String? {
        guard !pairedRaw.isEmpty else { return nil }
        return "Showed \(Self.count(pairedRaw.count, "RAW file")) through the JPEG or HEIC of the same name beside it"
            + " (raw_pairs: prefer_jpeg; set raw_pairs: both to publish them too)"
    }

    /// "Ignored 3 files of types gallerygen does not publish: 2 .psd, 1 .txt", or
    /// nil when nothing was ignored.
    public var ignoredSummary: String? {
        guard !ignored.isEmpty else { return nil }
        var byType: [String: Int] = [:]
        for path in ignored {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            // A name's bytes reach the terminal: control characters shown escaped.
            let type = name.lastIndex(of: ".").map { DisplayText.oneLine("." + name[name.index(after: $0)...].lowercased()) }
                ?? "without extension"
            byType[type, default: 0] += 1
        }
        let parts = byType.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return "Ignored \(Self.count(ignored.count, "file")) of types gallerygen does not publish: \(parts.joined(separator: ", "))"
    }
}
