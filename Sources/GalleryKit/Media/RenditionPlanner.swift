import SiteOutput
import GalleryCore
import Imaging

/// The renditions of one item and the ones still missing from OUT.
struct RenditionPlan: Sendable {
    var renditions: [Rendition] = []
    /// Every still rendition of the item and where it goes; those missing
    /// from OUT are wanted (the others are resampled alongside, unencoded,
    /// so the missing ones come out as a build of all of them makes them).
    var jobs: [RenditionJob] = []
    /// Where in `renditions` each job's is (its path).
    var jobRenditions: [Int] = []
    var reused = 0
    var note: String?
    /// The original to publish, when missing from OUT.
    var originalPath: String?
    /// The playback file to make, when missing from OUT.
    var videoPath: String?

    /// The still renditions to encode now.
    var missingStills: Int { jobs.count { $0.isWanted } }

    /// Nothing to make: every file is in OUT.
    var isComplete: Bool { missingStills == 0 && originalPath == nil && videoPath == nil }
}

/// Decides what every item publishes (the one place that knows renditions'
/// sizes and names), and writes the stills made for a plan. Stills, videos
/// and motion all go through it.
struct RenditionPlanner: Sendable {
    let settings: BuildSettings
    let output: OutputFolder
    /// The private albums' vaults, by the album that is private.
    let vaults: [AlbumPath: Vault]
    // What the settings say of renditions, worked out once: a rebuild plans
    // every photo again (to find its files in OUT), and reading a setting
    // through its key path, or making a spec's key, cost more than the plan.
    private let stillSpecs: [KeyedRenditionSpec]
    private let animationSpecs: [KeyedRenditionSpec]
    /// The AVIF copies of the stills' and the posters' specs (empty without
    /// AVIF in `formats`), planned after them: the WebP or JPEG renditions
    /// keep their places, names and bytes whether AVIF is on or off.
    private let avifStillSpecs: [KeyedRenditionSpec]
    private let avifAnimationSpecs: [KeyedRenditionSpec]
    private let maximumAnimationPixels: Int
    private let videoSpec: KeyedRenditionSpec
    private let originalSpec: KeyedRenditionSpec?

    init(settings: BuildSettings, output: OutputFolder, vaults: [AlbumPath: Vault] = [:]) {
        self.settings = settings
        self.output = output
        self.vaults = vaults
        stillSpecs = settings.renditionSpecs.map(KeyedRenditionSpec.init)
        animationSpecs = settings.animationSpecs.map(KeyedRenditionSpec.init)
        avifStillSpecs = settings.avifSpecs.map(KeyedRenditionSpec.init)
        avifAnimationSpecs = settings.avifAnimationSpecs.map(KeyedRenditionSpec.init)
        maximumAnimationPixels = settings.maximumAnimationPixels
        videoSpec = KeyedRenditionSpec(settings.videoSpec)
        originalSpec = settings.originalSpec.map(KeyedRenditionSpec.init)
    }

    /// JPEG quality of the full-size download made for formats that cannot be
    /// published as they are: high enough to print from.
    static let convertedOriginalQuality = 92

    /// What an item of `album` publishes; `clipHash` names a Live Photo's playback file
    /// (its clip's content hash; a video's and a Motion Photo's is the file's own).
    /// A private album's files go to its vault, under opaque names.
    /// `inOutput`: every file is known to be in OUT (a plan made again for
    /// an item the media step found complete), not looked for.
    func plan(contentHash: ContentHash, metadata: PhotoMetadata, clipHash: ContentHash? = nil, album: AlbumPath,
              inOutput: Bool = false) -> RenditionPlan {
        let vault = vaults.nearest(to: album)
        // A private album's files go to its vault, under opaque names (spelled out there).
        let place: (Rendition) -> Rendition = vault.map { vault in
            { rendition in
                var placed = rendition
                placed.path = vault.file(rendition.path)
                return placed
            }
        } ?? { $0 }
        let upright = metadata.displaySize
        var plan = RenditionPlan()
        var specs = stillSpecs
        // A private album's pages show what their script decrypts, with no
        // <picture> to choose a format: its albums get no AVIF.
        var avifSpecs = vault == nil ? avifStillSpecs : []
        switch metadata.kind {
        case .animation:
            if metadata.animationPixels <= maximumAnimationPixels {
                specs = animationSpecs
                avifSpecs = vault == nil ? avifAnimationSpecs : []
            } else {
                plan.note = "animation of \(metadata.frameCount) frames × \(metadata.storedSize) is over the "
                    + "\(maximumAnimationPixels / 1_000_000) MP frame budget; published as a still of its first frame"
            }
        case .still, .video, .motionStill:
            // A video's or a Live Photo's thumbnails and previews are stills
            // too (of its poster frame or its photo).
            break
        }
        // Boxes that give the same pixels (a small source fits several boxes
        // whole) share one file.
        // A handful of specs: looked for in the list, not in a dictionary made per photo.
        var stills: [(keyed: KeyedRenditionSpec, size: PixelSize, sharedWith: Int?)] = []
        stills.reserveCapacity(specs.count + avifSpecs.count + 1)
        func add(_ keyed: KeyedRenditionSpec) {
            let spec = keyed.spec, size = upright.fitting(in: spec.box)
            let first = stills.firstIndex {
                $0.sharedWith == nil && $0.size == size && $0.keyed.spec.encoding == spec.encoding && $0.keyed.spec.animated == spec.animated
            }
            stills.append((keyed, size, first))
        }
        // Two loops, not `specs + avifSpecs`: no array made per photo of a no-op.
        for keyed in specs { add(keyed) }
        for keyed in avifSpecs { add(keyed) }
        // HEIC, TIFF and RAW: browsers do not show them, and their location
        // cannot be removed without rewriting the container, so the download
        // is a full-size JPEG made from the pixels (upright, ICC kept, no
        // metadata at all), with the other stills.
        let convertsOriginal = originalSpec != nil && metadata.kind != .video && !metadata.format.isPublishableAsIs
        if convertsOriginal {
            let converted = RenditionSpec(role: .original, box: upright, encoding: .jpeg(quality: Self.convertedOriginalQuality))
            stills.append((KeyedRenditionSpec(converted), upright, nil))
        }
        // The stills of one photo are made together (the decode's scale is
        // chosen for the largest, smaller ones are resampled from larger
        // ones), so each one's bytes depend on the others: their list is in
        // every name, and a size added or taken away renames them all.
        // AVIF renditions are encoded from the pixels of the WebP or JPEG of
        // their size (`RenditionMaker`): they add no size to the chain and
        // are left out of it, so turning AVIF on or off renames nothing.
        var chain = StableHash()
        for still in stills where still.sharedWith == nil && still.keyed.spec.format != .avif {
            chain.add(still.keyed.key)
            chain.add(still.size.width)
            chain.add(still.size.height)
        }
        let together = chain.digest().hex(digits: 8)
        // Exact capacity: these arrays live as long as the build, one per photo.
        plan.renditions.reserveCapacity(stills.count + (originalSpec == nil || convertsOriginal ? 0 : 1)
                                        + (metadata.motion == nil ? 0 : 1))
        for still in stills {
            if let first = still.sharedWith {
                plan.renditions.append(plan.renditions[first].sharingItsFile(as: still.keyed, size: still.size))
                continue
            }
            let rendition = place(still.keyed.rendition(contentHash: contentHash, size: still.size, madeWith: together))
            let isPresent = inOutput || output.contains(rendition)
            if isPresent { plan.reused += 1 }
            plan.jobs.append(RenditionJob(spec: still.keyed.spec, size: still.size, isWanted: !isPresent))
            plan.jobRenditions.append(plan.renditions.count)
            plan.renditions.append(rendition)
        }
        if let motion = metadata.motion {
            let size = motion.displaySize.fittingVideo(in: videoSpec.spec.box)
            let rendition = place(videoSpec.rendition(contentHash: clipHash ?? contentHash, size: size))
            plan.renditions.append(rendition)
            if inOutput || output.contains(rendition) { plan.reused += 1 } else { plan.videoPath = rendition.path }
        }
        if let original = originalSpec, metadata.kind != .video, !convertsOriginal {
            let rendition = place(original.original(contentHash: contentHash, storedSize: metadata.storedSize, size: metadata.displaySize,
                                                    originalExtension: metadata.format.fileExtension))
            plan.renditions.append(rendition)
            if inOutput || output.contains(rendition) { plan.reused += 1 } else { plan.originalPath = rendition.path }
        }
        return plan
    }

    /// Decodes `bytes` once (a photo, or a video's poster frame) and writes
    /// every still rendition the plan still needs; each of `taps` is lent
    /// one rendition's pixels (and the photo is decoded for them alone when
    /// nothing else is missing).
    func makeStills(_ plan: RenditionPlan, from bytes: UnsafeRawBufferPointer, format: SourceFormat, storedSize: PixelSize,
                    orientation: Orientation, taps: [PictureTap] = []) throws {
        guard plan.missingStills > 0 || !taps.isEmpty else { return }
        let encoded = try RenditionMaker.make(bytes, format: format, storedSize: storedSize, orientation: orientation,
                                              jobs: plan.jobs, maximumPixels: settings.maximumPixels, taps: taps)
        for (job, (index, encodedBytes)) in zip(plan.jobs, zip(plan.jobRenditions, encoded)) where job.isWanted {
            try encodedBytes.withUnsafeBytes { raw in try output.write(raw, to: plan.renditions[index].path) }
        }
    }
}
