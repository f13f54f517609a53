import Foundation
import Testing
import GalleryTestSupport
import Configuration
@testable import GalleryCore
@testable import GalleryKit

/// What a new user trips over in the first half hour, each said so they know
/// what to do: a mistyped key, command or value, a cover naming no photo,
/// OUT given as SOURCE, a rebuild that had nothing to do.
@Suite(.serialized) struct FirstHalfHourTests {
    @Test func aMistypedKeySuggestsTheNearestOne() throws {
        func message(_ text: String) -> String {
            do {
                _ = try ConfigFile.parse(text)
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("qualty: 80\n") == "gallery.yml:1: key 'qualty': unknown key; did you mean 'quality'?")
        #expect(message("title: x\nfavorites: true\n") == "gallery.yml:2: key 'favorites': unknown key; did you mean 'favourites'?")
        #expect(message("moments:\n  gruop_by: day\n") == "gallery.yml:2: key 'moments.gruop_by': unknown key; did you mean 'group_by'?")
        #expect(message("zzzzzz: 1\n").contains("unknown key (known: title, "), "nothing near: every key listed")
        // A value that is not right is repeated, as the flags' errors do.
        #expect(message("quality: high\n") == "gallery.yml:1: key 'quality': must be a whole number from 1 to 100 (got 'high')")
        #expect(message("favourites: perhaps\n") == "gallery.yml:1: key 'favourites': must be true or false (got 'perhaps')")
        #expect(NearestName.suggestion(for: "biuld", among: ["build", "serve", "init", "settings"]) == "build")
        #expect(NearestName.suggestion(for: "photos", among: ["build", "serve", "init", "settings"]) == nil)
    }

    @Test func aMistypedCommandIsNamedAsOne() throws {
        let folder = try TemporaryFolder()
        let run = try GallerygenBinary.result(["biuld", folder.url.path, "-o", folder.url.appendingPathComponent("out").path])
        #expect(run.status == 1)
        #expect(run.stderr == "gallerygen: error: unknown command 'biuld'; did you mean 'build'?\n", "\(run.stderr)")
        let far = try GallerygenBinary.result(["pictures"])
        #expect(far.stderr.contains("unknown command 'pictures'; the commands are build, serve, init, people, settings"), "\(far.stderr)")
    }

    @Test func coversNoRebuildsAndOutAsSourceAreSaidPlainly() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/Trip/a.jpg", try NewcomerTests.photo(1))
        try folder.write("src/Trip/album.yml", Array("title: The trip\ncover: DSCN0011.jpg\n".utf8))
        let source = folder.url.appendingPathComponent("src").path, out = folder.url.appendingPathComponent("out").path
        let first = try GallerygenBinary.result(["build", source, "-o", out] + NewcomerTests.small)
        #expect(first.status == 0)
        #expect(first.stderr.contains("warning: Trip/album.yml:2: cover 'DSCN0011.jpg' is not a published photo of this folder"), "\(first.stderr)")
        #expect(first.stderr.contains("Built 1 photo"))
        let again = try GallerygenBinary.result(["build", source, "-o", out] + NewcomerTests.small)
        #expect(again.stderr.contains("\nUp to date: 1 photo (0 renditions made, "), "a no-op builds nothing: \(again.stderr)")
        #expect(again.stderr.contains("warning: Trip/album.yml:2: cover"), "said at every build until fixed")
        let same = try GallerygenBinary.result(["build", source, "-o", source])
        #expect(same.status != 0)
        #expect(same.stderr.contains("the output folder is the source folder"), "\(same.stderr)")
    }
}
