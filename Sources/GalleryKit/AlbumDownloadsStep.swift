import Archives
import SiteOutput
import Foundation
import GalleryCore
import Planning
import Rendering

/// `album_downloads`: a ZIP per album of its own items' published files
/// (the largest preview, the playback video, or the original when
/// `publish_originals` is on: files already stripped of what must not be
/// published). The archive's name is a hash of its members' names and
/// content-addressed files, so a build remakes it only when the album changed.
struct AlbumDownloadsStep: BuildStep {
    let name = "album downloads"

    /// Bumped when the archives' layout changes.
    static let archiveVersion = 1
    /// Where archives live in OUT.
    static let folder = "media/albums/"
    /// Archives at least this large are announced while they are written.
    static let announcedSize: Int64 = 200_000_000

    func run(_ context: inout BuildContext) async throws {
        guard context.settings.values.albumDownloads else { return }
        let output = try context.openOutput()
        let originals = context.settings.values.publishOriginals
        var byAlbum: [AlbumPath: [MediaItem]] = [:]
        // Private albums have no ZIP: their members would be sealed files.
        for item in context.items where context.albumKeys.nearest(to: item.source.albumPath) == nil { byAlbum[item.source.albumPath, default: []].append(item) }
        for (album, items) in byAlbum.sorted(by: { $0.key < $1.key }) {
            let members = Self.members(items.sorted { NaturalOrder.less($0.source.fileName, $1.source.fileName) },
                                       originals: originals, output: output.url)
            guard !members.isEmpty else { continue }
            var hasher = StableHash()
            hasher.update("album zip \(Self.archiveVersion)")
            for member in members {
                hasher.update(member.name)
                hasher.update(member.file.path.dropFirst(output.url.path.count).description)
                hasher.update(String(member.wallClockSeconds))
            }
            let path = Self.folder + hasher.finalize().prefix(20) + ".zip"
            if !(output.contains(path) && context.previousState.files.contains(path)) {
                // A large album takes a while to copy: say which, so the build is seen to be alive.
                let bytes = members.reduce(Int64(0)) { total, member in
                    total + ((try? FileManager.default.attributesOfItem(atPath: member.file.path)[.size] as? NSNumber)?.int64Value ?? 0)
                }
                if bytes >= Self.announcedSize {
                    let name = album.isRoot ? "the top album" : DisplayText.oneLine(album.description)
                    context.progress.message("making the download of \(name) (\(members.count) files, \(bytes / 1_000_000) MB)")
                }
                do {
                    try output.produce(path) { temporary in try AlbumArchive.write(members, to: temporary) }
                } catch let error as ArchiveError {
                    // One album's archive (a file gone, a full disk) does not stop the site: that album has no button.
                    context.progress.message("skipped the download of \(album.isRoot ? "the top album" : DisplayText.oneLine(album.description)): \(error)")
                    continue
                }
                context.report.archivesMade += 1
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: output.url.appendingPathComponent(path).path)[.size] as? NSNumber)?.int64Value ?? 0
            context.downloads[album] = AlbumDownload(path: path, bytes: size)
            context.producedFiles.insert(path)
        }
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
            let ext = file.path.lastIndex(of: ".").map { String(file.path[$0...]) } ?? ""
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
}
