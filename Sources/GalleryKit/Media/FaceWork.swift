import Faces
import Foundation
import GalleryCore
import Imaging
import SiteOutput

/// The media step's share of `faces: auto`: which photos still need their
/// faces found, and finding them in a rendition's pixels as the photo is
/// made (no decode of its own, unless every rendition is in OUT already).
/// The models are read when the first photo needs them: a build with nothing
/// new reads none. The pictures of a rebuild that adds a few photos wait
/// (`waitingBudget`) and are searched by the faces step, once the media step
/// has let go of what it held: the models and the search (some 40 MB) are
/// then not on top of the media step's peak.
final class FaceWork: @unchecked Sendable {
    let models: FaceModels
    /// The state's "faces found" marks hold: the table is of this model. When
    /// it is not (missing, another model), every photo is looked at again.
    let trustsMarks: Bool
    private let lock = NSLock()
    private var finder: Result<FaceFinder, FaceModelError>?
    private var found: [String: [FoundFace]] = [:]
    private var failures: [String] = []
    private var waiting: [(picture: RGBPicture, contentHash: String, path: String)] = []
    private var waitingBytes = 0
    /// The pixels that may wait for the faces step: four 1600×1200 previews.
    /// Past it (a cold build) faces are found as the photos are made.
    static let waitingBudget = 24 << 20
    /// The faces table as the build began, read when first needed (a photo
    /// not marked, or the faces step with something to do): a rebuild with
    /// nothing new never reads it.
    private var loaded: FaceLibrary?
    private let load: @Sendable () -> FaceLibrary?

    /// The table is the last build's and the finished parts' of a sharded build.
    let mergesParts: Bool
    /// The engine's cache in the state folder (`engineFile`), when there is one to read.
    private let engineCache: URL?
    /// Whether this build keeps the engine's cache (not a part of a sharded one).
    private let keepsEngine: Bool
    /// The engine's cache to write, when the models were read from their
    /// files: its bytes, or nil when it could not be made.
    private(set) var engineToKeep: [UInt8]?

    /// The file of the state folder that keeps the models as the machine
    /// holds them: dlib reads its files in 0.3 s (every float decoded on
    /// its own, its detector unpacked), this file in 0.03 s.
    static let engineFile = "face-engine.bin"
    /// What an earlier version kept instead (the detector alone), removed.
    static let formerDetectorFile = "face-detector.bin"

    /// `model`: what the table's header names (nil: no table); `load` reads
    /// the whole of it, with the parts' faces when `mergesParts`.
    /// `engineCache`: where the engine's cache is (read if there), and
    /// `keepsEngine`: whether to make it anew when it was not read.
    init(models: FaceModels, model: String?, mergesParts: Bool = false, engineCache: URL? = nil, keepsEngine: Bool = false,
         load: @escaping @Sendable () -> FaceLibrary?) {
        self.models = models
        trustsMarks = model == FaceModels.identity
        self.mergesParts = mergesParts
        self.load = load
        self.engineCache = engineCache
        self.keepsEngine = keepsEngine
    }

    /// The faces table as the build began (empty when there was none, or of another model).
    var library: FaceLibrary {
        lock.withLock {
            if let loaded { return loaded }
            let table = trustsMarks ? load().flatMap { $0.model == FaceModels.identity ? $0 : nil } ?? FaceLibrary() : FaceLibrary()
            loaded = table
            return table
        }
    }

    /// The models are let go (tens of megabytes, the network's buffers
    /// included) once the media step is done: the pages need none of it.
    /// Read from their files, they are first kept in the engine's cache.
    func finishFinding() {
        lock.withLock {
            guard case .success(let made) = finder else { return }
            if keepsEngine, !made.readFromCache, engineToKeep == nil { engineToKeep = made.cacheBytes() }
            finder = nil
        }
    }

    /// Photos and Live Photos' stills; not animations (their frames are
    /// not a portrait) or videos.
    static func looksAt(_ kind: MediaKind) -> Bool { kind == .still || kind == .motionStill }

    /// Whether an unchanged file must be opened for its faces.
    func needs(_ cached: CachedPhoto) -> Bool {
        guard Self.looksAt(cached.metadata.kind) else { return false }
        if trustsMarks && cached.facesFound { return false }
        return !knows(cached.contentHash)
    }

    /// The faces of `contentHash` are in the table or were found this build
    /// (both name photos by their hashes' text).
    func knows(_ contentHash: ContentHash) -> Bool {
        let hash = contentHash.description
        return lock.withLock { found[hash] != nil } || library.faces(of: hash) != nil
    }

    /// Finds the faces in `picture` (a rendition of the photo, upright), or
    /// keeps it for `findWaiting` while the models are not read and it fits.
    func find(in picture: RGBPicture, contentHash hash: ContentHash, path: String) {
        let contentHash = hash.description
        let waits = lock.withLock { () -> Bool in
            guard finder == nil, waitingBytes + picture.bytes.count <= Self.waitingBudget else { return false }
            waiting.append((picture, contentHash, path))
            waitingBytes += picture.bytes.count
            return true
        }
        if waits { return }
        for earlier in takeWaiting() { search(earlier.picture, contentHash: earlier.contentHash, path: earlier.path) }
        search(picture, contentHash: contentHash, path: path)
    }

    /// The faces step: the pictures that waited, searched on every core,
    /// and the models let go.
    func findWaiting() {
        let pictures = takeWaiting()
        guard !pictures.isEmpty else { return }
        DispatchQueue.concurrentPerform(iterations: pictures.count) { index in
            search(pictures[index].picture, contentHash: pictures[index].contentHash, path: pictures[index].path)
        }
        finishFinding()
    }

    private func takeWaiting() -> [(picture: RGBPicture, contentHash: String, path: String)] {
        lock.withLock {
            defer {
                waiting = []
                waitingBytes = 0
            }
            return waiting
        }
    }

    private func search(_ picture: RGBPicture, contentHash: String, path: String) {
        let finder: FaceFinder
        switch lock.withLock({ () -> Result<FaceFinder, FaceModelError> in
            if let made = self.finder { return made }
            let made = Result { () throws(FaceModelError) in try FaceFinder(models: models, cache: engineCache) }
            self.finder = made
            return made
        }) {
        case .success(let made): finder = made
        case .failure: return  // told once, by `problems`
        }
        do {
            let faces = try picture.bytes.withUnsafeBufferPointer { (rgb) throws(FaceFindingError) in
                try finder.find(rgb: rgb, width: picture.width, height: picture.height)
            }
            lock.withLock { found[contentHash] = faces }
        } catch {
            // Said once, and kept as looked at: a photo dlib refuses is not decoded again by every rebuild.
            lock.withLock {
                failures.append("\(DisplayText.oneLine(path)): \(error)")
                found[contentHash] = []
            }
        }
    }

    /// The faces found this build, by content hash.
    var foundThisBuild: [String: [FoundFace]] { lock.withLock { found } }

    /// What went wrong, for the build's warnings.
    var problems: [String] {
        lock.withLock {
            var lines = failures
            if case .failure(let error)? = finder { lines.insert(error.description, at: 0) }
            return lines
        }
    }
}

extension RenditionPlanner {
    /// The still rendition faces are found in: the smallest of at least a
    /// megapixel (the 1600×1200 preview by default: HOG finds faces from
    /// about 80 px, a twentieth of its width), else the largest.
    static func faceJob(_ plan: RenditionPlan) -> Int? {
        // Not the full-size JPEG made of a HEIC, TIFF or RAW: a hundred megapixels, when a preview will do.
        let shown = plan.jobs.indices.filter { !plan.jobs[$0].spec.animated && plan.jobs[$0].spec.role != .original }
        let stills = shown.isEmpty ? plan.jobs.indices.filter { !plan.jobs[$0].spec.animated } : shown
        let large = stills.filter { plan.jobs[$0].size.area >= 1_000_000 }
        if let smallest = large.min(by: { plan.jobs[$0].size.area < plan.jobs[$1].size.area }) { return smallest }
        return stills.max { plan.jobs[$0].size.area < plan.jobs[$1].size.area }
    }
}
