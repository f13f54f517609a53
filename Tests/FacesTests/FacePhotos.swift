import Faces
import Foundation
import GalleryCore
import Imaging
import XCTest

/// The labelled face photos (`scripts/face-photos.sh`, in .build/face-photos)
/// and the face models (`scripts/face-models.sh`, in .build/face-models).
/// Missing, the tests that need them are skipped, except where
/// GALLERYGEN_REQUIRE_FACES=1 (CI), where they fail.
enum FacePhotos {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var folder: URL {
        ProcessInfo.processInfo.environment["GALLERYGEN_FACE_PHOTOS"].map { URL(fileURLWithPath: $0) }
            ?? checkout.appendingPathComponent(".build/face-photos")
    }
    static var modelsFolder: URL {
        ProcessInfo.processInfo.environment["GALLERYGEN_FACE_MODELS"].map { URL(fileURLWithPath: $0) }
            ?? checkout.appendingPathComponent(".build/face-models")
    }

    static func unavailable(_ what: String) throws -> Never {
        if ProcessInfo.processInfo.environment["GALLERYGEN_REQUIRE_FACES"] == "1" {
            XCTFail("\(what) missing (GALLERYGEN_REQUIRE_FACES=1)")
            throw XCTSkip("failed above")
        }
        throw XCTSkip("\(what) missing: run scripts/face-models.sh and scripts/face-photos.sh")
    }

    static func models() throws -> FaceModels {
        do { return try FaceModels.locate(configured: modelsFolder) } catch { try unavailable("face models") }
    }

    static let sharedFinder = Result { () throws -> FaceFinder in try FaceFinder(models: try FaceModels.locate(configured: modelsFolder)) }

    static func finder() throws -> FaceFinder {
        _ = try models()
        return try sharedFinder.get()
    }

    /// The photo `name` of the set, decoded (it is upright).
    static func picture(_ name: String, folder: URL = folder) throws -> RGBPicture {
        let url = folder.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { try unavailable("face photo \(name)") }
        let bytes = [UInt8](data)
        let format: SourceFormat = name.hasSuffix(".png") ? .png : .jpeg
        let decoded = try bytes.withUnsafeBytes { raw in
            try RenditionMaker.decode(raw, format: format, scaleDenominator: 1, maximumPixels: 100_000_000)
        }
        return RGBPicture(decoded.image)
    }

    static func find(_ name: String) throws -> [FoundFace] {
        let picture = try picture(name)
        return try picture.bytes.withUnsafeBufferPointer { try finder().find(rgb: $0, width: picture.width, height: picture.height) }
    }
}
