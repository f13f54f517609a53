import Foundation

/// Where the face tests find the labelled face photos (`scripts/face-photos.sh`)
/// and the face models (`scripts/face-models.sh`): a checkout's .build, or
/// GALLERYGEN_FACE_PHOTOS / GALLERYGEN_FACE_MODELS. Missing, a test that
/// needs them is skipped, except under GALLERYGEN_REQUIRE_FACES=1 (CI),
/// where it fails.
public enum FaceFixtures {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var photos: URL {
        ProcessInfo.processInfo.environment["GALLERYGEN_FACE_PHOTOS"].map { URL(fileURLWithPath: $0) }
            ?? checkout.appendingPathComponent(".build/face-photos")
    }

    public static var models: URL {
        ProcessInfo.processInfo.environment["GALLERYGEN_FACE_MODELS"].map { URL(fileURLWithPath: $0) }
            ?? checkout.appendingPathComponent(".build/face-models")
    }

    /// Whether a missing photo or model fails the test (CI) rather than skipping it.
    public static var required: Bool { ProcessInfo.processInfo.environment["GALLERYGEN_REQUIRE_FACES"] == "1" }

    /// Both are in place.
    public static var available: Bool {
        FileManager.default.fileExists(atPath: photos.appendingPathComponent("labels.json").path)
            && FileManager.default.fileExists(atPath: models.appendingPathComponent("dlib_face_recognition_resnet_model_v1.dat").path)
    }

    /// Why a face test cannot run here.
    public static let missing = "the face photos or models are missing: run scripts/face-models.sh and scripts/face-photos.sh"
}
