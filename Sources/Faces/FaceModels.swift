import Foundation

/// The two model files the describer needs (dlib's HOG detector is built
/// into the library): where they are looked for, and what a missing one
/// tells the user. They come from PyPI's `face-recognition-models` 0.3.0
/// (CC0), pinned by SHA-256 and put in place by `scripts/face-models.sh`;
/// nothing is ever downloaded while building.
public struct FaceModels: Sendable, Equatable {
    /// The 5-point shape predictor that aligns a face before it is described.
    public static let shapePredictorName = "shape_predictor_5_face_landmarks.dat"
    /// The ResNet that turns an aligned face into 128 values.
    public static let recognitionName = "dlib_face_recognition_resnet_model_v1.dat"
    /// Their sizes in bytes: a truncated copy is refused before dlib reads it.
    static let expectedSizes = [shapePredictorName: 9_150_489, recognitionName: 22_466_066]

    /// The folder that holds both.
    public let folder: URL

    /// The folders looked in when `face_models` is not set, in order:
    /// beside the installed program (`…/share/gallerygen/face-models`, as the
    /// .deb and `install.sh` put them), the system's, and a checkout's `.build/face-models`.
    public static func standardFolders(program: URL? = Bundle.main.executableURL) -> [URL] {
        var folders: [URL] = []
        if let env = ProcessInfo.processInfo.environment["GALLERYGEN_FACE_MODELS"], !env.isEmpty {
            folders.append(URL(fileURLWithPath: env))
        }
        if let program {
            let bin = program.resolvingSymlinksInPath().deletingLastPathComponent()
            folders.append(bin.deletingLastPathComponent().appendingPathComponent("share/gallerygen/face-models"))
            // A checkout's build: .build/<triple>/<configuration>/gallerygen.
            var up = bin
            for _ in 0..<3 {
                if up.lastPathComponent == ".build" || up.lastPathComponent.hasPrefix(".build-") {
                    folders.append(up.appendingPathComponent("face-models"))
                    break
                }
                up.deleteLastPathComponent()
            }
        }
        folders.append(URL(fileURLWithPath: "/usr/share/gallerygen/face-models"))
        folders.append(URL(fileURLWithPath: "/usr/local/share/gallerygen/face-models"))
        return folders
    }

    /// The models in `configured` (the `face_models` setting), or in the
    /// first standard folder that has both.
    public static func locate(configured: URL?, program: URL? = Bundle.main.executableURL) throws(FaceModelError) -> FaceModels {
        let candidates = configured.map { [$0] } ?? standardFolders(program: program)
        var problems: [String] = []
        for folder in candidates {
            switch check(folder) {
            case nil: return FaceModels(folder: folder)
            case let problem?: problems.append(problem)
            }
        }
        throw .missing(looked: problems)
    }

    /// Why `folder` cannot serve (nil when it can).
    static func check(_ folder: URL) -> String? {
        for (name, size) in expectedSizes.sorted(by: { $0.key < $1.key }) {
            let path = folder.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let actual = (attributes[.size] as? NSNumber)?.intValue else {
                return "\(folder.path): no \(name)"
            }
            if actual != size { return "\(path): \(actual) bytes, not \(size) (a damaged copy?)" }
        }
        return nil
    }

    var shapePredictor: URL { folder.appendingPathComponent(Self.shapePredictorName) }
    var recognition: URL { folder.appendingPathComponent(Self.recognitionName) }

    /// What names the faces' descriptors: descriptors of another model (or
    /// found another way) are not comparable, so a change regroups from scratch.
    public static let identity = "dlib-19.24 hog+sp5+resnet-v1 150/0.25 v1"
}

/// Why faces cannot be found on this machine.
public enum FaceModelError: Error, Equatable, CustomStringConvertible {
    /// Neither `face_models` nor any standard folder holds the models.
    case missing(looked: [String])
    /// dlib refused a model file.
    case unreadable(String)

    /// The install line a missing model's message names.
    public static let installLine = "scripts/face-models.sh (from a checkout; the .deb and install.sh include them)"

    public var description: String {
        switch self {
        case .missing(let looked):
            return "faces: auto needs the face models, which are not installed: run \(Self.installLine), "
                + "or set face_models: to the folder that holds them. Looked in: " + looked.joined(separator: "; ")
        case .unreadable(let reason):
            return "the face models could not be read: \(reason)"
        }
    }
}
