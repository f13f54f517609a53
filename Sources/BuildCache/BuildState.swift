import Foundation
import GalleryCore

/// What the previous build knew about one source file, so an unchanged file
/// (same size and modification time) is never read again.
public struct CachedPhoto: Codable, Sendable, Equatable {
    /// File size in bytes.
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
    /// Content hash of the bytes.
    public var contentHash: String
    /// Metadata, without GPS: the state lives in OUT, which is published.
    public var metadata: PhotoMetadata

    /// Creates an entry (GPS is dropped).
    public init(size: Int64, modified: Int64, contentHash: String, metadata: PhotoMetadata) {
        self.size = size
        self.modified = modified
        self.contentHash = contentHash
        var stripped = metadata
        stripped.gps = nil
        self.metadata = stripped
    }
}

/// Everything a build remembers between runs, in one versioned file:
/// `OUT/.gallerygen/state.json`.
///
/// - `files`: every file the build produced in OUT. Only these (and files a
///   crashed build journaled) are ever deleted, so a user's own files stay.
/// - `photos`: the per-file cache, keyed by a hash of the source path so the
///   published state does not list the library's file names.
/// - `siteFingerprint`: a hash of everything the pages are made from; when it
///   matches and every file is present, pages are not even rendered.
///
/// An unreadable file or another version means a full rebuild, never a wrong site.
public struct BuildState: Codable, Sendable, Equatable {
    /// Format version; bump when the layout or meaning changes.
    public static let currentVersion = 2
    /// The folder in OUT that holds build state.
    public static let folderName = ".gallerygen"

    /// Version read from disk.
    public var version: Int
    /// Paths (relative to OUT) of every produced file, sorted.
    public var files: [String]
    /// Source cache by hashed source path.
    public var photos: [String: CachedPhoto]
    /// Fingerprint of the page inputs.
    public var siteFingerprint: String

    /// An empty state.
    public init(files: [String] = [], photos: [String: CachedPhoto] = [:], siteFingerprint: String = "") {
        self.version = Self.currentVersion
        self.files = files.sorted()
        self.photos = photos
        self.siteFingerprint = siteFingerprint
    }

    /// The cache key of a source path.
    public static func key(for relativePath: String) -> String {
        var hasher = StableHash()
        hasher.update(relativePath)
        return String(hasher.finalize().prefix(24))
    }

    static func location(in output: URL) -> URL {
        output.appendingPathComponent(folderName).appendingPathComponent("state.json")
    }

    /// The previous build's state, or an empty one when there is none, it is
    /// unreadable, or it is of another version.
    public static func load(from output: URL) -> BuildState {
        guard let data = try? Data(contentsOf: location(in: output)),
              let state = try? JSONDecoder().decode(BuildState.self, from: data),
              state.version == currentVersion
        else { return BuildState() }
        return state
    }

    /// The encoded bytes (sorted keys: the same state always gives the same bytes).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Commits the state atomically (temporary file, then rename); skipped when
    /// the file already holds exactly these bytes, so a no-op build writes nothing.
    public func save(to output: URL) throws {
        let url = Self.location(in: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try encoded()
        if let existing = try? Data(contentsOf: url), existing == data { return }
        try data.write(to: url, options: .atomic)
    }
}
