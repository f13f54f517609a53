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
/// private: true     # published only encrypted, it and the albums below it
/// passphrase_file: ../secrets/family.txt   # relative to this file, outside OUT
/// photos:           # words for single photos, by file name
///   IMG_1234.jpg:
///     title: The summit
///     caption: We made it at noon.
///     keywords: [mountains, friends]
///     stack: cover  # cover of its stack | alone: never stacked
/// stacks:           # the site's stack rules, for this album
///   bursts: false
///   edits: true
/// ```
public enum AlbumSidecar {
    /// The sidecar's file name.
    public static let fileName = SourceLayout.albumSidecarName
    static let knownKeys = ["title", "description", "cover", "sort", "order", "hidden", "private", "passphrase_file", "photos", "stacks"]
    static let knownPhotoKeys = ["title", "caption", "keywords", "stack"]
    static let knownStackKeys = ["bursts", "edits", "near_duplicates"]

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
        var privateLine: Int?
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
                settings.coverLine = line
            case "sort": settings.sort = try reader.choice(key, value, [("date", .date), ("name", .name)])
            case "order": settings.order = try reader.choice(key, value, [("ascending", .ascending), ("descending", .descending)])
            case "hidden": settings.hidden = try reader.bool(key, value)
            case "private":
                settings.isPrivate = try reader.bool(key, value)
                privateLine = line
            case "passphrase_file":
                let path = try reader.string(key, value)
                guard !path.isEmpty else { throw reader.fail(key, value, "must name the file that holds the passphrase") }
                settings.passphraseFile = path
                settings.passphraseLine = line
            case "photos":
                for (name, entry, _) in try reader.entries(value, path: key) {
                    let fileName = String(name.dropFirst(key.count + 1))
                    var words = PhotoWords(), hasWords = false
                    for (field, fieldValue, fieldLine) in try reader.entries(entry, path: name) {
                        if field.dropFirst(name.count + 1) == "stack" {
                            settings.stackChoices[fileName] = try reader.choice(field, fieldValue, [("cover", StackChoice.cover), ("alone", .alone)])
                            continue
                        }
                        hasWords = true
                        switch String(field.dropFirst(name.count + 1)) {
                        case "title": words.title = PhotoWords.cleanText(try reader.string(field, fieldValue), maximumLength: 300, boilerplateAllowed: true)
                        case "caption": words.caption = PhotoWords.cleanText(try reader.string(field, fieldValue), boilerplateAllowed: true)
                        case "keywords":
                            let list = fieldValue.sequence.map { Array($0) } ?? [fieldValue]
                            var keywords: [String] = []
                            for item in list { keywords += try reader.string(field, item).split(separator: ",").compactMap { PhotoWords.cleanKeyword(String($0)) } }
                            words.keywords = PhotoWords.merged([], keywords)
                        default: throw reader.unknown(field, fieldLine, known: knownPhotoKeys)
                        }
                    }
                    if hasWords { settings.photoWords[fileName] = words }
                }
            case "stacks":
                for (field, fieldValue, fieldLine) in try reader.entries(value, path: key) {
                    switch String(field.dropFirst(key.count + 1)) {
                    case "bursts": settings.stackBursts = try reader.bool(field, fieldValue)
                    case "edits": settings.stackEdits = try reader.bool(field, fieldValue)
                    case "near_duplicates": settings.stackNearDuplicates = try reader.bool(field, fieldValue)
                    default: throw reader.unknown(field, fieldLine, known: knownStackKeys)
                    }
                }
            default: throw reader.unknown(key, line, known: knownKeys)
            }
        }
        // A private album without a passphrase would have to be published
        // in plain or not at all: neither is what its owner asked for.
        if settings.isPrivate, settings.passphraseFile == nil {
            throw ConfigError(file: file, line: privateLine, key: "private",
                              message: "a private album needs passphrase_file: the file (outside OUT) that holds its passphrase")
        }
        return settings
    }
}
