import Archives
import SiteOutput
import Foundation
import GalleryCore
import Planning
import Rendering
import Sealing

/// `album_downloads`: a ZIP per album of its own items' published files
/// (the largest preview, the playback video, or the original when
/// `publish_originals` is on: files already stripped of what must not be
/// published). The archive's name is a hash of its members' names and
/// content-addressed files, so a build remakes it only when the album changed.
/// A private album's archive holds its files opened and is sealed whole, like
/// every file of the album; the browser opens it in memory, so it is made only
/// up to `sealedArchiveLimit`.
struct AlbumDownloadsStep: BuildStep {
    let name = "album downloads"

    /// Bumped when the archives' layout changes.
    static let archiveVersion = 1
    /// Where archives live in OUT.
    static let folder = "media/albums/"
    /// Archives at least this large are announced while they are written.
    static let announcedSize: Int64 = 200_000_000
    /// The largest private album archive made: a browser holds it sealed, in
    /// Base64 and opened at once (about 3.5 times its size), and a script's
    /// text is limited to about 512 MB.
    static let sealedArchiveLimit: Int64 = 256_000_000

    func run(_ context: inout BuildContext) async throws {
        guard context.settings.values.albumDownloads else { return }
        let output = try context.openOutput()
        let originals = context.settings.values.publishOriginals
        var byAlbum: [AlbumPath: [MediaItem]] = [:]
        for item in context.items { byAlbum[item.source.albumPath, default: []].append(item) }
        let owned = try context.previousState.fileLookup()
        for (album, items) in byAlbum.sorted(by: { $0.key < $1.key }) {
            let key = context.albumKeys.nearest(to: album)
            let members = Self.members(items.sorted { NaturalOrder.less($0.source.fileName, $1.source.fileName) },
                                       originals: originals, output: output.url)
            guard !members.isEmpty else { continue }
            let name = album.isRoot ? "the top album" : DisplayText.oneLine(album.description)
            var hasher = StableHash()
            hasher.update("album zip \(Self.archiveVersion)")
            for member in members {
                hasher.update(member.name)
                hasher.update(member.file.path.dropFirst(output.url.path.count).description)
                hasher.update(String(member.wallClockSeconds))
            }
            let plainPath = Self.folder + hasher.finalize().prefix(20) + ".zip"
            let path = key.map { $0.vault.file(plainPath) } ?? plainPath
            let sizes = members.map { member in
                let size = Self.fileSize(member.file)
                return key == nil ? size : AlbumKey.plainSize(ofFile: member.file.path, publishedSize: size)
            }
            let bytes = sizes.reduce(0, +)
            if key != nil && bytes > Self.sealedArchiveLimit {
                context.progress.message("no download for \(name): a private album's archive is made up to "
                                         + "\(Self.sealedArchiveLimit / 1_000_000) MB (its files are \(bytes / 1_000_000) MB)")
                continue
            }
            if !(output.contains(path) && owned(path)) {
                // A large album takes a while to copy: say which, so the build is seen to be alive.
                if bytes >= Self.announcedSize {
                    context.progress.message("making the download of \(name) (\(members.count) files, \(bytes / 1_000_000) MB)")
                }
                do {
                    let open: ((URL) throws -> Data)? = key.map { key in
                        { file in try key.openFile(Data(contentsOf: file), path: file.path) }
                    }
                    try output.produce(path) { temporary in try AlbumArchive.write(members, to: temporary, open: open) }
                } catch let error as ArchiveError {
                    // One album's archive (a file gone, a full disk) does not stop the site: that album has no button.
                    context.progress.message("skipped the download of \(name): \(error)")
                    continue
                }
                context.report.archivesMade += 1
            }
            let size = Self.fileSize(output.url.appendingPathComponent(path))
            context.downloads[album] = AlbumDownload(path: path, bytes: key == nil ? size : AlbumKey.plainSize(ofFile: path, publishedSize: size))
            context.producedFiles.append(path)
        }
    }

    static func fileSize(_ url: URL) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The files of `items` as archive members, each under its own file name
    /// with the published file's extension (`IMG_0412.HEIC` → `IMG_0412.jpg`),
    /// a repeated name numbered (`IMG_0412 (2).jpg`).
    static func members(_ items: [MediaItem], originals: Bool, output: URL) -> [ArchiveMember] {
        var members: [ArchiveMember] = []
        var taken: Set<String> = []
        for item in items {
            let file = (originals ? item.renditions(.original).first : nil)
                ?? item.renditions(.video).first.flatMap { item.kind == .video ? $0 : nil }
                ?? item.renditions(.preview).last
            guard let file else { continue }
            let source = item.source.fileName
            // The photo's own name, made safe for every unzip tool (a file
            // named `..\\..\\x.jpg` is legal on Linux).
            let stem = Slug.downloadName(source.lastIndex(of: ".").map { String(source[..<$0]) } ?? source, fallback: "photo")
            let ext = "." + publishedExtension(of: file, item: item)
            var name = stem + ext
            var number = 2
            while taken.contains(name.lowercased()) {
                name = "\(stem) (\(number))\(ext)"
                number += 1
            }
            taken.insert(name.lowercased())
            members.append(ArchiveMember(name: name, file: output.appendingPathComponent(file.path),
                                         wallClockSeconds: item.metadata.captureDate.wallClockSeconds))
        }
        return members
    }

    /// The extension a rendition's file has in a public album (a private
    /// album's files are all `.js` in OUT; in its archive they are what they hold).
    static func publishedExtension(of rendition: Rendition, item: MediaItem) -> String {
        if !rendition.path.hasSuffix(".js") { return rendition.path.split(separator: ".").last.map(String.init) ?? "" }
        if rendition.spec.role == .original && item.metadata.format.isPublishableAsIs { return item.metadata.format.fileExtension }
        return rendition.spec.format.fileExtension
    }
}
