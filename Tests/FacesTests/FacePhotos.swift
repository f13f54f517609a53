import Faces
import Foundation
import GalleryCore
import Imaging
import Metadata
import GalleryTestSupport
import XCTest

/// The labelled face photos and the face models (`FaceFixtures`), read and decoded.
enum FacePhotos {
    static var folder: URL { FaceFixtures.photos }
    static var modelsFolder: URL { FaceFixtures.models }

    static func unavailable(_ what: String) throws -> Never {
        if FaceFixtures.required {
            XCTFail("\(what) missing (GALLERYGEN_REQUIRE_FACES=1)")
            throw XCTSkip("failed above")
        }
        throw XCTSkip("\(what): \(FaceFixtures.missing)")
    }

    static func models() throws -> FaceModels {
        do { return try FaceModels.locate(configured: modelsFolder) } catch { try unavailable("face models") }
    }

    static let sharedFinder = Result { () throws -> FaceFinder in try FaceFinder(models: try FaceModels.locate(configured: modelsFolder)) }

    static func finder() throws -> FaceFinder {
        _ = try models()
        return try sharedFinder.get()
    }

    /// The photo `name` of the set, decoded; `upright`: turned by its EXIF orientation.
    static func picture(_ name: String, folder: URL = folder, upright: Bool = false) throws -> RGBPicture {
        let url = folder.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { try unavailable("face photo \(name)") }
        let bytes = [UInt8](data)
        let format: SourceFormat = name.hasSuffix(".png") ? .png : .jpeg
        let decoded = try bytes.withUnsafeBytes { raw in
            try RenditionMaker.decode(raw, format: format, scaleDenominator: 1, maximumPixels: 100_000_000)
        }
        guard upright else { return RGBPicture(decoded.image) }
        let orientation = try bytes.withUnsafeBytes { try MetadataReader.read($0, fileName: name, modificationDate: Date()).orientation }
        return RGBPicture(OrientationTransform.apply(orientation, to: decoded.image))
    }

    static func find(_ name: String) throws -> [FoundFace] {
        let picture = try picture(name)
        return try picture.bytes.withUnsafeBufferPointer { try finder().find(rgb: $0, width: picture.width, height: picture.height) }
    }
}
