import GalleryCore
import GalleryTestSupport
import XCTest
@testable import Faces

/// Grouping, naming and the faces table on made-up descriptors: people are
/// points 1.0 apart, their photos within 0.3 of them (the model's scale).
final class FaceGroupingTests: XCTestCase {
    var random = SeededGenerator(seed: 52)

    func person() -> [Float] {
        var values = (0..<FaceDescriptor.length).map { _ in Float.random(in: -1...1, using: &random) }
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        values = values.map { $0 / norm * 0.71 }  // two people ~1.0 apart
        return values
    }

    func face(of base: [Float], noise: Float = 0.02, box: NormalizedRect = NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.2)) -> FoundFace {
        FoundFace(box: box, score: 1, pixels: 120, descriptor: FaceDescriptor(base.map { $0 + Float.random(in: -noise...noise, using: &random) }))
    }

    func testNewFacesJoinTheirPersonAndGroupsKeepTheirIdentifiers() {
        let ann = person(), bob = person()
        var library = FaceLibrary()
        library.photos["a1"] = [.init(face: face(of: ann))]
        library.photos["b1"] = [.init(face: face(of: bob))]
        library.photos["a2"] = [.init(face: face(of: ann))]
        XCTAssertEqual(FaceGrouping.group(&library), 3)
        let annGroup = library.photos["a1"]![0].group, bobGroup = library.photos["b1"]![0].group
        XCTAssertNotNil(annGroup)
        XCTAssertNotEqual(annGroup, bobGroup)
        XCTAssertEqual(library.photos["a2"]![0].group, annGroup)

        // Added: joins; removed: the others keep theirs; nothing to do: nothing changes.
        library.photos["b2"] = [.init(face: face(of: bob))]
        library.photos["a1"] = nil
        XCTAssertEqual(FaceGrouping.group(&library), 1)
        XCTAssertEqual(library.photos["b2"]![0].group, bobGroup)
        XCTAssertEqual(library.photos["a2"]![0].group, annGroup)
        let before = library
        XCTAssertEqual(FaceGrouping.group(&library), 0)
        XCTAssertEqual(library, before)

        // A stranger starts a group of their own; identifiers are never reused.
        library.photos["c1"] = [.init(face: face(of: person()))]
        FaceGrouping.group(&library)
        XCTAssertNotEqual(library.photos["c1"]![0].group, annGroup)
        XCTAssertNotEqual(library.photos["c1"]![0].group, bobGroup)
        XCTAssertGreaterThan(library.nextGroup, library.photos.values.compactMap { $0.first?.group }.max()!)
    }

    func testBlurredAndTinyFacesStayUngrouped() {
        var library = FaceLibrary()
        var blurred = face(of: person())
        blurred.score = 0.05
        var tiny = face(of: person())
        tiny.pixels = 30
        library.photos["x"] = [.init(face: blurred), .init(face: tiny)]
        XCTAssertEqual(FaceGrouping.group(&library), 0)
        XCTAssertNil(library.photos["x"]![0].group)
        XCTAssertNil(library.photos["x"]![1].group)
    }

    func testRegroupingKeepsTheIdentifiersOfMostFaces() {
        let ann = person(), bob = person()
        var library = FaceLibrary()
        for index in 0..<6 { library.photos["a\(index)"] = [.init(face: face(of: ann))] }
        for index in 0..<4 { library.photos["b\(index)"] = [.init(face: face(of: bob))] }
        FaceGrouping.group(&library)
        let ids = library.photos.mapValues { $0[0].group! }
        FaceGrouping.regroup(&library)
        XCTAssertEqual(library.photos.mapValues { $0[0].group! }, ids)
    }

    func testTheTableReadsBackAsWrittenAndRefusesDamage() {
        var library = FaceLibrary()
        library.photos["h1"] = [.init(face: face(of: person()), group: 3), .init(face: face(of: person()))]
        // Photos without faces: content hashes (32 hex digits) as numbers, anything else as written.
        let faceless = [Array("a".utf8).withUnsafeBytes { StableHash.contentHash(of: $0) }.description, "fedcba9876543210fedcba9876543210", "h2", "0123456789ABCDEF0123456789ABCDEF"]
        for hash in faceless { library.record(hash, []) }
        library.paths = ["h1": "2019/IMG_1.jpg"]
        library.names = [3: "Ann"]
        library.nextGroup = 4
        XCTAssertEqual(library.photos.count, 1)
        XCTAssertEqual(library.withoutFaces.count, 4)
        for hash in faceless { XCTAssertEqual(library.faces(of: hash), []) }
        XCTAssertNil(library.faces(of: "fedcba9876543210fedcba9876543211"))
        XCTAssertEqual(library.withoutFaces.keys.count, 2, "two as numbers")
        XCTAssertEqual(StableHash.Digest(hex: faceless[0])?.description, faceless[0], "a content hash read back as the digest that spells it")
        XCTAssertNil(StableHash.Digest(hex: faceless[3]))
        XCTAssertEqual(library.faces(of: "h1")?.count, 2)
        let bytes = library.encoded()
        XCTAssertEqual(FaceLibrary(decoding: bytes), library)
        XCTAssertEqual(FaceLibrary(decoding: bytes)?.encoded(), bytes)
        XCTAssertNil(FaceLibrary(decoding: Array(bytes.dropLast())))
        XCTAssertNil(FaceLibrary(decoding: bytes + [0]))
        XCTAssertNil(FaceLibrary(decoding: Array("gallerygen faces 1\n".utf8) + Array(bytes.dropFirst(19))))
        // Found faces move a photo out of the faceless; and back.
        var moved = library
        moved.record(faceless[0], [.init(face: face(of: person()))])
        XCTAssertEqual(moved.withoutFaces.count, 3)
        XCTAssertEqual(moved.faces(of: faceless[0])?.count, 1)
        moved.record(faceless[0], [])
        XCTAssertEqual(moved.withoutFaces, library.withoutFaces)
        XCTAssertEqual(library.withoutFaces.keeping(["h2", faceless[1], "h1", faceless[1]]).count, 2)
        // A table of the version before (faceless photos as empty lists, no
        // keys after them) is read: an upgrade does not look at every photo again.
        var older = library
        older.withoutFaces = PhotoKeySet()
        for hash in faceless { older.photos[hash] = [] }
        let olderBytes = Array("gallerygen faces 2\n".utf8) + Array(older.encoded().dropFirst(19).dropLast(16))
        XCTAssertEqual(FaceLibrary.model(inHeader: olderBytes), library.model)
        XCTAssertEqual(FaceLibrary(decoding: olderBytes), library)
        // A descriptor keeps its distances to within rounding.
        let ann = person(), bob = person()
        let a = FaceDescriptor(ann), b = FaceDescriptor(bob)
        func distance(_ x: [Float], _ y: [Float]) -> Float { zip(x, y).reduce(Float(0)) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot() }
        XCTAssertEqual(distance(a.values, b.values), distance(ann, bob), accuracy: 0.002)
    }

    // MARK: Naming

    func testPeopleYmlNamesMergesAndTakesFacesOut() throws {
        let ann = person(), bob = person()
        var library = FaceLibrary()
        let big = NormalizedRect(x: 0.1, y: 0.1, width: 0.3, height: 0.3), small = NormalizedRect(x: 0.6, y: 0.1, width: 0.1, height: 0.1)
        library.photos["p1"] = [.init(face: face(of: ann, box: small)), .init(face: face(of: bob, box: big))]
        library.photos["p2"] = [.init(face: face(of: ann))]
        library.photos["p3"] = [.init(face: face(of: ann, noise: 0.3))]   // far enough to start its own group
        library.photos["p4"] = [.init(face: face(of: bob))]
        FaceGrouping.group(&library)
        let paths = ["2019/one.jpg": "p1", "2019/two.jpg": "p2", "2019/three.jpg": "p3", "2019/four.jpg": "p4"]
        let people = PeopleList(entries: [
            // #2: the second largest face of one.jpg, Ann's; three.jpg, in another group, merges it.
            .init(name: "Ann", photos: [FaceReference(path: "2019/one.jpg", rank: 2), FaceReference(path: "2019/three.jpg")]),
            // The largest face of one.jpg; four.jpg is Bob's group too, but said not to be him.
            .init(name: "Bob", photos: [FaceReference(path: "2019/one.jpg")], not: [FaceReference(path: "2019/four.jpg")]),
            .init(name: "Nobody", photos: [FaceReference(path: "2019/missing.jpg"), FaceReference(path: "2019/two.jpg", rank: 3)]),
        ])
        let naming = FaceNaming(library: library, people: people, tagged: [:], hashOf: { paths[$0] })
        XCTAssertEqual(naming.faces["p1"]?.map(\.name).sorted(), ["Ann", "Bob"])
        XCTAssertEqual(naming.faces["p1"]?.first { $0.name == "Bob" }?.area, big)
        XCTAssertEqual(naming.faces["p2"]?.map(\.name), ["Ann"])
        XCTAssertEqual(naming.faces["p3"]?.map(\.name), ["Ann"])
        XCTAssertNil(naming.faces["p4"], "four.jpg is not Bob")
        XCTAssertEqual(naming.problems.count, 2, "\(naming.problems)")
        XCTAssertTrue(naming.problems[0].contains("2019/missing.jpg is not a published photo"), naming.problems[0])
        XCTAssertTrue(naming.problems[1].contains("one face found"), naming.problems[1])
    }

    func testTagsNameTheirGroupByMajorityAndAreNotCountedTwice() {
        let ann = person()
        var library = FaceLibrary()
        let box = NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.2)
        for index in 0..<4 { library.photos["a\(index)"] = [.init(face: face(of: ann, box: box))] }
        FaceGrouping.group(&library)
        // The tagger drew the head: larger, around the face.
        let head = NormalizedRect(x: 0.35, y: 0.12, width: 0.3, height: 0.33)
        let tagged = ["a0": [FaceRegion(name: "Ann", area: head)], "a1": [FaceRegion(name: "Ann", area: head)],
                      "a2": [FaceRegion(name: "Anne", area: head)]]
        let naming = FaceNaming(library: library, people: PeopleList(), tagged: tagged, hashOf: { _ in nil })
        XCTAssertEqual(Set(naming.names.values), ["Ann"])
        XCTAssertEqual(naming.faces["a3"]?.map(\.name), ["Ann"], "the untagged photo gets the group's name")
        XCTAssertNil(naming.faces["a0"], "a tagged face is named by its tag already")
        // A tag elsewhere in the photo is another face.
        XCTAssertEqual(FaceNaming.sameFace(box, NormalizedRect(x: 0.7, y: 0.2, width: 0.2, height: 0.2)), 0)
    }

    func testAnUprightBoxGoesBackToTheStoredPictureAndReturns() {
        let box = NormalizedRect(x: 0.125, y: 0.25, width: 0.25, height: 0.5)
        for orientation in Orientation.allCases {
            let back = box.stored(orientation).upright(orientation)
            XCTAssertEqual(back.x, box.x, accuracy: 1e-12, "\(orientation)")
            XCTAssertEqual(back.y, box.y, accuracy: 1e-12, "\(orientation)")
            XCTAssertEqual(back.width, box.width, accuracy: 1e-12, "\(orientation)")
            XCTAssertEqual(back.height, box.height, accuracy: 1e-12, "\(orientation)")
        }
    }

    func testFaceReferencesParse() {
        XCTAssertEqual(FaceReference(parsing: "2019/Beach/IMG_0012.jpg"), FaceReference(path: "2019/Beach/IMG_0012.jpg"))
        XCTAssertEqual(FaceReference(parsing: " a/b.jpg#2 "), FaceReference(path: "a/b.jpg", rank: 2))
        XCTAssertEqual(FaceReference(parsing: "odd#name.jpg"), FaceReference(path: "odd#name.jpg"))
        XCTAssertNil(FaceReference(parsing: "a.jpg#0"))
        XCTAssertNil(FaceReference(parsing: "/etc/passwd"))
        XCTAssertNil(FaceReference(parsing: "../up.jpg"))
        XCTAssertEqual(FaceReference(path: "a.jpg", rank: 3).description, "a.jpg#3")
    }
}
