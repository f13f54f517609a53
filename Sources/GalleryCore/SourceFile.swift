import Foundation

/// A photo or video file found in the source tree, before it is read.
public struct SourceFile: Hashable, Sendable {
    /// Where it is: its own URL, or its folder's (the scanner's files: a URL
    /// made for each of 100,000 files was a tenth of a no-op build, and most
    /// are never opened). Plain fields, not an enum with payloads: a case kept
    /// in a pointer's spare bits hides the URL from LeakSanitizer, which then
    /// reports the items alive when a build is stopped by a signal.
    private var location: URL

    /// Absolute path on disk.
    public var url: URL { rare?.locationIsFile == true ? location : location.appendingPathComponent(fileName) }
    /// The path's exact bytes, NUL-terminated: a name that is not valid UTF-8
    /// cannot survive a round trip through `String`, so files are opened by these.
    public var rawPath: [CChar] {
        var bytes = folder.bytes
        bytes.append(47)
        bytes += rare?.rawName ?? Array(fileName.utf8)
        bytes.append(0)
        return bytes.map { CChar(bitPattern: $0) }
    }
    /// The folder: its path bytes and its place below SOURCE, shared by every
    /// file the scanner finds in it (a path of ~170 bytes per file was 17 MB
    /// at 100,000 items; an array of components per file a few MB more).
    private var folder: RawFolder
    /// `a/b/c.jpg` (names that are not valid UTF-8 show U+FFFD): made once.
    /// Every step keys items by it, and joining the components again for
    /// each use was a twentieth of planning 100,000 items.
    public let relativePath: String
    /// Path components below SOURCE, the last being the file name.
    public var relativeComponents: [String] { folder.components + [fileName] }
    /// File size in bytes.
    public var byteCount: Int64
    /// Modification time, made from `modifiedNanoseconds` when asked for (a
    /// copy of it in each of a million items and deferred files was 16 MB).
    public var modificationDate: Date {
        let (seconds, rest) = modifiedNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(rest) / 1e9)
    }
    /// Modification time in nanoseconds since 1970, exactly as the file system
    /// reports it (the cache compares this, not a rounded Date).
    public var modifiedNanoseconds: Int64

    /// What few files have, in one box (nil for most: inline, these were
    /// 40 of a source file's 80 bytes, held for every item all build long).
    private var rare: Rare?

    private final class Rare: Hashable, Sendable {
        /// `location` is the file's own URL, not its folder's.
        let locationIsFile: Bool
        /// The name's bytes when `fileName` does not hold them exactly (not UTF-8).
        let rawName: [UInt8]?
        /// The Live Photo motion clip (a `.MOV` of the same name beside a
        /// JPEG/HEIC), found by the scanner. Kept in an array because a
        /// struct cannot hold an optional of itself.
        let clip: [SourceFile]
        let sidecars: [SourceFile]

        init(locationIsFile: Bool, rawName: [UInt8]?, clip: [SourceFile], sidecars: [SourceFile]) {
            self.locationIsFile = locationIsFile
            self.rawName = rawName
            self.clip = clip
            self.sidecars = sidecars
        }

        /// A box of these, or nil when they are all a plain file's.
        static func of(locationIsFile: Bool, rawName: [UInt8]?, clip: [SourceFile], sidecars: [SourceFile]) -> Rare? {
            guard locationIsFile || rawName != nil || !clip.isEmpty || !sidecars.isEmpty else { return nil }
            return Rare(locationIsFile: locationIsFile, rawName: rawName, clip: clip, sidecars: sidecars)
        }

        static func == (a: Rare, b: Rare) -> Bool {
            a === b || (a.locationIsFile == b.locationIsFile && a.rawName == b.rawName && a.clip == b.clip && a.sidecars == b.sidecars)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(locationIsFile)
            hasher.combine(rawName)
            hasher.combine(clip)
            hasher.combine(sidecars)
        }
    }

    /// Sidecar files with words about this item, found by the scanner:
    /// `NAME.xmp` / `NAME.ext.xmp` (Lightroom, darktable, digiKam) and
    /// `NAME.md` / `NAME.txt` (a caption, as sigal reads them).
    public var sidecars: [SourceFile] {
        get { rare?.sidecars ?? [] }
        set { rare = Rare.of(locationIsFile: rare?.locationIsFile ?? false, rawName: rare?.rawName, clip: rare?.clip ?? [], sidecars: newValue) }
    }

    /// The Live Photo motion clip that goes with this still, if any.
    public var livePhotoClip: SourceFile? {
        get { rare?.clip.first }
        set {
            rare = Rare.of(locationIsFile: rare?.locationIsFile ?? false, rawName: rare?.rawName, clip: newValue.map { [$0] } ?? [],
                           sidecars: rare?.sidecars ?? [])
        }
    }

    /// Creates a record.
    public init(url: URL, relativeComponents: [String], byteCount: Int64, modificationDate: Date, modifiedNanoseconds: Int64? = nil) {
        self.location = url
        self.folder = RawFolder(Array(url.deletingLastPathComponent().path.utf8), components: Array(relativeComponents.dropLast()))
        self.rare = Rare.of(locationIsFile: true, rawName: relativeComponents.last == url.lastPathComponent ? nil : Array(url.lastPathComponent.utf8),
                            clip: [], sidecars: [])
        self.relativePath = relativeComponents.joined(separator: "/")
        self.byteCount = byteCount
        self.modifiedNanoseconds = modifiedNanoseconds ?? Int64(modificationDate.timeIntervalSince1970 * 1e9)
    }

    /// Creates a record of the file `name` found in `folder` (its URL is
    /// made when asked for), whose path bytes are `rawFolder`'s, a slash and `rawName`.
    public init(inFolder folder: URL, named name: String, byteCount: Int64, modifiedNanoseconds: Int64, rawFolder: RawFolder, rawName: [UInt8]) {
        self.location = folder
        self.folder = rawFolder
        self.rare = Rare.of(locationIsFile: false, rawName: rawName.elementsEqual(name.utf8) ? nil : rawName, clip: [], sidecars: [])
        self.relativePath = rawFolder.relativePath(of: name)
        self.byteCount = byteCount
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The album (folder) path: every component but the file name.
    public var albumPath: AlbumPath { folder.albumPath }

    /// The file name.
    public var fileName: String { String(Substring(relativePath.utf8.dropFirst(folder.relativePrefix.utf8.count))) }

    /// The file name without its extension (from the last "."): what names
    /// its page and finds it in search. An ASCII name (most camera names) is
    /// searched byte by byte, not character by character: 100,000 a build.
    public var fileStem: String {
        let name = fileName
        let dot = name.utf8.allSatisfy { $0 < 0x80 } ? name.utf8.lastIndex(of: UInt8(ascii: ".")) : name.lastIndex(of: ".")
        return dot.map { String(name[..<$0]) } ?? name
    }

    /// The path for one-line messages: control characters (a newline in a
    /// file name) are shown escaped so a message stays on one line.
    public var displayPath: String { DisplayText.oneLine(relativePath) }
}

/// A folder of the source tree: its path bytes, exactly as the file system
/// gave them, and its place below SOURCE (the album it is), shared by its files.
public final class RawFolder: Hashable, Sendable {
    public let bytes: [UInt8]
    /// The album: the folder names below SOURCE.
    public let albumPath: AlbumPath
    /// `a/b/` (empty for SOURCE itself): a file's relative path is this and its name.
    let relativePrefix: String

    /// The relative path (`a/b/c.jpg`) of the file `name` in this folder,
    /// in a string of exactly its length: every item holds one, and one
    /// grown by appending the name had room for twice the prefix.
    public func relativePath(of name: String) -> String {
        var prefix = relativePrefix, name = name
        return prefix.withUTF8 { prefix in
            name.withUTF8 { name in
                String(unsafeUninitializedCapacity: prefix.count + name.count) { out in
                    _ = out.initialize(fromContentsOf: prefix)
                    _ = UnsafeMutableBufferPointer(rebasing: out[prefix.count...]).initialize(fromContentsOf: name)
                    return prefix.count + name.count
                }
            }
        }
    }

    public init(_ bytes: [UInt8], components: [String]) {
        self.bytes = bytes
        albumPath = AlbumPath(components: components)
        relativePrefix = components.isEmpty ? "" : components.joined(separator: "/") + "/"
    }

    var components: [String] { albumPath.components }

    public static func == (a: RawFolder, b: RawFolder) -> Bool { a === b || (a.bytes == b.bytes && a.albumPath == b.albumPath) }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}

/// The position of an album in the source tree; the root album has no components.
public struct AlbumPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Folder names below SOURCE.
    public var components: [String]

    /// Creates a path.
    public init(components: [String]) { self.components = components }

    /// The root of the source tree.
    public static let root = AlbumPath(components: [])

    /// True for the root.
    public var isRoot: Bool { components.isEmpty }

    /// The containing album, nil for the root.
    public var parent: AlbumPath? { isRoot ? nil : AlbumPath(components: Array(components.dropLast())) }

    /// The folder's own name (empty for the root).
    public var name: String { components.last ?? "" }

    /// Orders like a sorted folder listing.
    public static func < (a: AlbumPath, b: AlbumPath) -> Bool {
        a.components.lexicographicallyPrecedes(b.components) { NaturalOrder.less($0, $1) }
    }

    /// `a/b`, for messages.
    public var description: String { components.joined(separator: "/") }
}
