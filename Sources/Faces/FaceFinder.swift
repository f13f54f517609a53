import CFaceEngine
import Foundation
import GalleryCore

/// Finds and describes the faces in an upright picture: dlib's detector,
/// aligner and describer (`CFaceEngine`), one engine per thread at a time
/// (the network keeps buffers per call), engines copied from the one read
/// rather than read from disk again.
public final class FaceFinder: @unchecked Sendable {
    /// The detector's threshold: HOG's own default (0) lets through blurred
    /// and turned faces whose descriptors group badly; they are still kept,
    /// with their score, and left ungrouped below `FaceGrouping.minimumScore`.
    public static let minimumScore = 0.0
    /// The most faces described in one photo (a crowd's 80th face is nobody's).
    public static let maximumFaces = 64
    /// The longest side a picture is searched at (a larger one is searched
    /// shrunk to it, its faces described from the whole): HOG finds faces
    /// from about 80 px, a fortieth of it, and its memory grows with the
    /// pixels (a 48-MP preview would take hundreds of megabytes).
    public static let largestSearchedSide = 3_200

    /// Whether faces are described one photo at a time: the BLAS this
    /// process runs is single-threaded OpenBLAS, which gives two threads
    /// calling it at once wrong products (`CFaceEngine`'s `BlasUse`).
    public static var describesOneAtATime: Bool { gg_face_engine_describes_one_at_a_time() != 0 }

    /// What begins the engine's cache: a cache of other models is not read.
    public static let cacheHeader = "gallerygen face engine\n\(FaceModels.identity)\n"

    private let lock = NSLock()
    private var idle: [OpaquePointer] = []
    /// The engine as read: only copied (under `lock`), never lent. A network
    /// keeps its layers' outputs, so a copy made while it ran read buffers
    /// being resized (AddressSanitizer: a copy from a null buffer).
    private let template: OpaquePointer
    public let models: FaceModels
    /// The engine came from `cache`, not from the model files.
    public let readFromCache: Bool

    /// Reads the engine from `cache` (a file `cacheBytes` gave, 0.03 s) when
    /// it is one of these models, whole; else from the model files and
    /// dlib's built-in detector (0.3 s).
    public init(models: FaceModels, cache: URL? = nil) throws(FaceModelError) {
        var message = [CChar](repeating: 0, count: 512)
        var fromCache: Int32 = 0
        guard let engine = gg_face_engine_open(models.shapePredictor.path, models.recognition.path, cache?.path, Self.cacheHeader,
                                               &fromCache, &message, message.count) else {
            throw .unreadable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        template = engine
        self.models = models
        readFromCache = fromCache != 0
    }

    /// The engine as its cache holds it (about 30 MB), for the next `init`;
    /// nil when it cannot be made. The first call takes 0.3 s.
    public func cacheBytes() -> [UInt8]? {
        guard let engine = borrow() else { return nil }
        defer { giveBack(engine) }
        let size = gg_face_engine_cache(engine, Self.cacheHeader, nil, 0)
        guard size > 0 else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = gg_face_engine_cache(engine, Self.cacheHeader, buffer.baseAddress, size) == size ? size : 0
        }
        return bytes.isEmpty ? nil : bytes
    }

    deinit {
        for engine in idle { gg_face_engine_close(engine) }
        gg_face_engine_close(template)
    }

    private func borrow() -> OpaquePointer? {
        lock.withLock {
            if let engine = idle.popLast() { return engine }
            return gg_face_engine_copy(template)
        }
    }

    private func giveBack(_ engine: OpaquePointer) { lock.withLock { idle.append(engine) } }

    /// The faces in `rgb` (8-bit RGB, rows of `width` × 3 bytes, upright),
    /// most confident first, boxes normalised to the picture and clipped to it.
    public func find(rgb: UnsafeBufferPointer<UInt8>, width: Int, height: Int) throws(FaceFindingError) -> [FoundFace] {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { throw .failed("a \(width)x\(height) picture of \(rgb.count) bytes") }
        guard let engine = borrow() else { throw .failed("out of memory") }
        defer { giveBack(engine) }
        var raw = [gg_face](repeating: gg_face(), count: Self.maximumFaces)
        var message = [CChar](repeating: 0, count: 512)
        let count = gg_face_engine_find(engine, rgb.baseAddress, Int32(width), Int32(height), Int32(width * 3),
                                        Int32(Self.largestSearchedSide), Self.minimumScore,
                                        &raw, Int32(raw.count), &message, message.count)
        guard count >= 0 else {
            throw .failed(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let w = Double(width), h = Double(height)
        return raw.prefix(Int(min(count, Int32(raw.count)))).compactMap { face in
            let box = NormalizedRect(x: Double(face.left) / w, y: Double(face.top) / h,
                                     width: Double(face.right - face.left) / w, height: Double(face.bottom - face.top) / h).clipped
            guard box.width > 0, box.height > 0 else { return nil }
            let values = withUnsafeBytes(of: face.descriptor) { Array($0.bindMemory(to: Float.self)) }
            return FoundFace(box: box, score: face.score, pixels: Int(min(face.right - face.left, face.bottom - face.top)),
                             descriptor: FaceDescriptor(values))
        }
    }
}

/// Why one photo's faces could not be found (the photo is still published).
public enum FaceFindingError: Error, Equatable, CustomStringConvertible {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let reason): return "faces not found: \(reason)"
        }
    }
}
