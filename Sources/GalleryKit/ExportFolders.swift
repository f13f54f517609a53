import Foundation
import GalleryCore
import Metadata
import Scanning

/// The folders of exports the folders-only walk found (Google Takeout's
/// albums and year folders, an iCloud download's library and album
/// tables), and what they make of the album settings: read before any
/// image work, like album.yml. A table or JSON that cannot be read is a
/// warning, never a stop: the photos are published without it.
struct ExportFolders {
    var takeoutAlbums: [(AlbumPath, URL)] = []
    var yearFolders: [AlbumPath] = []
    var iCloudLibraries: Set<AlbumPath> = []
    var iCloudAlbums: [(AlbumPath, URL)] = []

    mutating func note(_ event: ScanEvent) {
        switch event {
        case .takeoutAlbum(let path, let file): takeoutAlbums.append((path, file))
        case .takeoutYearFolder(let path): yearFolders.append(path)
        case .iCloudLibraryFolder(let path): iCloudLibraries.insert(path)
        case .iCloudAlbum(let path, let table): iCloudAlbums.append((path, table))
        default: break
        }
    }

    /// A Takeout album's title and description (album.yml's win); year
    /// folders and an iCloud download's Photos/ are libraries, not albums;
    /// each table of an iCloud `Albums/` is an album of the photos in the
    /// `Photos/` beside it.
    func apply(to sidecars: inout [AlbumPath: AlbumSettings], _ context: inout BuildContext) {
        for (path, file) in takeoutAlbums {
            do {
                let album = try Self.readTakeoutAlbum(file)
                var merged = sidecars[path] ?? AlbumSettings()
                merged.title = merged.title ?? album.title
                merged.description = merged.description ?? album.description.map(Self.markdownEscaped)
                sidecars[path] = merged
            } catch {
                context.report.warnings.append("\(DisplayText.oneLine((path.components + [file.lastPathComponent]).joined(separator: "/"))): \(error)")
            }
        }
        for path in yearFolders { sidecars[path, default: AlbumSettings()].timelineOnly = true }
        context.takeoutYearFolders = Set(yearFolders)
        context.takeoutAlbumFolders = Set(takeoutAlbums.map(\.0))
        for path in iCloudLibraries { sidecars[path, default: AlbumSettings()].timelineOnly = true }
        for (path, table) in iCloudAlbums {
            guard let albums = path.parent, let download = albums.parent,
                  let library = iCloudLibraries.first(where: { $0.parent == download && ICloudExportNames.isPhotosFolder($0.name) }) else { continue }
            do {
                let album = try ICloudAlbumTable(try Self.prefix(of: table, upTo: ICloudAlbumTable.largestSize + 1))
                let folder = library.components.joined(separator: "/")
                context.albumReferences[path] = album.names.map { folder.isEmpty ? $0 : folder + "/" + $0 }
                context.report.iCloudAlbums += 1
            } catch {
                context.report.warnings.append("\(DisplayText.oneLine((albums.components + [table.lastPathComponent]).joined(separator: "/"))): \(error)")
            }
        }
    }

    /// A Takeout album's JSON, read whole when it is small enough to be one.
    static func readTakeoutAlbum(_ file: URL) throws -> TakeoutAlbum {
        try TakeoutAlbum(try prefix(of: file, upTo: TakeoutSidecar.largestSize + 1))
    }

    /// At most `count` bytes from the start of `file` (the readers refuse a
    /// file that fills them: it is larger than what they read).
    static func prefix(of file: URL, upTo count: Int) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        return Array(try handle.read(upToCount: count) ?? Data())
    }

    /// Plain text made safe to show through the Markdown an album
    /// description is: every mark the renderer reads escaped (the ones its
    /// backslash escapes), line breaks kept.
    static func markdownEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_[]()#+-.!<>".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
