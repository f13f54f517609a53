import Foundation
import Testing
import GalleryTestSupport
import Configuration
@testable import GalleryCore
@testable import GalleryKit

/// The first minutes of a new user, through the real executable: what is left
/// out is said, bad settings fail before any image work, messages say what is
/// expected, `init` and `--watch` behave.
@Suite(.serialized) struct NewcomerTests {
    static func photo(_ seed: Int) throws -> [UInt8] {
        var image = Fixtures.gradient(width: 96, height: 72)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i + 1] = UInt8(truncatingIfNeeded: seed * 53) }
        return try Fixtures.jpeg(image)
    }

    static let small = ["--thumbnail-size", "48x36", "--preview-size", "96x72"]

    @Test func everyFileThatIsNotPublishedIsAccountedFor() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/a.jpg", try Self.photo(1))
        try folder.write("src/Trip/b.jpg", try Self.photo(2))
        try folder.write("src/Trip/layers.psd", Array("8BPS".utf8))
        try folder.write("src/Trip/More/edit.PSD", Array("8BPS".utf8))
        try folder.write("src/notes.txt", Array("hello".utf8))
        try folder.write("src/README", Array("no extension".utf8))
        // gallerygen's own files and hidden files are not "ignored" files.
        try folder.write("src/gallery.yml", Array("title: Mine\n".utf8))
        try folder.write("src/Trip/album.yml", Array("title: The trip\n".utf8))
        try folder.write("src/.DS_Store", [0])
        try folder.write("src/Trip/.thumbs/x.psd", [0])
        let source = folder.url.appendingPathComponent("src").path, out = folder.url.appendingPathComponent("out").path

        let run = try GallerygenBinary.result(["build", source, "-o", out] + Self.small)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Built 2 photos"))
        #expect(run.stderr.contains("Ignored 4 files of types gallerygen does not publish: 2 .psd, 1 .txt, 1 without extension"),
                "\(run.stderr)")
        #expect(run.stdout.contains("Site: \(out)/index.html"))

        let verbose = try GallerygenBinary.result(["build", source, "-o", out, "--verbose"] + Self.small)
        for path in ["Trip/layers.psd", "Trip/More/edit.PSD", "notes.txt", "README"] {
            #expect(verbose.stderr.contains("ignored \(path)\n"), "\(path) listed")
        }
        #expect(!verbose.stderr.contains("gallery.yml") && !verbose.stderr.contains("DS_Store") && !verbose.stderr.contains("album.yml"))
        #expect(verbose.stderr.contains("step process media: "), "step timings")
        // A hostile extension cannot put control characters on the terminal.
        var report = BuildReport()
        report.ignored = ["a.t\u{1B}[31mx"]
        #expect(report.ignoredSummary?.contains("\u{1B}") == false)
        // Quiet is quiet: nothing at all on success (what was left out is in the normal and verbose output).
        let quiet = try GallerygenBinary.result(["build", source, "-o", out, "--quiet"] + Self.small)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet.stderr)")
    }

    @Test func settingsFailBeforeAnyImageWork() throws {
        let folder = try TemporaryFolder()
        for i in 0..<6 { try folder.write("src/A\(i)/p.jpg", try Self.photo(i)) }
        // A broken sidecar in the last folder the walk reaches.
        try folder.write("src/Z/Deep/album.yml", Array("title: ok\nhidden: maybe\n".utf8))
        try folder.write("src/Z/Deep/z.jpg", try Self.photo(9))
        let source = folder.url.appendingPathComponent("src").path
        let out = folder.url.appendingPathComponent("out")

        let sidecar = try GallerygenBinary.result(["build", source, "-o", out.path, "-q"] + Self.small)
        #expect(sidecar.status != 0)
        #expect(sidecar.stderr == "gallerygen: error: Z/Deep/album.yml:2: key 'hidden': must be true or false (got 'maybe')\n")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("media").path), "no rendition was made")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("src/Z/Deep/album.yml"))

        let theme = try GallerygenBinary.result(["build", source, "-o", out.path, "--theme", "no-such-theme"] + Self.small)
        #expect(theme.status != 0)
        #expect(theme.stderr.hasPrefix("gallerygen: error: --theme: unknown theme 'no-such-theme' (built in: default, slate"))
        try folder.write("src/gallery.yml", Array("title: x\ntheme: slat\n".utf8))
        let fileTheme = try GallerygenBinary.result(["build", source, "-o", out.path] + Self.small)
        #expect(fileTheme.stderr.hasPrefix("gallerygen: error: gallery.yml:2: key 'theme': unknown theme 'slat'"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("media").path))

        let size = try GallerygenBinary.result(["build", source, "-o", out.path, "--preview-size", "abc"])
        #expect(size.stderr == "gallerygen: error: --preview-size: must be WxH boxes, e.g. 1600x1200, or several: 800x600,1600x1200 (got 'abc')\n")
        let quality = try GallerygenBinary.result(["build", source, "-o", out.path, "--quality", "abc"])
        #expect(quality.stderr == "gallerygen: error: --quality: must be a whole number from 1 to 100 (got 'abc')\n")
        #expect(!FileManager.default.fileExists(atPath: out.path), "OUT is not even created for a bad setting")
    }

    @Test func summaryUsesSingularsAndInitCreatesItsFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/only.jpg", try Self.photo(3))
        let run = try GallerygenBinary.result(["build", folder.url.appendingPathComponent("src").path, "-o",
                                               folder.url.appendingPathComponent("out").path,
                                               "--thumbnail-size", "500x400", "--preview-size", "600x500"])
        // One photo smaller than both boxes: one file serves both roles.
        #expect(run.stderr.contains("Built 1 photo (1 rendition made, 0 up to date), rendered 5 of 5 pages in "), "\(run.stderr)")
        #expect(!run.stderr.contains("1 photos"), "\(run.stderr)")

        let target = folder.url.appendingPathComponent("new/library")
        let initRun = try GallerygenBinary.result(["init", target.path])
        #expect(initRun.status == 0, "\(initRun.stderr)")
        let written = try String(contentsOf: target.appendingPathComponent("gallery.yml"), encoding: .utf8)
        #expect(written == ConfigTemplate.text)
        let again = try GallerygenBinary.result(["init", target.path])
        #expect(again.status != 0 && again.stderr.contains("already exists (use --force to replace it)"))
        #expect(try GallerygenBinary.result(["init", target.path, "--force"]).status == 0)
    }

    @Test func theFooterSettingReachesEveryPageEscaped() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/Trip/a.jpg", try Self.photo(6))
        try folder.write("src/gallery.yml", Array("footer: \"© 2024 <Léa> & co\"\n".utf8))
        let out = folder.url.appendingPathComponent("out")
        #expect(try GallerygenBinary.result(["build", folder.url.appendingPathComponent("src").path, "-o", out.path] + Self.small).status == 0)
        for page in ["index.html", "albums/trip/index.html", "albums/trip/a.html", "moments/index.html"] {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            #expect(html.contains("<footer class=\"site-footer\">© 2024 &lt;Léa&gt; &amp; co</footer>"), "\(page)")
        }
    }

    @Test func watchSaysWhereTheSiteIsAfterEveryRebuild() async throws {
        let folder = try TemporaryFolder()
        try folder.write("src/a.jpg", try Self.photo(4))
        let out = folder.url.appendingPathComponent("out")
        let log = folder.url.appendingPathComponent("stdout.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = GallerygenBinary.url
        process.arguments = ["build", folder.url.appendingPathComponent("src").path, "-o", out.path, "--watch"] + Self.small
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        func siteLines() -> Int {
            // Plain read(2): Foundation's String(contentsOf:) leaks its buffer
            // on an empty file (LeakSanitizer finds it in the ASan run).
            let descriptor = open(log.path, O_RDONLY)
            guard descriptor >= 0 else { return 0 }
            defer { close(descriptor) }
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while case let n = read(descriptor, &chunk, chunk.count), n > 0 { bytes += chunk[..<n] }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.components(separatedBy: "Site: \(out.path)/index.html\n").count - 1
        }
        func waitFor(_ count: Int) async throws -> Bool {
            for _ in 0..<200 where siteLines() < count { try await Task.sleep(nanoseconds: 50_000_000) }
            return siteLines() >= count
        }
        #expect(try await waitFor(1))
        try await Task.sleep(nanoseconds: 300_000_000)
        try folder.write("src/b.jpg", try Self.photo(5))
        #expect(try await waitFor(2), "a Site: line after the rebuild")
        kill(process.processIdentifier, SIGINT)
    }
}
