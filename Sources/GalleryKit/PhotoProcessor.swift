import SiteOutput
import Video
import Foundation
import GalleryCore
import Imaging
import Metadata
import Scanning

/// What became of one source file.
enum PhotoOutcome: Sendable {
    /// Published, with the number of renditions encoded now and reused, the
    /// cache entry for the next build, a note for the user (e.g. an
    /// animation published as a still), and a clip found beside the still
    /// that turned out not to be its Live Photo motion (to publish on its own).
    case published(MediaItem, made: Int, reused: Int, cache: CachedPhoto, note: String?, detachedClip: SourceFile? = nil)
    /// Left out, with the reason.
    case skipped(SourceFile, reason: String)
    /// Readable, but not to be published (rejected, or rated below
    /// `min_rating`); cached so the next build decides without reading it.
    case leftOut(SourceFile, reason: String, cache: CachedPhoto)
    /// OUT could not be written (full, read-only, …): not the file's fault,
    /// so it is not skipped; the build stops with this error.
    case stopped(OutputError)
    /// Removed (or moved away) after the scan found it: nothing to publish
    /// and nothing wrong; the site simply does not show it.
    case vanished(SourceFile)
}

/// Rethrows `error` when it is a fault of OUT that stops the build, for the
/// places that otherwise carry on without an optional part (a motion clip).
func rethrowIfTheBuildMustStop(_ error: Error) throws {
    if let error = error as? OutputError, error.stopsTheBuild { throw error }
}

/// Turns one source file into a published item. An unchanged file (same size
/// and modification time as in the cache) whose renditions are all in OUT is
/// not even opened. Otherwise: one read, a content hash, metadata from the
/// headers, and, only for renditions not already in OUT, one decode feeding
/// every missing size. A video's stills come from its poster frame and its
/// playback file from ffmpeg; a Live or Motion Photo is a still plus the
/// playback file of its motion.
struct PhotoProcessor: Sendable {
    let settings: BuildSettings
    let specs: [RenditionSpec]
    let cache: [String: CachedPhoto]
    let output: OutputFolder
    let video: VideoWork
    /// Place names for GPS (`moment_places`); nil when the setting is off.
    let places: PlaceFinder?

    init(settings: BuildSettings, cache: [String: CachedPhoto], output: OutputFolder, video: VideoWork, places: PlaceFinder? = nil) {
        self.settings = settings
        self.specs = settings.renditionSpecs
        self.cache = cache
        self.output = output
        self.video = video
        self.places = places
    }

    /// What a file needs, decided from the cache without opening it.
    enum Triage {
        /// Unchanged (size and modification time as cached) and every
        /// rendition in OUT: the outcome is known.
        case unchanged(PhotoOutcome)
        /// Unchanged, but some renditions are missing (a setting changed, a
        /// file was deleted): its hash and metadata are known, and what to make.
        case incomplete(CachedPhoto, Plan)
        /// New or changed: read it.
        case unknown
    }

    /// Looks the file up in the cache; cheap enough to run inline for every file.
    func triage(_ file: SourceFile) -> Triage {
        guard var cached = cache[BuildState.key(for: file.relativePath)], cached.size == file.byteCount,
              cached.modified == file.modifiedNanoseconds else { return .unknown }
        // What a setting now off no longer allows is not handed on (the state is published with OUT).
        if !settings.publishPeople && cached.peopleKept {
            cached.metadata.words.people = []
            cached.peopleKept = false
        }
        if places == nil && cached.placeKept {
            cached.metadata.place = nil
            cached.placeKept = false
        }
        // A Live Photo's clip and the sidecars must be the ones that were read, too.
        switch (file.livePhotoClip, cached.clip) {
        case (nil, nil): break
        case let (clip?, known?) where clip.byteCount == known.size && clip.modifiedNanoseconds == known.modified: break
        default: return .unknown
        }
        guard SidecarWords.stamp(file) == cached.sidecarStamp else { return .unknown }
        // People's names are needed now and were not kept: read the words again (no re-encode).
        if settings.publishPeople && !cached.peopleKept { return .unknown }
        // Places are wanted now and were not looked up: read the GPS again (no re-encode).
        if places != nil && !cached.placeKept { return .unknown }
        if let reason = leftOutReason(cached.metadata.words) { return .unchanged(.leftOut(file, reason: reason, cache: cached)) }
        // A video needs ffmpeg for anything missing: without it, it is read (and skipped) again.
        let plan = plan(contentHash: cached.contentHash, metadata: cached.metadata, clipHash: cached.clip?.contentHash)
        guard plan.jobs.isEmpty, plan.originalPath == nil, plan.videoPath == nil else { return .incomplete(cached, plan) }
        var photo = MediaItem(source: file, contentHash: cached.contentHash, metadata: cached.metadata, renditions: plan.renditions)
        photo.$metadata = cached.$metadata  // one box for both, not two copies of 600 bytes
        let detached = cached.clip?.belongsToStill == false ? file.livePhotoClip : nil
        return .unchanged(.published(photo, made: 0, reused: plan.reused, cache: cached, note: plan.note, detachedClip: detached))
    }

    /// Reads the file and makes what is missing. `known` (from `triage`)
    /// spares hashing the file, reading its metadata and planning again.
    func process(_ file: SourceFile, known: (CachedPhoto, Plan)? = nil) -> PhotoOutcome {
        if SourceFileTypes.isVideo(file.fileName) {
            do {
                return try processVideo(file, known: known)
            } catch let error as OutputError where error.stopsTheBuild {
                return .stopped(error)
            } catch {
                // Gone since the scan (ffprobe then fails on a missing file): not a bad file.
                if (error as? SourceChangedError)?.removed == true || SourceFileReader.stamp(file) == nil { return .vanished(file) }
                return .skipped(file, reason: ErrorText.describe(error))
            }
        }
        let data: [UInt8], scanned = file
        var known = known
        let file: SourceFile
        do {
            (data, file) = try SourceFileReader.readSteady(scanned)
        } catch let error as SourceChangedError {
            return error.removed ? .vanished(scanned) : .skipped(scanned, reason: error.description)
        } catch {
            return .skipped(scanned, reason: "cannot be read (\(ErrorText.describe(error)))")
        }
        // Changed since the scan (and settled): what the cache knew is of the old file.
        if file.byteCount != scanned.byteCount || file.modifiedNanoseconds != scanned.modifiedNanoseconds { known = nil }
        return data.withUnsafeBytes { bytes in
            do {
                return try process(file, bytes: bytes, known: known)
            } catch let error as OutputError where error.stopsTheBuild {
                return .stopped(error)
            } catch let error as MetadataError {
                return .skipped(file, reason: error.description)
            } catch let error as ImagingError {
                return .skipped(file, reason: error.description)
            } catch let error as ExternalToolError {
                return .skipped(file, reason: error.description)
            } catch {
                return .skipped(file, reason: String(describing: error))
            }
        }
    }

    /// What the next build remembers of a file read now.
    /// `shardKey` is the file's key for sharded builds (a part of one then
    /// reads only its own entries of the state): of a photo, from the bytes
    /// just read; of a video, which is not read whole, from the file.
    func cacheEntry(_ file: SourceFile, contentHash: String, metadata: PhotoMetadata, clip: CachedClip? = nil,
                    shardKey: UInt64) -> CachedPhoto {
        CachedPhoto(size: file.byteCount, modified: file.modifiedNanoseconds, contentHash: contentHash, metadata: metadata, clip: clip,
                    sidecarStamp: SidecarWords.stamp(file), keepPeople: settings.publishPeople, keepPlace: places != nil,
                    shardKey: shardKey)
    }

    /// Why an item with these words is not published, or nil.
    func leftOutReason(_ words: PhotoWords) -> String? {
        if words.isRejected && !settings.includeRejected { return "rejected (rating -1; include_rejected: true publishes it)" }
        if settings.minRating > 0, (words.rating ?? 0) < settings.minRating {
            return "rated \(max(0, words.rating ?? 0)) stars, below min_rating: \(settings.minRating)"
        }
        return nil
    }

    /// The renditions of a photo and the ones still missing from OUT.
    struct Plan {
        var renditions: [Rendition] = []
        var jobs: [RenditionJob] = []
        var jobPaths: [String] = []
        var reused = 0
        var note: String?
        /// The original to publish, when missing from OUT.
        var originalPath: String?
        /// The playback file to make, when missing from OUT.
        var videoPath: String?
    }

    /// JPEG quality of the full-size download made for formats that cannot be
    /// published as they are: high enough to print from.
    static let convertedOriginalQuality = 92

    /// What an item publishes; `clipHash` names a Live Photo's playback file
    /// (its clip's content hash; a video's and a Motion Photo's is the file's own).
    func plan(contentHash: String, metadata: PhotoMetadata, clipHash: String? = nil) -> Plan {
        let upright = metadata.displaySize
        var plan = Plan()
        var specs = self.specs
        switch metadata.kind {
        case .animation:
            if metadata.animationPixels <= settings.maximumAnimationPixels {
                specs = settings.animationSpecs
            } else {
                plan.note = "animation of \(metadata.frameCount) frames × \(metadata.storedSize) is over the "
                    + "\(settings.maximumAnimationPixels / 1_000_000) MP frame budget; published as a still of its first frame"
            }
        case .still, .video, .motionStill:
            // A video's or a Live Photo's thumbnails and previews are stills
            // too (of its poster frame or its photo).
            break
        }
        // Boxes that give the same pixels (a small source fits several boxes
        // whole) share one file.
        var pathsBySize: [RenditionKey: String] = [:]
        // Exact capacity: these arrays live as long as the build, one per photo.
        plan.renditions.reserveCapacity(specs.count + (settings.originalSpec == nil ? 0 : 1))
        /// Records a rendition, and the job to make it unless OUT has it.
        func add(_ spec: RenditionSpec, size: PixelSize, path: String) {
            plan.renditions.append(Rendition(spec: spec, size: size, path: path))
            if output.contains(path) {
                plan.reused += 1
            } else {
                plan.jobs.append(RenditionJob(spec: spec, size: size))
                plan.jobPaths.append(path)
            }
        }
        for spec in specs {
            let size = upright.fitting(in: spec.box)
            let sizeKey = RenditionKey(encoding: spec.encoding, size: size, animated: spec.animated)
            if let existing = pathsBySize[sizeKey] {
                plan.renditions.append(Rendition(spec: spec, size: size, path: existing))
                continue
            }
            let path = spec.relativePath(contentHash: contentHash, size: size)
            pathsBySize[sizeKey] = path
            add(spec, size: size, path: path)
        }
        if let motion = metadata.motion {
            let spec = settings.videoSpec
            let size = motion.displaySize.fittingVideo(in: spec.box)
            let path = spec.relativePath(contentHash: clipHash ?? contentHash, size: size)
            plan.renditions.append(Rendition(spec: spec, size: size, path: path))
            if output.contains(path) { plan.reused += 1 } else { plan.videoPath = path }
        }
        if let spec = settings.originalSpec, metadata.kind != .video {
            if metadata.format.isPublishableAsIs {
                let path = spec.relativePath(contentHash: contentHash, size: metadata.storedSize,
                                             originalExtension: metadata.format.fileExtension)
                plan.renditions.append(Rendition(spec: spec, size: metadata.displaySize, path: path))
                if output.contains(path) { plan.reused += 1 } else { plan.originalPath = path }
            } else {
                // HEIC, TIFF and RAW: browsers do not show them, and their
                // location cannot be removed without rewriting the container,
                // so the download is a full-size JPEG made from the pixels
                // (upright, ICC kept, no metadata at all).
                let converted = RenditionSpec(role: .original, box: upright, encoding: .jpeg(quality: Self.convertedOriginalQuality))
                add(converted, size: upright, path: converted.relativePath(contentHash: contentHash, size: upright))
            }
        }
        return plan
    }

    private func process(_ file: SourceFile, bytes: UnsafeRawBufferPointer, known: (CachedPhoto, Plan)?) throws -> PhotoOutcome {
        let contentHash: String, plan: Plan
        var metadata: PhotoMetadata
        var clip: CachedClip?
        var notes: [String] = []
        if let (cached, knownPlan) = known {
            (contentHash, metadata, plan, clip) = (cached.contentHash, cached.metadata, knownPlan, cached.clip)
        } else {
            metadata = try MetadataReader.read(bytes, fileName: file.relativePath, modificationDate: file.modificationDate)
            // Named by what decides the pixels: words written into the file keep the name.
            contentHash = ContentIdentity.hash(bytes, format: metadata.format, orientation: metadata.orientation)
            metadata.words = SidecarWords.read(file).filled(from: metadata.words)
            metadata.place = metadata.gps.flatMap { places?.name(near: $0) }
            if let reason = leftOutReason(metadata.words) {
                // Decided before any clip is probed or pixel decoded.
                return .leftOut(file, reason: reason, cache: cacheEntry(file, contentHash: contentHash, metadata: metadata,
                                                                                 shardKey: SourceFileReader.shardKey(of: bytes)))
            }
            if let liveClip = file.livePhotoClip {
                (metadata.motion, clip) = examineLiveClip(liveClip, still: metadata, notes: &notes)
                // A still saved without its location (an edited export) can take its clip's.
                if metadata.place == nil { metadata.place = metadata.motion?.location.flatMap { places?.name(near: $0) } }
                metadata.motion?.location = nil
            } else if let range = metadata.embeddedClip {
                do {
                    metadata.motion = try video.withEmbeddedClip(bytes, range: range) { url in
                        try video.facts(of: url)
                    }
                    metadata.motion?.location = nil  // the still's own GPS names the place
                } catch {
                    try rethrowIfTheBuildMustStop(error)
                    notes.append("its Motion Photo clip is not published: \(ErrorText.describe(error))")
                }
            }
            plan = self.plan(contentHash: contentHash, metadata: metadata, clipHash: clip?.contentHash)
        }
        guard metadata.storedSize.area <= settings.maximumPixels else {
            throw ImagingError.tooLarge(pixels: metadata.storedSize.area, limit: settings.maximumPixels)
        }
        if !plan.jobs.isEmpty {
            let encoded = try RenditionMaker.make(bytes, format: metadata.format, storedSize: metadata.storedSize,
                                                  orientation: metadata.orientation, jobs: plan.jobs,
                                                  maximumPixels: settings.maximumPixels)
            for (path, encodedBytes) in zip(plan.jobPaths, encoded) {
                try encodedBytes.withUnsafeBytes { raw in try output.write(raw, to: path) }
            }
        }
        // A Motion Photo's still ends where its clip begins: the published
        // original leaves the clip (and the clip's own metadata) out.
        let still = metadata.embeddedClip.map { UnsafeRawBufferPointer(rebasing: bytes[0..<$0.lowerBound]) } ?? bytes
        if let path = plan.originalPath {
            // The original, byte for byte, except where it was taken.
            let copy = settings.keepLocation ? Array(still) : try LocationStripper.strip(Array(still))
            try copy.withUnsafeBytes { raw in try output.write(raw, to: path) }
        }
        var renditions = plan.renditions
        if let path = plan.videoPath, let motion = metadata.motion {
            do {
                if let liveClip = file.livePhotoClip {
                    try video.makePlayback(from: liveClip.url, facts: motion, path: path, displayName: liveClip.displayPath)
                } else if let range = metadata.embeddedClip {
                    try video.withEmbeddedClip(bytes, range: range) { url in
                        try video.makePlayback(from: url, facts: motion, path: path, displayName: file.displayPath)
                    }
                }
            } catch {
                try rethrowIfTheBuildMustStop(error)
                // The still is published; its motion is tried again next build.
                notes.append("its motion is not published: \(ErrorText.describe(error))")
                renditions.removeAll { $0.path == path }
                metadata.motion = nil
            }
        }
        var photo = MediaItem(source: file, contentHash: contentHash, metadata: metadata, renditions: renditions)
        var cached = cacheEntry(file, contentHash: contentHash, metadata: metadata, clip: clip, shardKey: SourceFileReader.shardKey(of: bytes))
        // From here the item needs only what the state keeps (no GPS; people
        // and places when published): one box for both, as a no-op build has.
        photo.$metadata = cached.$metadata
        if metadata.motion == nil, plan.videoPath != nil {
            // Not cached as done: a later build (with ffmpeg back) tries the motion again.
            cached.size = -1
        }
        let made = plan.jobs.count + (plan.originalPath == nil ? 0 : 1) + (plan.videoPath != nil && metadata.motion != nil ? 1 : 0)
        notes += plan.note.map { [$0] } ?? []
        let detached = clip?.belongsToStill == false ? file.livePhotoClip : nil
        return .published(photo, made: made, reused: plan.reused, cache: cached, note: notes.isEmpty ? nil : notes.joined(separator: "; "),
                          detachedClip: detached)
    }

    /// Decides whether `clip` (a video named like the still beside it) is
    /// the still's Live Photo motion: short, and with the same Apple content
    /// identifier when both carry one. Its facts when it is; when it is not,
    /// it is published on its own (`CachedClip.belongsToStill` false).
    private func examineLiveClip(_ clipFile: SourceFile, still: PhotoMetadata, notes: inout [String]) -> (VideoFacts?, CachedClip?) {
        do {
            let hash = try SourceFileReader.contentHash(of: clipFile)
            func entry(_ belongs: Bool) -> CachedClip {
                CachedClip(size: clipFile.byteCount, modified: clipFile.modifiedNanoseconds, contentHash: hash, belongsToStill: belongs)
            }
            let facts: VideoFacts
            do {
                facts = try video.facts(of: clipFile.url)
            } catch let error as ExternalToolError {
                if case .missing = error {
                    notes.append("its Live Photo motion (\(clipFile.fileName)) is not published: \(error)")
                    return (nil, nil)
                }
                return (nil, entry(false))  // published (and skipped with its reason) on its own
            }
            let identifiersDiffer = still.livePhotoIdentifier != nil && facts.contentIdentifier != nil
                && still.livePhotoIdentifier != facts.contentIdentifier
            guard facts.duration <= VideoWork.longestLivePhotoClip, !identifiersDiffer else { return (nil, entry(false)) }
            return (facts, entry(true))
        } catch {
            // Unreadable: published on its own, which names the error, and
            // examined again next build (no size matches -1).
            return (nil, CachedClip(size: -1, modified: 0, contentHash: "", belongsToStill: false))
        }
    }

    /// A video: hashed in chunks (it can be gigabytes), probed by ffprobe,
    /// its stills made from one poster frame, its playback file by ffmpeg.
    private func processVideo(_ file: SourceFile, known: (CachedPhoto, Plan)?) throws -> PhotoOutcome {
        _ = try video.requireTools()
        let contentHash: String, metadata: PhotoMetadata, plan: Plan
        if let (cached, knownPlan) = known {
            (contentHash, metadata, plan) = (cached.contentHash, cached.metadata, knownPlan)
        } else {
            // Probed first: a clip refused (too long, not a video) is never read whole.
            let facts = try video.facts(of: file.url)
            contentHash = try SourceFileReader.contentHash(of: file)
            var read = VideoWork.metadata(of: facts, file: file)
            read.words = SidecarWords.read(file)
            read.place = read.gps.flatMap { places?.name(near: $0) }
            metadata = read
            if let reason = leftOutReason(metadata.words) {
                return .leftOut(file, reason: reason, cache: cacheEntry(file, contentHash: contentHash, metadata: metadata,
                                                                                 shardKey: SourceFileReader.shardKey(of: file)))
            }
            plan = self.plan(contentHash: contentHash, metadata: metadata)
        }
        guard let facts = metadata.motion else { throw VideoWorkError.notAVideo }
        if !plan.jobs.isEmpty {
            let posterSize = facts.displaySize.fitting(in: settings.posterBox)
            let png = try video.poster(of: file.url, facts: facts, size: posterSize)
            let encoded = try png.withUnsafeBytes { bytes in
                try RenditionMaker.make(bytes, format: .png, storedSize: posterSize, orientation: .up, jobs: plan.jobs,
                                        maximumPixels: settings.maximumPixels)
            }
            for (path, encodedBytes) in zip(plan.jobPaths, encoded) {
                try encodedBytes.withUnsafeBytes { raw in try output.write(raw, to: path) }
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
        var item = MediaItem(source: file, contentHash: contentHash, metadata: metadata, renditions: plan.renditions)
        let cached = cacheEntry(file, contentHash: contentHash, metadata: metadata, shardKey: SourceFileReader.shardKey(of: file))
        item.$metadata = cached.$metadata  // as for stills: the state's metadata, one box
        return .published(item, made: plan.jobs.count + (plan.videoPath == nil ? 0 : 1), reused: plan.reused, cache: cached, note: nil)
    }
}

/// Two specs that make the same bytes (one file serves both roles when a
/// photo is smaller than both boxes): compared as values, with no text made
/// (describing an enum with payloads goes through reflection, per photo).
private struct RenditionKey: Hashable {
    let encoding: Encoding
    let size: PixelSize
    let animated: Bool
}
