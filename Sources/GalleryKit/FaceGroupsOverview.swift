import Faces
import Foundation
import GalleryCore
import SiteOutput

/// The groups of faces the last build left in the state folder, as
/// `gallerygen people` lists them and the review page shows them: largest
/// first, each with its name (people.yml as it is now, else the last
/// build's) and its faces as people.yml points at them (`path#rank`).
public struct FaceGroupsOverview: Sendable {
    public struct Group: Sendable, Equatable {
        public var id: Int
        public var name: String?
        /// The group's faces, most confident first.
        public var faces: [FaceReference]
        /// Their boxes in the upright photos, in the same order.
        public var boxes: [NormalizedRect]
    }

    public var groups: [Group]
    /// Faces found but too small or blurred to group, with their boxes.
    public var ungroupedFaces: [(FaceReference, NormalizedRect)]
    public var ungrouped: Int { ungroupedFaces.count }
    /// What people.yml asks that cannot be done.
    public var problems: [String]

    /// The overview of the table in `stateFolder`; nil when there is none
    /// (no build with `faces: auto` yet).
    public static func load(stateFolder: URL, people: PeopleList) -> FaceGroupsOverview? {
        guard let data = try? Data(contentsOf: stateFolder.appendingPathComponent(FaceLibrary.fileName)),
              let library = FaceLibrary(decoding: [UInt8](data)) else { return nil }
        return FaceGroupsOverview(library, people: people)
    }

    init(_ library: FaceLibrary, people: PeopleList) {
        var hashByPath: [String: String] = [:]
        for (hash, path) in library.paths { hashByPath[path] = hash }
        let naming = FaceNaming(library: library, people: people, tagged: [:], hashOf: { hashByPath[$0] })
        problems = naming.problems
        var result: [Group] = []
        for (id, members) in library.members {
            var picked: [(FaceReference, NormalizedRect, Float)] = []
            for member in members {
                guard let path = library.paths[member.photo], let faces = library.photos[member.photo] else { continue }
                let rank = (FaceNaming.ranked(faces).firstIndex(of: member.index) ?? 0) + 1
                picked.append((FaceReference(path: path, rank: rank), faces[member.index].face.box, faces[member.index].face.score))
            }
            picked.sort { ($0.2, $1.0.description) > ($1.2, $0.0.description) }
            result.append(Group(id: id, name: naming.names[id] ?? library.names[id], faces: picked.map(\.0), boxes: picked.map(\.1)))
        }
        groups = result.sorted { ($0.faces.count, $1.id) > ($1.faces.count, $0.id) }
        var alone: [(FaceReference, NormalizedRect)] = []
        for (hash, faces) in library.photos {
            guard let path = library.paths[hash] else { continue }
            let order = FaceNaming.ranked(faces)
            for (index, entry) in faces.enumerated() where entry.group == nil {
                alone.append((FaceReference(path: path, rank: (order.firstIndex(of: index) ?? 0) + 1), entry.face.box))
            }
        }
        ungroupedFaces = alone.sorted { $0.0.description < $1.0.description }
    }

    /// The listing `gallerygen people` prints.
    public func text(examples: Int = 4) -> String {
        let named = groups.filter { $0.name != nil }, unnamed = groups.filter { $0.name == nil && $0.faces.count >= 2 }
        let alone = groups.count { $0.name == nil && $0.faces.count < 2 }
        var lines = ["\(BuildReport.count(groups.count - alone, "group")) of faces (\(named.count) named), largest first:"]
        for group in named + unnamed {
            // Paths and names are the library's: shown on one line, control characters escaped.
            let shown = group.faces.prefix(examples).map { DisplayText.oneLine($0.description) }.joined(separator: ", ")
            let more = group.faces.count > examples ? ", …" : ""
            let title = group.name.map(DisplayText.oneLine) ?? "unnamed group \(group.id)"
            lines.append("  \(title): \(BuildReport.count(group.faces.count, "photo")): \(shown)\(more)")
        }
        if alone > 0 { lines.append("\(BuildReport.count(alone, "face")) seen in one photo only, not listed.") }
        if ungrouped > 0 { lines.append("\(BuildReport.count(ungrouped, "face")) too small or blurred to group.") }
        if let first = unnamed.first, let photo = first.faces.first {
            lines.append("Name a group in people.yml by one of its photos, e.g.:  Someone: \(DisplayText.oneLine(photo.description))")
        }
        for problem in problems { lines.append("warning: " + DisplayText.oneLine(problem)) }
        return lines.joined(separator: "\n")
    }

    /// Every group with its faces and their boxes (x, y, width, height in
    /// the upright photo, 0…1), as JSON.
    public var json: String {
        struct Face: Encodable {
            var photo: String
            var rank: Int
            var box: [Double]
        }
        struct Entry: Encodable {
            var id: Int
            var name: String?
            var faces: [Face]
        }
        struct Listing: Encodable {
            var groups: [Entry]
            var ungrouped: [Face]
            var problems: [String]
        }
        let listing = Listing(groups: groups.map { group in
            Entry(id: group.id, name: group.name, faces: zip(group.faces, group.boxes).map {
                Face(photo: $0.path, rank: $0.rank, box: [$1.x, $1.y, $1.width, $1.height])
            })
        }, ungrouped: ungroupedFaces.map { Face(photo: $0.0.path, rank: $0.0.rank, box: [$0.1.x, $0.1.y, $0.1.width, $0.1.height]) },
           problems: problems)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(listing)) ?? Data(), as: UTF8.self)
    }

    /// Groups every face of the table in `stateFolder` afresh (`--regroup`).
    public static func regroup(stateFolder: URL) throws {
        let url = stateFolder.appendingPathComponent(FaceLibrary.fileName)
        guard let data = try? Data(contentsOf: url), var library = FaceLibrary(decoding: [UInt8](data)) else {
            throw GalleryError.invalidSetting("no faces to regroup in \(stateFolder.path): build with faces: auto first")
        }
        FaceGrouping.regroup(&library)
        try OutputFolder.replaceStateFile(FaceLibrary.fileName, in: stateFolder, with: library.encoded())
    }
}
