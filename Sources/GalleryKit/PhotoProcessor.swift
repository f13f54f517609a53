import BuildCache
import Foundation
import GalleryCore
import Imaging
import Metadata
import Scanning

/// What became of one source file.
enum PhotoOutcome: Sendable {
    /// Published, with the number of renditions encoded now and reused, the
    /// cache entry for the next build, and a note for the user (e.g. an
    /// animation published as a still).
    case published(MediaItem, made: Int, reused: Int, cache: CachedPhoto, note: String?)
    /// Left out, with the reason.
    case skipped(SourceFile, reason: String)
}

/// Turns one source file into a published photo. An unchanged file (same size
/// and modification time as in the cache) whose renditions are all in OUT is
/// not even opened. Otherwise: one read, a content hash, metadata from the
/// headers, and, only for renditions not already in OUT, one decode feeding
/// every missing size.
struct PhotoProcessor: Sendable {
    let settings: BuildSettings
    let specs: [RenditionSpec]
    let cache: [String: CachedPhoto]
    let output: OutputFolder

    init(settings: BuildSettings, cache: [String: CachedPhoto], output: OutputFolder) {
        self.settings = settings
        self.specs = settings.renditionSpecs
        self.cache = cache
        self.output = output
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
        guard let cached = cache[BuildState.key(for: file.relativePath)], cached.size == file.byteCount,
              cached.modified == file.modifiedNanoseconds else { return .unknown }
        let plan = plan(contentHash: cached.contentHash, metadata: cached.metadata)
        guard plan.jobs.isEmpty, plan.originalPath == nil else { return .incomplete(cached, plan) }
        let photo = MediaItem(source: file, contentHash: cached.contentHash, metadata: cached.metadata, renditions: plan.renditions)
        return .unchanged(.published(photo, made: 0, reused: plan.reused, cache: cached, note: plan.note))
    }

    /// Reads the file and makes what is missing. `known` (from `triage`)
    /// spares hashing the file, reading its metadata and planning again.
    func process(_ file: SourceFile, known: (CachedPhoto, Plan)? = nil) -> PhotoOutcome {
        let data: [UInt8]
        do {
            data = try SourceFileReader.read(file)
        } catch {
            return .skipped(file, reason: "cannot be read (\(ErrorText.describe(error)))")
        }
        return data.withUnsafeBytes { bytes in
            do {
                return try process(file, bytes: bytes, known: known)
            } catch let error as MetadataError {
                return .skipped(file, reason: error.description)
            } catch let error as ImagingError {
                return .skipped(file, reason: error.description)
            } catch {
                return .skipped(file, reason: String(describing: error))
            }
        }
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
    }

    /// JPEG quality of the full-size download made for formats that cannot be
    /// published as they are: high enough to print from.
    static let convertedOriginalQuality = 92

    func plan(contentHash: String, metadata: PhotoMetadata) -> Plan {
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
        var pathsBySize: [String: String] = [:]
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
            let sizeKey = "\(spec.format.rawValue)-\(spec.quality)-\(size)-\(spec.animated)"
            if let existing = pathsBySize[sizeKey] {
                plan.renditions.append(Rendition(spec: spec, size: size, path: existing))
                continue
            }
            let path = spec.relativePath(contentHash: contentHash, size: size)
            pathsBySize[sizeKey] = path
            add(spec, size: size, path: path)
        }
        if let spec = settings.originalSpec {
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
                let converted = RenditionSpec(role: .original, box: upright, format: .jpeg, quality: Self.convertedOriginalQuality)
                add(converted, size: upright, path: converted.relativePath(contentHash: contentHash, size: upright))
            }
        }
        return plan
    }

    private func process(_ file: SourceFile, bytes: UnsafeRawBufferPointer, known: (CachedPhoto, Plan)?) throws -> PhotoOutcome {
        let contentHash: String, metadata: PhotoMetadata, plan: Plan
        if let (cached, knownPlan) = known {
            (contentHash, metadata, plan) = (cached.contentHash, cached.metadata, knownPlan)
        } else {
            contentHash = StableHash.of(bytes)
            metadata = try MetadataReader.read(bytes, fileName: file.relativePath, modificationDate: file.modificationDate)
            plan = self.plan(contentHash: contentHash, metadata: metadata)
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
        if let path = plan.originalPath {
            // The original, byte for byte, except where it was taken.
            let copy = settings.keepLocation ? Array(bytes) : try LocationStripper.strip(Array(bytes))
            try copy.withUnsafeBytes { raw in try output.write(raw, to: path) }
        }
        let photo = MediaItem(source: file, contentHash: contentHash, metadata: metadata, renditions: plan.renditions)
        let cached = CachedPhoto(size: file.byteCount, modified: file.modifiedNanoseconds, contentHash: contentHash, metadata: metadata)
        return .published(photo, made: plan.jobs.count + (plan.originalPath == nil ? 0 : 1), reused: plan.reused, cache: cached, note: plan.note)
    }
}
