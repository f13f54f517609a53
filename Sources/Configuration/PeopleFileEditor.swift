import Foundation
import GalleryCore

/// Adds a face to a person in people.yml's text, as the review page of
/// `gallerygen serve` does when a group is named: a new person is a line at
/// the end (`Grandma: 2019/IMG_0012.jpg`); a person already there gets the
/// face among their `photos:`. The rest of the file (comments, order, other
/// entries) is left as it was, and the result must read back as people.yml.
public enum PeopleFileEditor {
    /// Why the file cannot be edited for the reviewer (it must be by hand).
    public struct EditError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `text` with `reference` added to `name` (a new entry when no entry
    /// or spelling of it exists).
    public static func adding(_ reference: FaceReference, to rawName: String, in text: String) throws -> String {
        guard let name = FaceRegion.cleanName(rawName).name else { throw EditError(description: "a name must be 1 to 200 characters") }
        let list = text.isEmpty ? PeopleList() : try PeopleFile.parse(text)
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let item = quoted(reference.description)
        if let index = list.entryByKey[FaceRegion.personKey(name)] {
            let entry = list.entries[index]
            guard let keyLine = lines.firstIndex(where: { isKey($0, of: entry.name) }) else {
                throw EditError(description: "people.yml: \(entry.name)'s entry could not be found to add \(reference) to it: add it by hand")
            }
            let line = lines[keyLine]
            let value = line[line.index(after: line.firstIndex(of: ":")!)...].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty && !value.hasPrefix("#") {
                // The short form: `Name: photo` becomes `Name:` with both photos.
                guard entry.photos.count == 1, value.first != "[" else {
                    throw EditError(description: "people.yml: \(entry.name)'s line is not one this page can edit: add \(reference) to it by hand")
                }
                lines[keyLine] = String(line[...line.firstIndex(of: ":")!])
                lines.insert("  photos: [\(quoted(entry.photos[0].description)), \(item)]", at: keyLine + 1)
            } else {
                // The long form: into its `photos: [...]` line, or a new one.
                var end = keyLine + 1
                while end < lines.count, lines[end].isEmpty || lines[end].first == " " || lines[end].first == "#" { end += 1 }
                if let photos = (keyLine + 1..<end).first(where: { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("photos:") }) {
                    let trimmed = lines[photos].trimmingCharacters(in: .whitespaces)
                    guard trimmed.hasSuffix("]"), trimmed.contains("[") else {
                        throw EditError(description: "people.yml: \(entry.name)'s photos are not one [list] on one line: add \(reference) by hand")
                    }
                    let open = lines[photos].lastIndex(of: "]")!
                    let inside = lines[photos][lines[photos].index(after: lines[photos].firstIndex(of: "[")!)..<open]
                    let separator = inside.trimmingCharacters(in: .whitespaces).isEmpty ? "" : ", "
                    lines[photos].insert(contentsOf: separator + item, at: open)
                } else {
                    let indent = (keyLine + 1..<end).lazy.map { lines[$0] }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                        .map { String($0.prefix { $0 == " " }) } ?? "  "
                    lines.insert("\(indent.isEmpty ? "  " : indent)photos: [\(item)]", at: keyLine + 1)
                }
            }
        } else {
            lines.append("\(quoted(name)): \(item)")
        }
        let edited = lines.joined(separator: "\n") + "\n"
        // Read back: the edit must say what was meant, or nothing is written.
        let after = try PeopleFile.parse(edited)
        guard let index = after.entryByKey[FaceRegion.personKey(name)], after.entries[index].photos.contains(reference),
              after.entries.count == list.entries.count + (list.entryByKey[FaceRegion.personKey(name)] == nil ? 1 : 0) else {
            throw EditError(description: "people.yml could not be edited safely: add \(name): \(reference) by hand")
        }
        return edited
    }

    /// Whether `line` is the key line of the entry `name` (plain or quoted).
    static func isKey(_ line: String, of name: String) -> Bool {
        guard let first = line.first, first != " ", first != "#", first != "\t" else { return false }
        return line.hasPrefix(name + ":") || line.hasPrefix(quoted(name) + ":") || line.hasPrefix("'\(name)':")
    }

    /// `text` as a YAML scalar: plain when that reads back the same, else double-quoted.
    static func quoted(_ text: String) -> String {
        let special = CharacterSet(charactersIn: ":#[]{},&*!|>'\"%@`\\")
        let plain = !text.isEmpty && text.rangeOfCharacter(from: special) == nil && text == text.trimmingCharacters(in: .whitespaces)
            && !["-", "?", "~"].contains(text.first.map(String.init) ?? "") && !["true", "false", "yes", "no", "null", "on", "off"].contains(text.lowercased())
            && Double(text) == nil
        if plain { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }

    /// Writes `text` as `source`'s people.yml (atomically: a reader never
    /// sees half a file), after reading it back as people.yml.
    public static func save(_ text: String, source: URL) throws {
        _ = try PeopleFile.parse(text)
        try Data(text.utf8).write(to: source.appendingPathComponent(PeopleList.fileName), options: .atomic)
    }
}
