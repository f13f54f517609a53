import Foundation

/// The list of files gallerygen wrote into OUT, kept in `OUT/.gallerygen/`.
///
/// It is how ownership works: a later build deletes only files listed here that
/// it no longer produces, so a user's own files in OUT (`CNAME`, `robots.txt`)
/// are never touched. It carries a version: an unknown or unreadable manifest
/// is treated as absent (nothing is deleted, everything is rewritten).
public struct BuildManifest: Codable, Sendable, Equatable {
    /// Format version of this file.
    public static let currentVersion = 1
    /// The folder inside OUT that holds build state.
    public static let folderName = ".gallerygen"

    /// Version read from disk.
    public var version: Int
    /// Paths relative to OUT of every file the build produced.
    public var files: Set<String>

    /// An empty manifest.
    public init(files: Set<String> = []) {
        self.version = Self.currentVersion
        self.files = files
    }

    static func location(in output: URL) -> URL {
        output.appendingPathComponent(folderName).appendingPathComponent("manifest.json")
    }

    /// The manifest of the previous build, or an empty one when there is none or
    /// it is unreadable or of another version.
    public static func load(from output: URL) -> BuildManifest {
        guard let data = try? Data(contentsOf: location(in: output)),
              let manifest = try? JSONDecoder().decode(BuildManifest.self, from: data),
              manifest.version == currentVersion
        else { return BuildManifest() }
        return manifest
    }

    /// Writes the manifest atomically (temporary file, then rename).
    public func save(to output: URL) throws {
        let url = Self.location(in: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
