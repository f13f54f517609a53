import Foundation
import GalleryCore

/// Reads `album.yml`, the optional sidecar in an album folder:
///
/// ```yaml
/// title: Iceland, summer 2024
/// description: |
///   Ten days around the **Ring Road**.
/// cover: IMG_1234.jpg
/// sort: date        # date | name
/// order: ascending  # ascending | descending
/// hidden: false     # unlisted: not in listings or moments (still reachable by URL)
/// ```
public enum AlbumSidecar {
    /// The sidecar's file name.
    public static let fileName = SourceLayout.albumSidecarName
    static let knownKeys = ["title", "description", "cover", "sort", "order", "hidden"]

    /// Reads a sidecar file; `displayName` names it in errors (e.g. `Trips/album.yml`).
    public static func load(_ url: URL, displayName: String) throws(ConfigError) -> AlbumSettings {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigError(file: displayName, line: nil, key: nil, message: "cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: displayName)
    }

    /// Parses sidecar YAML.
    public static func parse(_ text: String, file: String = fileName) throws(ConfigError) -> AlbumSettings {
        let reader = YAMLReader(file: file)
        var settings = AlbumSettings()
        for (key, value, line) in try reader.mapping(text) {
            switch key {
            case "title": settings.title = try reader.string(key, value)
            case "description": settings.description = try reader.string(key, value)
            case "cover":
                let name = try reader.string(key, value)
                // A cover is a photo of this folder, named by its file name: no
                // paths, so nothing outside the album can be referenced.
                guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != ".", name != ".." else {
                    throw reader.fail(key, value, "must be the file name of a photo in this folder, not a path")
                }
                settings.cover = name
            case "sort": settings.sort = try reader.choice(key, value, [("date", .date), ("name", .name)])
            case "order": settings.order = try reader.choice(key, value, [("ascending", .ascending), ("descending", .descending)])
            case "hidden": settings.hidden = try reader.bool(key, value)
            default: throw reader.unknown(key, line, known: knownKeys)
            }
        }
        return settings
    }
}
