import SiteOutput
import Video
import GalleryCore
import Scanning

/// A video: hashed in chunks (it can be gigabytes), probed by ffprobe, its
/// stills made from one poster frame, its playback file by ffmpeg.
struct VideoJob: Sendable {
    let rules: PublishingRules
    let planner: RenditionPlanner
    let video: VideoWork

    var settings: BuildSettings { rules.settings }

    func run(_ file: SourceFile, known: (CachedPhoto, RenditionPlan)?) throws -> MediaOutcome {
        _ = try video.requireTools()
        let contentHash: ContentHash, metadata: PhotoMetadata, plan: RenditionPlan
        var notes: [String] = []
        if let (cached, knownPlan) = known {
            (contentHash, metadata, plan) = (cached.contentHash, cached.metadata, knownPlan)
        } else {
            // Probed first: a clip refused (too long, not a video) is never read whole.
            let facts = try video.facts(of: file.url)
            contentHash = try SourceFileReader.contentHash(of: file)
            var read = VideoWork.metadata(of: facts, file: file)
            notes = SidecarWords.apply(file, to: &read, tables: rules.exportTables)
            read.place = rules.place(near: read.gps)
            metadata = read
            if let reason = rules.leftOutReason(metadata.words) {
                return .leftOut(file, reason: reason, cache: rules.cacheEntry(file, contentHash: contentHash, metadata: metadata,
                                                                              shardKey: SourceFileReader.shardKey(of: file)))
            }
            plan = planner.plan(contentHash: contentHash, metadata: metadata, album: file.albumPath)
        }
        if rules.yearCopies.isFolded(file, contentHash: contentHash) {
            return .folded(file, cache: rules.cacheEntry(file, contentHash: contentHash, metadata: metadata, shardKey: SourceFileReader.shardKey(of: file)))
        }
        guard let facts = metadata.motion else { throw VideoWorkError.notAVideo }
        // Its looks (the tiles' placeholder) come from the poster frame's pixels, as its stills are made.
        let looks = RenditionPlanner.looks(known: known?.0, plan: plan, wanted: rules.wantsLooks), looksTap = looks?.tap
        if plan.missingStills > 0 || looksTap != nil {
            let posterSize = facts.displaySize.fitting(in: settings.posterBox)
            let png = try video.poster(of: file.url, facts: facts, size: posterSize)
            try png.withUnsafeBytes { bytes in
                try planner.makeStills(plan, from: bytes, format: .png, storedSize: posterSize, orientation: .up,
                                       taps: looksTap.map { [$0] } ?? [])
            }
        }
        if let path = plan.videoPath {
            try video.makePlayback(from: file.url, facts: facts, path: path, displayName: file.displayPath)
        }
        // A video is not read whole: it must still be the file that was
        // hashed and probed, or its stills and playback file (named by that
        // hash) may be of another version (they are pruned with this build).
        guard let now = SourceFileReader.stamp(file) else { throw SourceChangedError(path: file.displayPath, removed: true) }
        guard now.matches(file) else { throw SourceChangedError(path: file.displayPath, removed: false) }
        var cached = rules.cacheEntry(file, contentHash: contentHash, metadata: metadata, shardKey: SourceFileReader.shardKey(of: file))
        looks?.record(in: &cached)
        let item = cached.item(file, renditions: plan.renditions)
        return .published(item, made: plan.missingStills + (plan.videoPath == nil ? 0 : 1), reused: plan.reused, cache: cached,
                          note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}
