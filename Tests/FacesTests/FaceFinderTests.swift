import Foundation
import GalleryCore
import XCTest
@testable import Faces

/// The detector and describer on the labelled set of real photos
/// (scripts/face-photos.sh): every labelled face is found where it is, and
/// the faces of one person group together and apart from the others.
final class FaceFinderTests: XCTestCase {
    struct Labelled: Decodable {
        struct Face: Decodable {
            var name: String
            var box: [Double]
            var rect: NormalizedRect { NormalizedRect(x: box[0], y: box[1], width: box[2], height: box[3]) }
        }
        var photos: [String: [Face]]
    }

    static func labels() throws -> Labelled {
        let url = FacePhotos.folder.appendingPathComponent("labels.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { try FacePhotos.unavailable("labels.json") }
        return try JSONDecoder().decode(Labelled.self, from: data)
    }

    /// The labelled photos' faces, found once for every test of this class.
    nonisolated(unsafe) static var found: [String: [FoundFace]]?

    func foundFaces() throws -> [String: [FoundFace]] {
        if let found = Self.found { return found }
        var result: [String: [FoundFace]] = [:]
        for name in try Self.labels().photos.keys {
            // The photos as a build sees them: upright (one is stored on its side).
            let picture = try FacePhotos.picture(name, upright: true)
            result[name] = try picture.bytes.withUnsafeBufferPointer {
                try FacePhotos.finder().find(rgb: $0, width: picture.width, height: picture.height)
            }
        }
        Self.found = result
        return result
    }

    func testEveryLabelledFaceIsFoundWhereItIs() throws {
        let labels = try Self.labels()
        let found = try foundFaces()
        XCTAssertEqual(labels.photos.count, 28)
        for (name, faces) in labels.photos {
            for face in faces {
                let match = found[name]!.first { FaceNaming.sameFace($0.box, face.rect) > 0 }
                XCTAssertNotNil(match, "\(name): \(face.name)'s face at \(face.box) was not found; found \(found[name]!.map(\.box))")
                if let match {
                    // Where HOG puts it, within its pyramid's step: a fifth of the face's size.
                    XCTAssertEqual(match.box.x + match.box.width / 2, face.rect.x + face.rect.width / 2, accuracy: face.rect.width / 5, name)
                    XCTAssertEqual(match.box.y + match.box.height / 2, face.rect.y + face.rect.height / 2, accuracy: face.rect.height / 5, name)
                    XCTAssertEqual(match.box.width, face.rect.width, accuracy: face.rect.width / 4, name)
                    XCTAssertTrue(FaceGrouping.isGroupable(match), "\(name): \(face.name)'s face scored \(match.score) at \(match.pixels) px")
                }
            }
        }
    }

    func testThePeopleOfTheSetGroupApartWithoutAWrongMerge() throws {
        let labels = try Self.labels()
        var library = FaceLibrary()
        var person: [FaceID: String] = [:]
        for (name, faces) in try foundFaces() {
            library.photos[name] = faces.map { FaceLibrary.Entry(face: $0) }
            for (index, face) in faces.enumerated() {
                if let label = labels.photos[name]!.first(where: { FaceNaming.sameFace(face.box, $0.rect) > 0 }) {
                    person[FaceID(photo: name, index: index)] = label.name
                }
            }
        }
        FaceGrouping.group(&library)
        let quality = PairwiseQuality(library: library, person: person)
        XCTAssertEqual(quality.precision, 1, "a stranger grouped with someone: \(quality)")
        XCTAssertGreaterThanOrEqual(quality.recall, 0.9, "\(quality)")
        // Three people: three groups hold every labelled face.
        let groups = Set(person.keys.compactMap { library[$0]?.group })
        XCTAssertEqual(groups.count, 3, "\(quality)")
    }

    /// A picture past `largestSearchedSide` is searched shrunk, its face
    /// found where it is and described from the whole.
    func testALargePictureIsSearchedShrunk() throws {
        let labels = try Self.labels()
        let small = try FacePhotos.picture("obama.jpg")
        let factor = 4   // 910×1137 → 3640×4548, past 3,200
        let width = small.width * factor, height = small.height * factor
        var large = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let from = ((y / factor) * small.width + x / factor) * 3, to = (y * width + x) * 3
                large[to] = small.bytes[from]
                large[to + 1] = small.bytes[from + 1]
                large[to + 2] = small.bytes[from + 2]
            }
        }
        let finder = try FacePhotos.finder()
        let found = try large.withUnsafeBufferPointer { try finder.find(rgb: $0, width: width, height: height) }
        let label = try XCTUnwrap(labels.photos["obama.jpg"]?.first).rect
        XCTAssertEqual(found.count, 1, "\(found.map(\.box))")
        let face = try XCTUnwrap(found.first)
        XCTAssertGreaterThan(FaceNaming.sameFace(face.box, label), 0, "\(face.box) against \(label)")
        XCTAssertGreaterThan(face.pixels, 900, "measured in the whole picture")
        // The same person as in the picture at its own size.
        let direct = try small.bytes.withUnsafeBufferPointer { try finder.find(rgb: $0, width: small.width, height: small.height) }
        let distance = zip(face.descriptor.values, try XCTUnwrap(direct.first).descriptor.values)
            .reduce(Float(0)) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        XCTAssertLessThan(distance, FaceGrouping.joinDistance / 2)
    }

    func testTheEngineReadFromItsCacheFindsTheSameFacesToTheLastBit() throws {
        let models = try FacePhotos.models()
        let fromFiles = try FacePhotos.finder()
        XCTAssertFalse(fromFiles.readFromCache)
        let bytes = try XCTUnwrap(fromFiles.cacheBytes())
        let header = Array(FaceFinder.cacheHeader.utf8)
        XCTAssertTrue(bytes.starts(with: header))
        XCTAssertGreaterThan(bytes.count, 25_000_000, "the network's weights are in it")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-cache-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("face-engine.bin")
        try Data(bytes).write(to: cache)
        let cached = try FaceFinder(models: models, cache: cache)
        XCTAssertTrue(cached.readFromCache)
        XCTAssertTrue(cached.cacheBytes() == bytes, "the same detector, aligner and network")
        // The photos with the most faces, found alike to the last bit of every descriptor.
        let expected = try foundFaces()
        let crowded = expected.keys.sorted { (expected[$0]!.count, $1) > (expected[$1]!.count, $0) }.prefix(3)
        XCTAssertGreaterThanOrEqual(expected[crowded.first!]!.count, 2)
        for name in crowded {
            let picture = try FacePhotos.picture(name, upright: true)
            let found = try picture.bytes.withUnsafeBufferPointer { try cached.find(rgb: $0, width: picture.width, height: picture.height) }
            XCTAssertEqual(found, expected[name], name)
        }
        // Cut short, one byte of the weights changed, another model's, not there:
        // the models are read from their files, and find the same.
        var changed = bytes
        changed[bytes.count - 1_000_000] ^= 0x10
        let otherModel = Array("gallerygen face engine\nanother model\n".utf8) + bytes.dropFirst(header.count)
        for (what, damaged) in [("cut short", Array(bytes.prefix(bytes.count / 2))), ("changed", changed), ("another model", otherModel),
                                ("header only", header), ("nothing", [])] {
            try Data(damaged).write(to: cache)
            let finder = try FaceFinder(models: models, cache: cache)
            XCTAssertFalse(finder.readFromCache, what)
            let picture = try FacePhotos.picture(crowded.first!, upright: true)
            let found = try picture.bytes.withUnsafeBufferPointer { try finder.find(rgb: $0, width: picture.width, height: picture.height) }
            XCTAssertEqual(found, expected[crowded.first!], what)
        }
        try FileManager.default.removeItem(at: cache)
        XCTAssertFalse(try FaceFinder(models: models, cache: cache).readFromCache)
    }

    /// One finder on four threads at once finds what it finds one photo at
    /// a time: each thread's engine is a copy of one no thread runs (a copy
    /// of an engine while it ran read its buffers mid-change), and a BLAS
    /// that is not safe to call from two threads is called by one engine at
    /// a time (Debian's serial OpenBLAS gave wrong descriptors; scripts/test.sh
    /// runs this test again on it when it is installed).
    func testFindingOnEveryCoreAtOnceFindsTheSameFaces() throws {
        let expected = try foundFaces()
        let names = try Self.labels().photos.keys.sorted()
        let pictures = try names.map { try FacePhotos.picture($0, upright: true) }
        if let blas = ProcessInfo.processInfo.environment["GALLERYGEN_EXPECT_BLAS"] {
            XCTAssertEqual(FaceFinder.describesOneAtATime, blas == "openblas-serial", "the BLAS in use: \(blas)")
        }
        // Engines are copied while the first finds: a fresh finder each time.
        for trial in 0..<3 {
            let finder = try FaceFinder(models: try FacePhotos.finder().models)
            let runs = 2 * names.count, threads = 4
            let lock = NSLock()
            nonisolated(unsafe) var results = [[FoundFace]?](repeating: nil, count: runs)
            nonisolated(unsafe) var next = 0
            let finished = DispatchGroup()
            for _ in 0..<threads {
                finished.enter()
                Thread {
                    func take() -> Int? {
                        lock.withLock {
                            guard next < runs else { return nil }
                            defer { next += 1 }
                            return next
                        }
                    }
                    while let run = take() {
                        let picture = pictures[run % names.count]
                        let found = try? picture.bytes.withUnsafeBufferPointer { try finder.find(rgb: $0, width: picture.width, height: picture.height) }
                        lock.withLock { results[run] = found }
                    }
                    finished.leave()
                }.start()
            }
            finished.wait()
            for run in 0..<runs {
                XCTAssertEqual(results[run], expected[names[run % names.count]], "\(names[run % names.count]), trial \(trial), run \(run)")
            }
        }
    }

    func testAPictureTooSmallOrEmptyIsNoError() throws {
        let finder = try FacePhotos.finder()
        let grey = [UInt8](repeating: 128, count: 40 * 30 * 3)
        XCTAssertEqual(try grey.withUnsafeBufferPointer { try finder.find(rgb: $0, width: 40, height: 30) }, [])
        XCTAssertThrowsError(try grey.withUnsafeBufferPointer { try finder.find(rgb: $0, width: 400, height: 300) })
    }

    func testMissingModelsNameTheInstallLine() {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(UUID())")
        XCTAssertThrowsError(try FaceModels.locate(configured: empty)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("scripts/face-models.sh"), text)
            XCTAssertTrue(text.contains("face_models:"), text)
            XCTAssertTrue(text.contains(empty.path), text)
        }
    }
}

/// Pairwise precision and recall of a grouping against labels: of the pairs
/// of labelled faces put in one group, the share that are one person; of
/// the pairs that are one person, the share put in one group.
struct PairwiseQuality: CustomStringConvertible {
    var truePairs = 0, groupedPairs = 0, correctPairs = 0

    init(library: FaceLibrary, person: [FaceID: String]) {
        let faces = person.keys.sorted()
        for (i, a) in faces.enumerated() {
            for b in faces[(i + 1)...] {
                let same = person[a] == person[b]
                let together = library[a]?.group != nil && library[a]?.group == library[b]?.group
                if same { truePairs += 1 }
                if together { groupedPairs += 1 }
                if same && together { correctPairs += 1 }
            }
        }
    }

    var precision: Double { groupedPairs == 0 ? 1 : Double(correctPairs) / Double(groupedPairs) }
    var recall: Double { truePairs == 0 ? 1 : Double(correctPairs) / Double(truePairs) }
    var description: String {
        String(format: "precision %.3f (%d of %d grouped pairs), recall %.3f (%d of %d pairs)", precision, correctPairs, groupedPairs,
               recall, correctPairs, truePairs)
    }
}
