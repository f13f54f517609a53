import Foundation
import Testing
import GalleryTestSupport
@testable import Preview

/// What `gallerygen serve` decides for a request, without a socket: which
/// file, which bytes of it, whether the client's copy is current. The server
/// itself is tested running, over HTTP, in Tests/browser/test_serve.py.
@Suite struct StaticFileTests {
    func site() throws -> (folder: TemporaryFolder, root: URL) {
        let folder = try TemporaryFolder()
        try folder.write("site/index.html", Array("<html><body>home</body></html>".utf8))
        try folder.write("site/albums/trip/index.html", Array("trip".utf8))
        try folder.write("site/media/ab/x.webp", [1, 2, 3])
        try folder.write("site/.hidden/state.bin", [0])
        try folder.write("secret.txt", Array("outside".utf8))
        let root = URL(fileURLWithPath: try #require(StaticFile.realPath(folder.url.appendingPathComponent("site"))))
        return (folder, root)
    }

    @Test func pathsLeadToFilesOfOUTOnly() throws {
        let (folder, root) = try site()
        #expect(StaticFile.resolve("/", in: root) == .file(root.appendingPathComponent("index.html"), relativePath: "index.html"))
        #expect(StaticFile.resolve("/albums/trip", in: root) == .redirect("/albums/trip/"))
        #expect(StaticFile.resolve("/albums/trip/", in: root)
                == .file(root.appendingPathComponent("albums/trip/index.html"), relativePath: "albums/trip/index.html"))
        #expect(StaticFile.resolve("/media/ab/x.webp", in: root) == .file(root.appendingPathComponent("media/ab/x.webp"), relativePath: "media/ab/x.webp"))
        #expect(StaticFile.resolve("/media/%61b/x.webp", in: root) != .notFound)
        for escape in ["/../secret.txt", "/%2e%2e/secret.txt", "/albums/%2E%2E/%2e%2e/secret.txt", "/albums/..%2f..%2fsecret.txt",
                       "/..\\secret.txt", "/%00", "/.hidden/state.bin", "relative", "/%zz", "/media/"] {
            #expect(StaticFile.resolve(escape, in: root) == .notFound, "\(escape)")
        }
        // Symbolic links that leave OUT, to a folder or a file.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("out"), withDestinationURL: folder.url)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("s.txt"), withDestinationURL: folder.url.appendingPathComponent("secret.txt"))
        #expect(StaticFile.resolve("/out/secret.txt", in: root) == .notFound)
        #expect(StaticFile.resolve("/s.txt", in: root) == .notFound)
        // One that stays inside is followed.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("home.html"), withDestinationURL: root.appendingPathComponent("index.html"))
        #expect(StaticFile.resolve("/home.html", in: root) == .file(root.appendingPathComponent("index.html"), relativePath: "home.html"))
    }

    @Test func rangesAsRFC9110SaysThem() {
        #expect(StaticFile.range(nil, size: 1000) == .whole)
        #expect(StaticFile.range("bytes=0-99", size: 1000) == .part(0..<100))
        #expect(StaticFile.range("bytes=900-", size: 1000) == .part(900..<1000))
        #expect(StaticFile.range("bytes=-100", size: 1000) == .part(900..<1000))
        #expect(StaticFile.range("bytes=-5000", size: 1000) == .part(0..<1000))
        #expect(StaticFile.range("bytes=990-2000", size: 1000) == .part(990..<1000))
        #expect(StaticFile.range("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(StaticFile.range("bytes=-0", size: 1000) == .unsatisfiable)
        #expect(StaticFile.range("bytes=5-1", size: 1000) == .whole)
        #expect(StaticFile.range("bytes=0-1,5-9", size: 1000) == .whole)
        #expect(StaticFile.range("items=0-1", size: 1000) == .whole)
        #expect(StaticFile.range("bytes=x-y", size: 1000) == .whole)
    }

    @Test func validatorsAndTypes() {
        let tag = StaticFile.entityTag(size: 10, modified: timespec(tv_sec: 1_700_000_000, tv_nsec: 5))
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(StaticFile.isNotModified(ifNoneMatch: tag, ifModifiedSince: nil, entityTag: tag, modified: modified))
        #expect(StaticFile.isNotModified(ifNoneMatch: "\"a\", W/\(tag)", ifModifiedSince: nil, entityTag: tag, modified: modified))
        #expect(!StaticFile.isNotModified(ifNoneMatch: "\"a\"", ifModifiedSince: StaticFile.httpDate(modified), entityTag: tag, modified: modified))
        #expect(StaticFile.isNotModified(ifNoneMatch: nil, ifModifiedSince: StaticFile.httpDate(modified), entityTag: tag, modified: modified))
        #expect(!StaticFile.isNotModified(ifNoneMatch: nil, ifModifiedSince: StaticFile.httpDate(modified - 1), entityTag: tag, modified: modified))
        #expect(StaticFile.httpDate(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(StaticFile.contentType(of: "media/a/b.WEBP") == "image/webp")
        #expect(StaticFile.contentType(of: "media/a/b.avif") == "image/avif")
        #expect(StaticFile.contentType(of: "media/a/b.mp4") == "video/mp4")
        #expect(StaticFile.contentType(of: "sitemap.xml") == "application/xml")
        #expect(StaticFile.contentType(of: "x.json") == "application/json")
        #expect(StaticFile.contentType(of: "static/viewer.js").hasPrefix("text/javascript"))
        #expect(StaticFile.cacheControl(for: "media/ab/x.webp").contains("immutable"))
        #expect(StaticFile.cacheControl(for: "index.html") == "no-cache")
    }

    @Test func pagesGetTheReloadScriptBeforeTheirBodyEnds() {
        let page = PreviewHandler.withReloadScript(Data("<html><body><p>x</p></body></html>".utf8))
        let text = String(decoding: page, as: UTF8.self)
        #expect(text.hasSuffix("</script>\n</body></html>"))
        #expect(text.contains(SiteServer.reloadPath))
    }
}
