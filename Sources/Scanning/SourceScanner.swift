import Foundation
import GalleryCore

/// What the scanner reports as it walks SOURCE.
public enum ScanEvent: Sendable {
    /// A folder (album) was entered. Emitted before any of its photos, with its
    /// sidecar file when it has one.
    case album(AlbumPath, sidecar: URL?)
    /// A photo or video file; a Live Photo's still carries its clip
    /// (`SourceFile.livePhotoClip`), which is not reported on its own.
    case media(SourceFile)
    /// A folder could not be listed (permissions): it is skipped, the walk goes on.
    case unreadable(path: String, reason: String)
    /// A regular file of a type gallerygen does not publish (hidden files and
    /// gallerygen's own files are not reported): `path` below SOURCE.
    case ignored(path: String)
    /// A RAW file left out because a JPEG/HEIC of the same name beside it
    /// stands for the same shot (`ScanOptions.pairRaw`).
    case pairedRaw(path: String)
    /// A folder of a Google Takeout export was listed: how its media and
    /// JSON files matched (emitted after its media).
    case takeoutFolder(TakeoutTally)
    /// A Takeout album: the folder holds the album's own JSON (`metadata.json`
    /// or a translation), with its title and description. Emitted in
    /// folders-only walks too, after the folder's listing.
    case takeoutAlbum(AlbumPath, metadata: URL)
    /// A Takeout year folder (`Photos from 2019` holding JSON sidecars):
    /// not an album, its photos are on the timeline. Emitted in
    /// folders-only walks too, after the folder's listing.
    case takeoutYearFolder(AlbumPath)
    /// A folder of an iCloud Photos download was listed: its media files
    /// (each given the folder's `Photo Details*.csv` as a sidecar) and tables.
    case iCloudFolder(media: Int, tables: Int)
    /// An iCloud download's `Photos/` folder (it holds `Photo Details*.csv`):
    /// not an album, its photos on the timeline and in the albums that list
    /// them. Emitted in folders-only walks too.
    case iCloudLibraryFolder(AlbumPath)
    /// A table of an iCloud download's `Albums/` folder: an album (named by
    /// the table) listing photos of the `Photos/` beside it. Emitted in
    /// folders-only walks too.
    case iCloudAlbum(AlbumPath, table: URL)
}

/// How a walk goes.
public struct ScanOptions: Sendable, Equatable {
    /// Follow symbolic links that stay inside SOURCE.
    public var followSymlinks = false
    /// Report folders (albums) only: no photo or ignored-file events, and no
    /// `lstat` for entries the directory listing already says are files.
    public var foldersOnly = false

    /// Leave out a RAW file when a JPEG or HEIC of the same base name (any
    /// letter case) is in the same folder: RAW+JPEG shooting makes both of
    /// every shot.
    public var pairRaw = false

    /// Files never published nor read as anything's sidecar, by their path
    /// in SOURCE: private albums' passphrase files.
    public var skippedFiles: Set<String> = []

    /// Creates options.
    public init(followSymlinks: Bool = false, foldersOnly: Bool = false, pairRaw: Bool = false, skippedFiles: Set<String> = []) {
        self.followSymlinks = followSymlinks
        self.foldersOnly = foldersOnly
        self.pairRaw = pairRaw
        self.skippedFiles = skippedFiles
    }

    /// Pairing names (lower case, without extension) of the JPEG/HEIC files among `names`.
    static func stillPairingNames(_ names: [String]) -> Set<String> {
        Set(names.filter(SourceFileTypes.isPairingStill).map(SourceFileTypes.pairingName))
    }
}

/// Walks SOURCE depth-first and reports what it finds as it goes; the build
/// runs it on its own thread so photos are processed while the walk continues.
///
/// Hidden files and folders (leading dot) are passed over; files that are not
/// photos by extension are reported as ignored, so the build can say what it
/// left out. Symbolic links are not followed unless asked, and then never to
/// outside SOURCE: a link could lead outside SOURCE or into a loop.
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

    /// Synchronous walk, calling `emit` for each event. With `memory`,
    /// folders it says are unchanged since its last walk are replayed, not
    /// listed (not when links are followed: a change behind one is not seen).
    public func walk(_ options: ScanOptions = ScanOptions(), memory: ScanMemory? = nil, emit: (ScanEvent) -> Void) {
        var visited: Set<DirectoryID> = []
        let real = root.resolvingSymlinksInPath().path
        let memory = options.followSymlinks ? nil : memory
        memory?.begin(ScanMemory.Walk(root: root.path, excluded: excluded, options: options))
        let statuses = EntryStatuses(shared: !options.foldersOnly)
        Self.walk(raw: Array(root.path.utf8), url: root, components: [], excluded: excluded,
                  follow: options.followSymlinks ? real : nil, options: options, memory: memory,
                  statuses: statuses, visited: &visited, emit: emit)
        statuses.stop()
        memory?.end()
    }

    /// A folder's identity, to stop symlink loops.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A folder found in a folder, walked after that folder's files.
    struct Subfolder {
        let name: String
        let raw: [UInt8]
        let url: URL
    }

    /// Walks by raw path bytes, so names that are not valid UTF-8 are still
    /// reached; `follow` is SOURCE's real path when symlinks are followed.
    static func walk(raw: [UInt8], url: URL, components: [String], excluded: Set<String>, follow root: String?,
                     options: ScanOptions, memory: ScanMemory?, statuses: EntryStatuses, visited: inout Set<DirectoryID>, emit emitOut: (ScanEvent) -> Void) {
        if let kept = memory?.replay(raw) {
            guard visited.insert(kept.id).inserted else { return }
            for event in kept.events { emitOut(event) }
            for folder in kept.subfolders {
                walk(raw: folder.raw, url: folder.url, components: components + [folder.name], excluded: excluded, follow: root,
                     options: options, memory: memory, statuses: statuses, visited: &visited, emit: emitOut)
            }
            return
        }
        // This folder's own events, kept for the next walk when it can be replayed then.
        var recorded: [ScanEvent]? = memory?.records(raw) == true ? [] : nil
        func emit(_ event: ScanEvent) {
            recorded?.append(event)
            emitOut(event)
        }
        let foldersOnly = options.foldersOnly, pairRaw = options.pairRaw
        let cPath = raw.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        var id: DirectoryID?
        if stat(cPath, &info) == 0 {
            // A folder reached twice (a symlink loop, or two links to one place) is walked once.
            id = DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard visited.insert(id!).inserted else { return }
        } else if errno == ENOENT, !components.isEmpty {
            // Removed (or moved away) since its parent was listed: there is
            // nothing of it to publish, and nothing wrong to report.
            return
        }
        let sidecar = url.appendingPathComponent(SourceLayout.albumSidecarName)
        emit(.album(AlbumPath(components: components), sidecar: access(sidecar.path, F_OK) == 0 ? sidecar : nil))
        // opendir/readdir rather than FileManager: cheaper, raw names, and the
        // error is the plain errno text ("Permission denied").
        guard let directory = opendir(cPath) else {
            emit(.unreadable(path: components.joined(separator: "/"), reason: String(cString: strerror(errno))))
            return
        }
        var entries: [(name: String, raw: [UInt8])] = []
        // A Takeout folder's signs, seen in folders-only walks too: JSON files, and the album's own.
        var holdsJSON = false, takeoutAlbumFile: String?
        // An iCloud download's signs: its table of photos, or album tables.
        var holdsPhotoDetails = false, albumTables: [String] = []
        let inAlbumsFolder = components.last.map(ICloudExportNames.isAlbumsFolder) == true
        while let entry = readdir(directory) {
            let bytes = Array(FolderEntries.rawName(of: entry))
            if bytes == [46] || bytes == [46, 46] { continue }
            // Only regular files: a FIFO, a device or a link named `metadata.json` is never opened.
            if bytes.first != 46, let sign = Self.exportSign(bytes), Self.isRegularFile(entry.pointee.d_type, raw + [47] + bytes) {
                let name = String(decoding: bytes, as: UTF8.self)
                if sign == .json {
                    holdsJSON = true
                    if TakeoutFolderNames.isAlbumFile(name) { takeoutAlbumFile = name }
                } else if ICloudExportNames.isPhotoDetails(name) {
                    holdsPhotoDetails = true
                } else if inAlbumsFolder {
                    albumTables.append(name)
                }
            }
            // Listing folders only: an entry the directory says is a plain file needs no stat.
            if foldersOnly, entry.pointee.d_type == UInt8(DT_REG) { continue }
            entries.append((String(decoding: bytes, as: UTF8.self), bytes))
        }
        closedir(directory)
        var folders: [Subfolder] = []
        let visible = entries.filter { !$0.name.hasPrefix(".") }
        // The stills' names, needed only when a video or RAW file is there to pair with one.
        var pairingStills: Set<String>?
        func stillNames() -> Set<String> {
            if let pairingStills { return pairingStills }
            let names = ScanOptions.stillPairingNames(visible.map(\.name))
            pairingStills = names
            return names
        }
        // A video named like a JPEG/HEIC beside it is that still's Live Photo
        // motion: it travels with the still (the first such video, by name).
        var liveClips: [String: SourceFile] = [:]
        var files: [SourceFile] = []
        // Possible sidecars, matched to media once the listing is read.
        var sidecarCandidates: [SourceFile] = []
        // Google Takeout's JSON, each photo's (the album's own is read with the album sidecars).
        var takeoutJSON: [SourceFile] = []
        // An iCloud download's tables of the folder's photos.
        var photoDetails: [SourceFile] = []
        let rawFolder = RawFolder(raw, components: components)
        let sorted = visible.sorted(by: { NaturalOrder.less($0.name, $1.name) })
        // Statuses asked a window of entries at a time: a phone's dump of
        // 1,000,000 photos in one folder would otherwise hold every path and
        // status at once (some 230 bytes an entry).
        var windowStart = 0, childCs: [[CChar]] = [], found: [EntryStatuses.Status?] = []
        for (place, entry) in sorted.enumerated() {
            if place == windowStart + childCs.count {
                windowStart = place
                childCs = sorted[place..<min(sorted.count, place + EntryStatuses.window)].map {
                    (raw + [47] + $0.raw).map { CChar(bitPattern: $0) } + [0]
                }
                found = statuses.of(childCs)
            }
            let childC = childCs[place - windowStart]
            guard var info = found[place - windowStart] else { continue }
            var kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                // Links are not followed unless asked, and then never out of SOURCE.
                guard let root, stat(childC, &info) == 0, let real = realpath(childC, nil) else { continue }
                let target = String(cString: real)
                free(real)
                guard target == root || target.hasPrefix(root + "/") else { continue }
                kind = info.st_mode & S_IFMT
            }
            // Made only for what needs it (a skipped or ignored file): not for every photo.
            var relative: String { rawFolder.relativePath(of: entry.name) }
            if kind == S_IFDIR {
                let childURL = url.appendingPathComponent(entry.name)
                if !excluded.contains(childURL.standardizedFileURL.path) { folders.append(Subfolder(name: entry.name, raw: raw + [47] + entry.raw, url: childURL)) }
                continue
            } else if kind != S_IFREG || foldersOnly {
                continue
            }
            if !options.skippedFiles.isEmpty, options.skippedFiles.contains(relative) { continue }
            let ext = SourceFileTypes.fileExtension(of: entry.name)
            let isVideo = ext.map(SourceFileTypes.videoExtensions.contains) ?? false
            let file = SourceFile(inFolder: url, named: entry.name, byteCount: Int64(info.st_size),
                                  modifiedNanoseconds: FileTime.nanoseconds(info.st_mtim), rawFolder: rawFolder, rawName: entry.raw)
            if !isVideo && !(ext.map(SourceFileTypes.photoExtensions.contains) ?? false) {
                if SourceLayout.isToolFile(entry.name, inRoot: components.isEmpty) { continue }
                if ext.map(SourceFileTypes.sidecarExtensions.contains) == true {
                    sidecarCandidates.append(file)
                } else if ext == "json" {
                    if !TakeoutFolderNames.isAlbumFile(entry.name) { takeoutJSON.append(file) }
                } else if ext == "csv", ICloudExportNames.isPhotoDetails(entry.name) {
                    photoDetails.append(file)
                } else if ext == "csv", inAlbumsFolder {
                    continue  // an album's table, read with the album sidecars
                } else {
                    emit(.ignored(path: relative))
                }
                continue
            }
            let isRaw = ext.map(SourceFileTypes.rawExtensions.contains) == true
            guard isVideo || (pairRaw && isRaw) else {
                files.append(file)
                continue
            }
            let pairing = SourceFileTypes.pairingName(entry.name)
            if pairRaw, isRaw, stillNames().contains(pairing) {
                emit(.pairedRaw(path: relative))
                continue
            }
            if isVideo, stillNames().contains(pairing), liveClips[pairing] == nil {
                liveClips[pairing] = file
            } else {
                files.append(file)
            }
        }
        // Sidecars: `IMG_1.CR2.xmp` belongs to IMG_1.CR2 only; `IMG_1.xmp`,
        // `IMG_1.md`, `IMG_1.txt` to every media file named IMG_1.*.
        var byFullName: [String: [SourceFile]] = [:], byBaseName: [String: [SourceFile]] = [:]
        for sidecar in sidecarCandidates {
            let base = SourceFileTypes.pairingName(sidecar.fileName)
            byBaseName[base, default: []].append(sidecar)
            if SourceFileTypes.fileExtension(of: sidecar.fileName) == "xmp" { byFullName[base, default: []].append(sidecar) }
        }
        if !sidecarCandidates.isEmpty {
            var claimed: Set<String> = []
            for index in files.indices {
                let name = files[index].fileName.lowercased()
                let found = (byFullName[name] ?? []) + (byBaseName[SourceFileTypes.pairingName(name)] ?? [])
                files[index].sidecars = found
                claimed.formUnion(found.map(\.fileName))
            }
            for (_, clip) in liveClips { claimed.formUnion(byBaseName[SourceFileTypes.pairingName(clip.fileName)]?.map(\.fileName) ?? []) }
            for sidecar in sidecarCandidates where !claimed.contains(sidecar.fileName) { emit(.ignored(path: sidecar.relativePath)) }
        }
        if holdsPhotoDetails { emit(.iCloudLibraryFolder(AlbumPath(components: components))) }
        for table in albumTables.sorted() {
            let stem = table.lowercased().hasSuffix(".csv") ? String(table.dropLast(4)) : table
            emit(.iCloudAlbum(AlbumPath(components: components + [stem]), table: url.appendingPathComponent(table)))
        }
        let isYearFolder = holdsJSON && components.last.map(TakeoutFolderNames.isYearFolder) == true
        if let takeoutAlbumFile {
            emit(.takeoutAlbum(AlbumPath(components: components), metadata: url.appendingPathComponent(takeoutAlbumFile)))
        } else if isYearFolder {
            emit(.takeoutYearFolder(AlbumPath(components: components)))
        }
        let takeout = foldersOnly ? nil : matchTakeoutJSON(takeoutJSON, to: &files, clips: liveClips,
                                                           isTakeoutFolder: takeoutAlbumFile != nil || isYearFolder, emit: emit)
        // Every photo of the folder reads its row of the tables (a build parses each table once).
        if !photoDetails.isEmpty { for index in files.indices { files[index].sidecars += photoDetails } }
        // Emitted after the listing so a still meets its clip whatever their order.
        for var file in files {
            if !liveClips.isEmpty, SourceFileTypes.isPairingStill(file.fileName),
               let clip = liveClips.removeValue(forKey: SourceFileTypes.pairingName(file.fileName)) {
                file.livePhotoClip = clip
            }
            emit(.media(file))
        }
        // A clip whose still turned out to be something else (a second still
        // of the same name took it already): published on its own.
        for clip in liveClips.values.sorted(by: { NaturalOrder.less($0.fileName, $1.fileName) }) { emit(.media(clip)) }
        if let takeout { emit(.takeoutFolder(takeout)) }
        if !photoDetails.isEmpty { emit(.iCloudFolder(media: files.count, tables: photoDetails.count)) }
        if let recorded, let id, let memory { memory.record(raw, ScanMemory.Folder(id: id, events: recorded, subfolders: folders)) }
        for folder in folders {
            walk(raw: folder.raw, url: folder.url, components: components + [folder.name], excluded: excluded, follow: root,
                 options: options, memory: memory, statuses: statuses, visited: &visited, emit: emitOut)
        }
    }
}

extension SourceScanner {
    /// Gives each media file of a folder its Takeout JSON (a sidecar, so an
    /// edit of it re-reads the photo) and reports the JSON no file takes as
    /// ignored. A Live Photo's clip takes its own JSON, which goes unread:
    /// the still's speaks for both. Returns the folder's tally when it is a
    /// Takeout folder (a JSON matched, an album's JSON or a year folder).
    static func matchTakeoutJSON(_ json: [SourceFile], to files: inout [SourceFile], clips: [String: SourceFile],
                                 isTakeoutFolder: Bool, emit: (ScanEvent) -> Void) -> TakeoutTally? {
        guard !json.isEmpty || isTakeoutFolder else { return nil }
        let matching = TakeoutSidecarNames.match(media: files.map(\.fileName) + clips.values.map(\.fileName), json: json.map(\.fileName))
        let byName = Dictionary(json.map { ($0.fileName, $0) }, uniquingKeysWith: { first, _ in first })
        var tally = TakeoutTally(jsonWithoutMedia: matching.unmatchedJSON.count, ambiguousJSON: matching.ambiguousJSON.count)
        for index in files.indices {
            if let name = matching.jsonByMedia[files[index].fileName], let sidecar = byName[name] {
                files[index].sidecars.append(sidecar)
                tally.matched += 1
            } else {
                tally.mediaWithoutJSON += 1
            }
        }
        for name in matching.unmatchedJSON + matching.ambiguousJSON {
            if let file = byName[name] { emit(.ignored(path: file.relativePath)) }
        }
        return tally.matched > 0 || isTakeoutFolder ? tally : nil
    }
}

extension SourceScanner {
    /// The kinds of file that make a folder an export's.
    enum ExportSign { case json, csv }

    /// `.json` or `.csv` (any letter case) at the end of a name's bytes, else nil.
    static func exportSign(_ name: [UInt8]) -> ExportSign? {
        func ends(with suffix: String) -> Bool {
            let tail = Array(suffix.utf8)
            return name.count > tail.count && zip(name.suffix(tail.count), tail).allSatisfy { $0 | 0x20 == $1 }
        }
        return ends(with: ".json") ? .json : ends(with: ".csv") ? .csv : nil
    }

    /// Whether a directory entry is a regular file: its `d_type`, or an `lstat` where the file system does not say.
    static func isRegularFile(_ type: UInt8, _ path: [UInt8]) -> Bool {
        if type != UInt8(DT_UNKNOWN) { return type == UInt8(DT_REG) }
        var info = stat()
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        return lstat(cPath, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}

