import Foundation
import GalleryCore
import Yams

/// Reads `people.yml`, beside gallery.yml in SOURCE:
///
/// ```yaml
/// Marie Curie:
///   also: [Marie Sklodowska, marie curie-sklodowska]   # other spellings, merged into this name
///   avatar: 1903/lab.jpg                               # the photo whose face of her is her avatar
/// Uncle Bob:
///   hidden: true                                       # never published anywhere
/// Grandma: 2019/Beach/IMG_0012.jpg                     # faces found (`faces: auto`): her group is that photo's largest face's
/// Tom:
///   photos: [2020/IMG_1.jpg#2, 2021/IMG_9.jpg]         # two groups that are him (#2: the second largest face)
///   not: [2021/IMG_77.jpg]                             # a face grouped with him that is someone else
/// ```
public enum PeopleFile {
    static let knownKeys = ["also", "avatar", "hidden", "photos", "not"]

    /// The list in `source`'s people.yml; an empty list when there is none.
    public static func load(source: URL) throws(ConfigError) -> PeopleList {
        let url = source.appendingPathComponent(PeopleList.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return PeopleList() }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigError(file: PeopleList.fileName, line: nil, key: nil, message: "cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self))
    }

    /// Parses people.yml's text.
    public static func parse(_ text: String, file: String = PeopleList.fileName) throws(ConfigError) -> PeopleList {
        let reader = YAMLReader(file: file)
        var list = PeopleList()
        var claimed: [String: String] = [:]
        func claim(_ spelling: String, by name: String, key: String, line: Int?) throws(ConfigError) {
            let folded = FaceRegion.personKey(spelling)
            if let owner = claimed[folded] {
                throw ConfigError(file: file, line: line, key: key,
                                  message: owner == name ? "'\(spelling)' is this person's name already"
                                      : "'\(spelling)' is already \(owner)'s: one spelling names one person")
            }
            claimed[folded] = name
        }
        for (rawName, value, line) in try reader.mapping(text) {
            let cleaned = FaceRegion.cleanName(rawName)
            guard let name = cleaned.name else {
                throw ConfigError(file: file, line: line, key: rawName,
                                  message: "a person's name must be 1 to \(FaceRegion.maximumNameLength) characters with no control characters")
            }
            try claim(name, by: name, key: rawName, line: line)
            var entry = PeopleList.Entry(name: name)
            func references(_ key: String, _ field: Node, _ fieldLine: Int?) throws(ConfigError) -> [FaceReference] {
                var found: [FaceReference] = []
                for item in field.sequence.map({ Array($0) }) ?? [field] {
                    guard let reference = FaceReference(parsing: try reader.string(key, item)) else {
                        throw reader.fail(key, item, "must be the path of a photo below SOURCE, with #2, #3… for its second, third… largest face")
                    }
                    found.append(reference)
                }
                return found
            }
            if let scalar = value.scalar, !(scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null") {
                // The short form: `Grandma: 2019/Beach/IMG_0012.jpg`.
                entry.photos = try references(rawName, value, line)
            } else if value.sequence != nil {
                entry.photos = try references(rawName, value, line)
            } else if value.mapping != nil {
                for (key, field, fieldLine) in try reader.entries(value, path: rawName) {
                    switch String(key.dropFirst(rawName.count + 1)) {
                    case "also":
                        for item in field.sequence.map({ Array($0) }) ?? [field] {
                            let spelling = try reader.string(key, item)
                            guard let other = FaceRegion.cleanName(spelling).name else {
                                throw reader.fail(key, item, "each other spelling must be a name")
                            }
                            try claim(other, by: name, key: key, line: item.mark?.line ?? fieldLine)
                            entry.also.append(other)
                        }
                    case "avatar":
                        let path = try reader.string(key, field).trimmingCharacters(in: .whitespaces)
                        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                            throw reader.fail(key, field, "must be the path of a photo below SOURCE (like 2019/Beach/IMG_0012.jpg)")
                        }
                        entry.avatar = path
                    case "hidden": entry.hidden = try reader.bool(key, field)
                    case "photos": entry.photos += try references(key, field, fieldLine)
                    case "not": entry.not += try references(key, field, fieldLine)
                    default: throw reader.unknown(key, fieldLine, known: knownKeys)
                    }
                }
            }
            list.entries.append(entry)
        }
        return list
    }
}
