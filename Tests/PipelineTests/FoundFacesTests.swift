import Foundation
@testable import Faces
@testable import GalleryCore
@testable import GalleryKit
import Testing
import GalleryTestSupport

/// `faces: auto` built for real, on real photos of three people (the
/// labelled set, `FaceFixtures`): a group named in people.yml and one named
/// by a photographer's tag are published; the third person, unnamed, is
/// nowhere under OUT; a private album's photo joins no public page;
/// identifiers and names hold across a rename, an addition, a removal and a
/// re-run that finds nothing again; faces off keeps nothing.
@Suite(.enabled(if: FaceFixtures.available || FaceFixtures.required, Comment(rawValue: FaceFixtures.missing)))
struct FoundFacesTests {
    static func photo(_ name: String) -> [UInt8] { Fixtures.contents(of: FaceFixtures.photos.appendingPathComponent(name)) }

    static func settings(_ folder: TemporaryFolder) -> BuildSettings {
        var settings = BuildSettings(source: folder.url.appendingPathComponent("src"), output: folder.url.appendingPathComponent("out"),
                                     thumbnailBoxes: [PixelSize(width: 160, height: 120)],
                                     previewBoxes: [PixelSize(width: 800, height: 600), PixelSize(width: 1600, height: 1200)], jobs: 2)
        settings.publishPeople = true
        settings.faces = .auto
        settings.faceModels = FaceFixtures.models.path
        return settings
    }

    static func library(_ settings: BuildSettings) throws -> FaceLibrary {
        let data = try Data(contentsOf: settings.stateFolder.appendingPathComponent(FaceLibrary.fileName))
        return try #require(FaceLibrary(decoding: [UInt8](data)))
    }

    static func page(_ out: URL, _ path: String) -> String? {
        try? String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
    }

    /// The photos a person's page lists (their photo pages' names).
    static func photos(of slug: String, in out: URL) -> [String] {
        guard let page = page(out, "people/\(slug)/index.html") else { return [] }
        return page.components(separatedBy: "<li style=").dropFirst().compactMap {
            $0.components(separatedBy: "href=\"").dropFirst().first?.components(separatedBy: "\"").first?
                .components(separatedBy: "/").last?.replacingOccurrences(of: ".html", with: "")
        }.sorted()
    }

    @Test func foundFacesArePublishedOnlyOnceNamedAndKeepTheirNames() async throws {
        let folder = try TemporaryFolder()
        for (name, target) in [("obama.jpg", "2009/obama.jpg"), ("obama-congress.jpg", "2009/congress.jpg"),
                               ("obama-blue-room.jpg", "2009/blue-room.jpg"), ("obama-with-collins.jpg", "2009/visit.jpg"),
                               ("collins.jpg", "2009/collins.jpg"), ("collins-mirrored.jpg", "2009/collins-again.jpg"),
                               ("biden-blue-room.jpg", "2009/vp.jpg"), ("biden-blue-room-mirrored.jpg", "2009/vp-again.jpg"),
                               ("obama-on-its-side.jpg", "2009/sideways.jpg"), ("obama-dark.jpg", "Secret/evening.jpg")] {
            try folder.write("src/" + target, Self.photo(name))
        }
        // Collins is named by a photographer's tag, on one photo (a larger box, around her head).
        _ = try CameraFixtures.run("exiftool", ["-q", "-overwrite_original",
            "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=512,H=512,Unit=pixel},RegionList=[{Area={X=0.43,Y=0.24,W=0.22,H=0.24,Unit=normalized},Name=Eileen Collins,Type=Face}]}",
            folder.url.appendingPathComponent("src/2009/collins.jpg").path])
        try folder.write("src/Secret/album.yml", Array("private: true\npassphrase_file: ../../pass.txt\n".utf8))
        try folder.write("pass.txt", Array("correct horse battery staple\n".utf8))
        try folder.write("src/people.yml", Array("Barack Obama: 2009/obama.jpg\n".utf8))
        // And a photo of nobody.
        try folder.write("src/2009/sky.jpg", try IncrementalTests.photo(5))
        let settings = Self.settings(folder)
        let out = settings.output

        let first = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(first.faces?.contains("(11 photos looked at now)") == true, "\(first.faces ?? "no faces line")")
        #expect(Self.photos(of: "barack-obama", in: out) == ["blue-room", "congress", "obama", "sideways", "visit"],
                "his five public photos, not the private one")
        // The photo stored on its side: his box where his face is upright, as the labels say.
        let album = try #require(Self.page(out, "albums/2009/index.html"))
        let sideways = try #require(album.components(separatedBy: "href=\"sideways.html\"").dropFirst().first?
            .components(separatedBy: "data-faces=\"").dropFirst().first?.components(separatedBy: "\"").first)
        let numbers = sideways.components(separatedBy: ",").dropFirst().compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "]"))) }
        let label = [0.402, 0.120, 0.285, 0.228]
        #expect(numbers.count == 4 && zip(numbers, label).allSatisfy { abs($0 - $1) < 0.06 }, "\(sideways) against \(label)")
        #expect(Self.photos(of: "eileen-collins", in: out) == ["collins", "collins-again", "visit"], "her tag names her group")
        let index = try #require(Self.page(out, "people/index.html"))
        #expect(index.components(separatedBy: "<li data-name=").count - 1 == 2, "two people: the unnamed group is nobody")
        // Nothing of the unnamed group: no face box on its photos, no page, and nothing of the faces' table.
        let vp = try #require(Self.page(out, "2009/vp.html") ?? Self.page(out, "albums/2009/vp.html") ?? Self.photoPage(out, "vp"))
        #expect(!vp.contains("data-faces"), "no box of an unnamed face")
        #expect(!vp.contains("class=\"people\""))
        #expect(try PeopleTests.files(containing: "gallerygen faces", in: out).isEmpty)
        #expect(try PeopleTests.files(containing: FaceModels.identity, in: out).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(FaceLibrary.fileName).path))
        let library = try Self.library(settings)
        let obamaGroup = try #require(library.names.first { $0.value == "Barack Obama" }?.key)
        let collinsGroup = try #require(library.names.first { $0.value == "Eileen Collins" }?.key)

        // A re-run finds nothing again; a rename neither (the faces are the content's).
        let again = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(again.faces?.contains("looked at now") == false, "\(again.faces ?? "")")
        #expect(again.pagesRendered == 0)
        #expect(library.withoutFaces.keys.count == 1 && library.photos.count == 10, "the photo of nobody kept as a number")
        try FileManager.default.moveItem(at: settings.source.appendingPathComponent("2009/congress.jpg"),
                                         to: settings.source.appendingPathComponent("2009/address.jpg"))
        try FileManager.default.moveItem(at: settings.source.appendingPathComponent("2009/sky.jpg"),
                                         to: settings.source.appendingPathComponent("2009/clouds.jpg"))
        let renamed = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(renamed.faces?.contains("looked at now") == false, "\(renamed.faces ?? "")")
        #expect(Self.photos(of: "barack-obama", in: out) == ["address", "blue-room", "obama", "sideways", "visit"])

        // The models are kept beside the table as the machine holds them; a
        // damaged copy is read from the model files again, and made anew. What
        // an earlier version kept instead goes.
        let engine = settings.stateFolder.appendingPathComponent(FaceWork.engineFile)
        #expect(Fixtures.size(of: engine) > 25_000_000)
        try Data("\(FaceFinder.cacheHeader)not an engine".utf8).write(to: engine)
        let former = settings.stateFolder.appendingPathComponent(FaceWork.formerDetectorFile)
        try Data("gallerygen face detector\n".utf8).write(to: former)

        // An addition joins its person; a removal leaves the others; identifiers hold.
        try folder.write("src/2010/later.jpg", Self.photo("obama-blue-room-mirrored.jpg"))
        try FileManager.default.removeItem(at: settings.source.appendingPathComponent("2009/collins-again.jpg"))
        try FileManager.default.removeItem(at: settings.source.appendingPathComponent("2009/clouds.jpg"))
        // Photos of nobody that left the library are forgotten once they are
        // many more than it holds: 2,000 of them, put in the table.
        var padded = try Self.library(settings)
        for index in 0..<(FacesStep.forgettingSlack * 2) { padded.record(String(format: "%032x", index), []) }
        try Data(padded.encoded()).write(to: settings.stateFolder.appendingPathComponent(FaceLibrary.fileName))
        let changed = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(changed.faces?.contains("(1 photo looked at now)") == true, "\(changed.faces ?? "")")
        #expect(Self.photos(of: "barack-obama", in: out) == ["address", "blue-room", "later", "obama", "sideways", "visit"])
        #expect(Self.photos(of: "eileen-collins", in: out) == ["collins", "visit"])
        #expect(Fixtures.size(of: engine) > 25_000_000, "written again")
        #expect(!FileManager.default.fileExists(atPath: former.path))
        let after = try Self.library(settings)
        #expect(after.withoutFaces.count == 0, "the photos of nobody no longer in the library forgotten")
        #expect(after.names[obamaGroup] == "Barack Obama")
        #expect(after.names[collinsGroup] == "Eileen Collins")

        // Named in people.yml by a photo of him: his page appears.
        try folder.write("src/people.yml", Array("Barack Obama: 2009/obama.jpg\nJoe Biden: 2009/vp-again.jpg\n".utf8))
        _ = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(Self.photos(of: "joe-biden", in: out) == ["vp", "vp-again"])

        // Off: nothing of faces is kept, and found people are published no more.
        var off = settings
        off.faces = .off
        let offReport = try await GalleryBuilder().build(settings: off, quiet: true)
        #expect(offReport.faces == nil)
        #expect(!FileManager.default.fileExists(atPath: settings.stateFolder.appendingPathComponent(FaceLibrary.fileName).path))
        #expect(Self.page(out, "people/barack-obama/index.html") == nil)
        #expect(Self.photos(of: "eileen-collins", in: out) == ["collins"], "her tag still names her")
    }

    /// Two media parts find the faces of their own photos; the last step
    /// merges them, finds none again, and publishes what one machine would.
    @Test func shardedPartsFindTheirOwnFacesAndTheLastStepGroups() async throws {
        let folder = try TemporaryFolder()
        for (name, target) in [("obama.jpg", "a/obama.jpg"), ("obama-congress.jpg", "a/congress.jpg"), ("obama-dark.jpg", "b/dark.jpg"),
                               ("biden-blue-room.jpg", "b/vp.jpg"), ("collins.jpg", "c/collins.jpg")] {
            try folder.write("src/" + target, Self.photo(name))
        }
        try folder.write("src/people.yml", Array("Barack Obama: a/obama.jpg\n".utf8))
        let settings = Self.settings(folder)
        var lookedAt = 0
        for index in 0..<2 {
            let part = try await GalleryBuilder().build(settings: settings, quiet: true, shard: Shard(index: index, count: 2))
            #expect(part.faces == nil, "a part groups nothing")
            lookedAt += part.published
        }
        #expect(lookedAt == 5)
        #expect(!FileManager.default.fileExists(atPath: settings.stateFolder.appendingPathComponent(FaceLibrary.fileName).path))
        let last = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(last.renditionsMade == 0)
        #expect(last.faces?.contains("looked at now") == false, "\(last.faces ?? "")")
        #expect(Self.photos(of: "barack-obama", in: settings.output) == ["congress", "dark", "obama"])
        #expect(try Self.library(settings).photos.count == 5)
        let shards = settings.stateFolder.appendingPathComponent("shards")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: shards.path))?.contains { $0.hasSuffix(FaceLibrary.fileName) } != true,
                "the parts' faces are merged and gone")
    }

    /// `gallerygen people` lists the groups with photos to name them by.
    @Test func thePeopleCommandListsTheGroups() async throws {
        let folder = try TemporaryFolder()
        for (name, target) in [("obama.jpg", "a/obama.jpg"), ("obama-congress.jpg", "a/congress.jpg"),
                               ("biden-blue-room.jpg", "b/vp.jpg"), ("biden-blue-room-mirrored.jpg", "b/vp2.jpg")] {
            try folder.write("src/" + target, Self.photo(name))
        }
        try folder.write("src/people.yml", Array("Barack Obama: a/obama.jpg\n".utf8))
        try folder.write("src/gallery.yml", Array("faces: auto\npublish_people: true\nface_models: \(FaceFixtures.models.path)\n".utf8))
        let out = folder.url.appendingPathComponent("out")
        _ = try GallerygenBinary.result(["build", folder.url.appendingPathComponent("src").path, "-o", out.path, "-q"])
        let run = try GallerygenBinary.result(["people", folder.url.appendingPathComponent("src").path, "-o", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("2 groups of faces (1 named), largest first:\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  Barack Obama: 2 photos: a/"), "\(run.stdout)")
        #expect(run.stdout.contains(": 2 photos: b/vp"), "\(run.stdout)")
        #expect(run.stdout.contains("Name a group in people.yml by one of its photos, e.g.:  Someone: b/vp"), "\(run.stdout)")
        let none = try GallerygenBinary.result(["people", folder.url.appendingPathComponent("src").path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("gallerygen people"), "\(none.stderr)")
    }

    /// The photo page of the item named `stem`, wherever the site puts it.
    static func photoPage(_ out: URL, _ stem: String) -> String? {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: out.path)) ?? []
        return paths.first { $0.hasSuffix("/\(stem).html") }.flatMap { page(out, $0) }
    }

    @Test func missingModelsAreOneWarningAndTheBuildGoesOn() async throws {
        let folder = try TemporaryFolder()
        try folder.write("src/a/obama.jpg", Self.photo("obama.jpg"))
        var settings = Self.settings(folder)
        settings.faceModels = folder.url.appendingPathComponent("nowhere").path
        let report = try await GalleryBuilder().build(settings: settings, quiet: true)
        #expect(report.published == 1)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("scripts/face-models.sh") == true, "\(report.warnings)")
        #expect(report.faces == nil)
    }
}
