import SiteOutput
import Video
import GalleryCore
import Imaging
import Metadata
import Scanning

/// A photo or an animation, with its motion when it is a Live or Motion
/// Photo: the file read once, then, top to bottom, its metadata and content
/// hash, the rules, its motion, the plan, one decode feeding every missing
/// size, the original, the playback file.
struct StillJob: Sendable {
    let rules: PublishingRules
    let planner: RenditionPlanner
    let motion: MotionJob
    let output: OutputFolder
    /// `faces: auto`: finds the faces of photos not looked at yet.
    let faces: FaceWork?

    var settings: BuildSettings { rules.settings }

    /// `known` (from the triage) spares hashing the file, reading its
    /// metadata and planning again.
    func run(_ file: SourceFile, bytes: UnsafeRawBufferPointer, known: (CachedPhoto, RenditionPlan)?) throws -> MediaOutcome {
        let contentHash: ContentHash, plan: RenditionPlan
        var metadata: PhotoMetadata
        var clip: CachedClip?
        var notes: [String] = []
        if let (cached, knownPlan) = known {
            (contentHash, metadata, plan, clip) = (cached.contentHash, cached.metadata, knownPlan, cached.clip)
        } else {
            metadata = try MetadataReader.read(bytes, fileName: file.relativePath, modificationDate: file.modificationDate)
            // Named by what decides the pixels: words written into the file keep the name.
            contentHash = ContentIdentity.hash(bytes, format: metadata.format, orientation: metadata.orientation)
            notes += SidecarWords.apply(file, to: &metadata, tables: rules.exportTables)
            if metadata.words.droppedRegions.total > 0 {
                notes.append("face regions left out: \(metadata.words.droppedRegions.summary)")
            }
            metadata.place = rules.place(near: metadata.gps)
            if let reason = rules.leftOutReason(metadata.words) {
                // Decided before any clip is probed or pixel decoded.
                return .leftOut(file, reason: reason, cache: rules.cacheEntry(file, contentHash: contentHash, metadata: metadata,
                                                                              shardKey: SourceFileReader.shardKey(of: bytes)))
            }
            clip = try motion.examine(file, still: bytes, metadata: &metadata, notes: &notes)
            plan = planner.plan(contentHash: contentHash, metadata: metadata, clipHash: clip?.contentHash, album: file.albumPath)
        }
        if rules.yearCopies.isFolded(file, contentHash: contentHash) {
            return .folded(file, cache: rules.cacheEntry(file, contentHash: contentHash, metadata: metadata, clip: clip,
                                                         shardKey: SourceFileReader.shardKey(of: bytes)))
        }
        // Before the original is copied: a file over the limit publishes nothing.
        try RenditionMaker.checkPixelLimit(metadata.storedSize, maximumPixels: settings.maximumPixels)
        // The faces are found in one rendition's pixels, upright, as it is made.
        var picture: RGBPicture?
        var taps: [PictureTap] = []
        if let faces, FaceWork.looksAt(metadata.kind), !faces.knows(contentHash), let job = RenditionPlanner.faceJob(plan) {
            taps.append(PictureTap(job: job) { picture = $0 })
        }
        // Looks: made whenever the photo is decoded, kept while the plan is the one they were made with.
        let looks = RenditionPlanner.looks(known: known?.0, plan: plan, wanted: rules.wantsLooks)
        if let tap = looks?.tap { taps.append(tap) }
        try planner.makeStills(plan, from: bytes, format: metadata.format, storedSize: metadata.storedSize,
                               orientation: metadata.orientation, taps: taps)
        if let picture, let faces {
            faces.find(in: picture, contentHash: contentHash, path: file.relativePath)
        }
        if let path = plan.originalPath {
            // A Motion Photo's still ends where its clip begins: the published
            // original leaves the clip (and the clip's own metadata) out.
            let still = metadata.embeddedClip.map { UnsafeRawBufferPointer(rebasing: bytes[0..<$0.lowerBound]) } ?? bytes
            // The original, byte for byte, except where it was taken.
            let copy = settings.keepLocation ? Array(still) : try LocationStripper.strip(Array(still))
            try copy.withUnsafeBytes { raw in try output.write(raw, to: path) }
        }
        var renditions = plan.renditions
        var motionMade = false
        if let path = plan.videoPath {
            motionMade = try motion.makePlayback(file, still: bytes, path: path, metadata: &metadata, notes: &notes)
            if !motionMade { renditions.removeAll { $0.path == path } }
        }
        var cached = rules.cacheEntry(file, contentHash: contentHash, metadata: metadata, clip: clip,
                                      shardKey: SourceFileReader.shardKey(of: bytes))
        cached.facesFound = faces?.knows(contentHash) ?? false
        looks?.record(in: &cached)
        let photo = cached.item(file, renditions: renditions)
        if plan.videoPath != nil && !motionMade {
            // Not cached as done: a later build (with ffmpeg back) tries the motion again.
            cached.size = -1
        }
        let made = plan.missingStills + (plan.originalPath == nil ? 0 : 1) + (motionMade ? 1 : 0)
        notes += plan.note.map { [$0] } ?? []
        let detached = clip?.belongsToStill == false ? file.livePhotoClip : nil
        return .published(photo, made: made, reused: plan.reused, cache: cached, note: notes.isEmpty ? nil : notes.joined(separator: "; "),
                          detachedClip: detached, droppedRegions: metadata.words.droppedRegions)
    }
}
