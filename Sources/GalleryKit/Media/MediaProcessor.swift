import SiteOutput
import GalleryCore
import Imaging
import Metadata
import Scanning
import Video

/// Turns one source file into a published item. An unchanged file (same size
/// and modification time as in the cache) whose renditions are all in OUT is
/// not even opened (`triage`). Otherwise it is handed to its job: a video to
/// `VideoJob`, anything else to `StillJob` (which asks `MotionJob` about a
/// Live or Motion Photo's clip); all of them plan through one `RenditionPlanner`.
struct MediaProcessor: Sendable {
    let rules: PublishingRules
    let planner: RenditionPlanner
    let stills: StillJob
    let videos: VideoJob

    let faces: FaceWork?

    init(settings: BuildSettings, output: OutputFolder, video: VideoWork, places: PlaceFinder? = nil, vaults: [AlbumPath: Vault] = [:],
         faces: FaceWork? = nil, yearCopies: TakeoutYearCopies = TakeoutYearCopies(yearFolders: [])) {
        rules = PublishingRules(settings: settings, places: places, yearCopies: yearCopies)
        planner = RenditionPlanner(settings: settings, output: output, vaults: vaults)
        self.faces = faces
        stills = StillJob(rules: rules, planner: planner, motion: MotionJob(video: video, rules: rules), output: output, faces: faces)
        videos = VideoJob(rules: rules, planner: planner, video: video)
    }

    /// What a file needs, decided from the cache without opening it.
    enum Triage {
        /// Unchanged (size and modification time as cached) and every
        /// rendition in OUT: the outcome is known.
        case unchanged(MediaOutcome)
        /// Unchanged and published, every rendition in OUT: the item is the
        /// entry's with the plan's renditions (made by `published`, or later:
        /// `DeferredItems`), and a clip that is not the still's own is
        /// published on its own.
        case complete(CachedPhoto, RenditionPlan, detachedClip: SourceFile?)
        /// Unchanged, but some renditions are missing (a setting changed, a
        /// file was deleted): its hash and metadata are known, and what to make.
        case incomplete(CachedPhoto, RenditionPlan)
        /// New or changed: read it.
        case unknown
    }

    /// Decides from what the previous build cached of the file (nil: nothing);
    /// cheap enough to run inline for every file.
    func triage(_ file: SourceFile, cached: CachedPhoto?) -> Triage {
        guard var cached, cached.size == file.byteCount, cached.modified == file.modifiedNanoseconds else { return .unknown }
        // What a setting now off no longer allows is not handed on (the state is published with OUT).
        cached.withhold(people: !rules.publishPeople, place: rules.places == nil)
        // A Live Photo's clip and the sidecars must be the ones that were read, too.
        switch (file.livePhotoClip, cached.clip) {
        case (nil, nil): break
        case let (clip?, known?) where clip.byteCount == known.size && clip.modifiedNanoseconds == known.modified: break
        default: return .unknown
        }
        guard SidecarWords.stamp(file) == cached.sidecarStamp else { return .unknown }
        // People's names are needed now and were not kept: read the words again (no re-encode).
        if rules.publishPeople && !cached.peopleKept { return .unknown }
        // Places are wanted now and were not looked up: read the GPS again (no re-encode).
        if rules.places != nil && !cached.placeKept { return .unknown }
        if rules.yearCopies.isFolded(file, contentHash: cached.contentHash) { return .unchanged(.folded(file, cache: cached)) }
        if let reason = rules.leftOutReason(cached.metadata.words) { return .unchanged(.leftOut(file, reason: reason, cache: cached)) }
        // A video needs ffmpeg for anything missing: without it, it is read (and skipped) again.
        let plan = planner.plan(contentHash: cached.contentHash, metadata: cached.metadata, clipHash: cached.clip?.contentHash, album: file.albumPath)
        // Faces not found yet (`faces: auto` turned on, or the table of another model): opened for them alone.
        // Looks not made yet (a library built before, or the plan changed): opened for them alone.
        guard plan.isComplete, faces?.needs(cached) != true, !RenditionPlanner.needsLooks(cached, plan, wanted: rules.wantsLooks) else {
            return .incomplete(cached, plan)
        }
        return .complete(cached, plan, detachedClip: cached.clip?.belongsToStill == false ? file.livePhotoClip : nil)
    }

    /// The outcome of a file `triage` found complete.
    static func published(_ file: SourceFile, _ cached: CachedPhoto, _ plan: RenditionPlan, detachedClip: SourceFile?) -> MediaOutcome {
        .published(cached.item(file, renditions: plan.renditions), made: 0, reused: plan.reused, cache: cached, note: plan.note,
                   detachedClip: detachedClip)
    }

    /// Reads the file and makes what is missing; `known` is the triage's.
    /// Never throws: what goes wrong is the outcome.
    func process(_ file: SourceFile, known: (CachedPhoto, RenditionPlan)? = nil) -> MediaOutcome {
        if SourceFileTypes.isVideo(file.fileName) {
            do {
                return try videos.run(file, known: known)
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
                return try stills.run(file, bytes: bytes, known: known)
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
}
