import Foundation
import GalleryCore

/// What the scanner reports as it walks SOURCE.
public enum ScanEvent: Sendable {
    /// A folder (album) was entered. Emitted before any of its photos, with its
    /// sidecar file when it has one.
    case album(AlbumPath, sidecar: URL?)
    /// A photo file.
    case photo(SourceFile)
    /// A folder could not be listed (permissions): it is skipped, the walk goes on.
    case unreadable(path: String, reason: String)
}

/// Walks SOURCE depth-first and reports what it finds as it goes; the build
/// runs it on its own thread so photos are processed while the walk continues.
///
/// Hidden files and folders (leading dot) are ignored; so is anything that is
/// not a photo by extension. Symbolic links are not followed: a link could lead
/// outside SOURCE or into a loop.
public struct SourceScanner: Sendable {
    /// The folder to walk.
    public let root: URL
    /// Paths (absolute, standardised) never entered, e.g. OUT when a user puts it beside photos.
    public let excluded: Set<String>

    /// Creates a scanner.
    public init(root: URL, excluding excluded: [URL] = []) {
        self.root = root.standardizedFileURL
        self.excluded = Set(excluded.map { $0.standardizedFileURL.path })
    }

    /// The album sidecar's file name.
    public static let sidecarName = "album.yml"

    /// Synchronous walk, calling `emit` for each event.
    public static func walk(_ folder: URL, components: [String], excluded: Set<String>, emit: (ScanEvent) -> Void) {
        let sidecar = folder.appendingPathComponent(sidecarName)
        emit(.album(AlbumPath(components: components), sidecar: access(sidecar.path, F_OK) == 0 ? sidecar : nil))
        // opendir/readdir rather than FileManager: cheaper, and the error is
        // the plain errno text ("Permission denied").
        guard let directory = opendir(folder.path) else {
            emit(.unreadable(path: components.joined(separator: "/"), reason: String(cString: strerror(errno))))
            return
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        var folders: [(String, URL)] = []
        for name in names.sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                if !excluded.contains(url.standardizedFileURL.path) { folders.append((name, url)) }
            } else if kind == S_IFREG, PhotoExtensions.isPhoto(name) {
                let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
                let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                emit(.photo(SourceFile(url: url, relativeComponents: components + [name], byteCount: Int64(info.st_size),
                                       modificationDate: modified, modifiedNanoseconds: nanoseconds)))
            }
        }
        for (name, url) in folders {
            walk(url, components: components + [name], excluded: excluded, emit: emit)
        }
    }
}
