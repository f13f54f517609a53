import SiteOutput
import GalleryCore
import Imaging

/// The renditions of one item and the ones still missing from OUT.
struct RenditionPlan: Sendable {
    var renditions: [Rendition] = []
    /// The still renditions to encode now, and where each goes.
    var jobs: [RenditionJob] = []
    var jobPaths: [String] = []
    var reused = 0
    var note: String?
    /// The original to publish, when missing from OUT.
    var originalPath: String?
    /// The playback file to make, when missing from OUT.
    var videoPath: String?

    /// Nothing to make: every file is in OUT.
    var isComplete: Bool { jobs.isEmpty && originalPath == nil && videoPath == nil }
}

/// Decides what every item publishes (the one place that knows renditions'
/// sizes and names), and writes the stills made for a plan. Stills, videos
/// and motion all go through it.
struct RenditionPlanner: Sendable {
    let settings: BuildSettings
    let specs: [RenditionSpec]
    let output: OutputFolder

    init(settings: BuildSettings, output: OutputFolder) {
        self.settings = settings
        self.specs = settings.renditionSpecs
        self.output = output
    }

    /// JPEG quality of the full-size download made for formats that cannot be
    /// published as they are: high enough to print from.
    static let convertedOriginalQuality = 92

    /// What an item publishes; `clipHash` names a Live Photo's playback file
    /// (its clip's content hash; a video's and a Motion Photo's is the file's own).
    func plan(contentHash: String, metadata: PhotoMetadata, clipHash: String? = nil) -> RenditionPlan {
        let upright = metadata.displaySize
        var plan = RenditionPlan()
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

    /// Decodes `bytes` once (a photo, or a video's poster frame) and writes
    /// every still rendition the plan still needs.
    func makeStills(_ plan: RenditionPlan, from bytes: UnsafeRawBufferPointer, format: SourceFormat, storedSize: PixelSize,
                    orientation: Orientation) throws {
        guard !plan.jobs.isEmpty else { return }
        let encoded = try RenditionMaker.make(bytes, format: format, storedSize: storedSize, orientation: orientation,
                                              jobs: plan.jobs, maximumPixels: settings.maximumPixels)
        for (path, encodedBytes) in zip(plan.jobPaths, encoded) {
            try encodedBytes.withUnsafeBytes { raw in try output.write(raw, to: path) }
        }
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
