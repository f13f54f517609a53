import Foundation
import Testing
import GalleryTestSupport
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit
@testable import Configuration

/// OUT holds only what the site publishes: the build state lives beside it
/// (or where `state:` says), an older OUT/.gallerygen is moved out once, and a
/// state folder inside OUT or SOURCE is refused.
@Suite(.serialized) struct StateLocationTests {
    func build(_ settings: BuildSettings) async throws -> BuildReport {
        try await GalleryBuilder().build(settings: settings, quiet: true)
    }

    /// Every file under `folder`, dot-files included: path → bytes.
    static func everyFile(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                // Read by hand: Foundation leaks its buffer on an empty file (the lock).
                files[relative] = Data(Fixtures.contents(of: url))
            }
        }
        return files
    }

    @Test func aRejectedPhotosWordsAreNowhereInOUT() async throws {
        let (folder, settings) = try IncrementalTests.library()
        let words = "Blurry reject of the Qxzv lake"
        try folder.write("src/Alpha/a2.xmp", Array(WordsTests.xmpPacket("""
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="-1">\
            <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(words)</rdf:li></rdf:Alt></dc:title></rdf:Description>
            """).utf8))
        let report = try await build(settings)
        #expect(report.leftOut.count == 1)
        let needle = Data("Qxzv".utf8)
        let published = try Self.everyFile(settings.output)
        #expect(!published.isEmpty && !published.keys.contains { $0.hasPrefix(".") }, "no dot-files in OUT: \(published.keys.filter { $0.hasPrefix(".") })")
        for (path, bytes) in published { #expect(bytes.range(of: needle) == nil, "\(path) holds the rejected photo's title") }
        // The state still knows it (so the photo is not read again): beside OUT, not in it.
        let state = try Self.everyFile(settings.stateFolder)
        #expect(state.values.contains { $0.range(of: needle) != nil }, "the check above looks for what the state does hold")
        #expect(settings.stateFolder.deletingLastPathComponent() == settings.output.deletingLastPathComponent())
    }

    @Test func anOUTWithTheOldStateInsideIsMigratedOnce() async throws {
        let (folder, settings) = try IncrementalTests.library()
        defer { withExtendedLifetime(folder) {} }
        _ = try await build(settings)
        // As an earlier version left it: the state in OUT/.gallerygen.
        let legacy = settings.output.appendingPathComponent(BuildState.legacyFolderName)
        try FileManager.default.moveItem(at: settings.stateFolder, to: legacy)
        let site = try IncrementalTests.snapshot(settings.output).filter { !$0.key.hasPrefix(".") }
        let report = try await build(settings)
        #expect(report.renditionsMade == 0 && report.pagesRendered == 0, "the moved state was used: \(report.summary)")
        #expect(!FileManager.default.fileExists(atPath: legacy.path), "OUT/.gallerygen is removed")
        #expect(FileManager.default.fileExists(atPath: BuildState.location(in: settings.stateFolder).path))
        #expect(try IncrementalTests.snapshot(settings.output) == site, "nothing of the site was touched")
    }

    @Test func aStateFolderInsideOUTOrSOURCEIsRefused() async throws {
        let (folder, settings) = try IncrementalTests.library()
        defer { withExtendedLifetime(folder) {} }
        for (inside, words) in [(settings.output.appendingPathComponent("state"), "OUT, which is published"),
                                (settings.source.appendingPathComponent("state"), "SOURCE, which is never written to")] {
            var wrong = settings
            wrong.values.state = inside.path
            do {
                _ = try await build(wrong)
                Issue.record("a state folder in \(inside.path) was taken")
            } catch {
                #expect("\(error)".contains(words) && "\(error)".contains("set state:"), "\(error)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: settings.source.appendingPathComponent("state").path))
    }

    @Test func aStateFolderInGalleryYmlIsRelativeToIt() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("lib/gallery.yml", Array("state: ../cache/site-state\n".utf8))
        var values = Settings()
        try ConfigFile.load(file, into: &values)
        #expect(values.state == folder.url.appendingPathComponent("cache/site-state").standardizedFileURL.path)
        let settings = BuildSettings(source: folder.url.appendingPathComponent("lib"), output: folder.url.appendingPathComponent("out"), values: values)
        #expect(settings.stateFolder.path == values.state)
        #expect(BuildSettings.defaultStateFolder(for: URL(fileURLWithPath: "/srv/www/site")).path == "/srv/www/.site.gallerygen")
    }
}
