import Foundation

/// What `people.yml` (beside gallery.yml, in SOURCE) says of people: an
/// entry per person by the name to publish, with the other spellings of
/// that person to merge into it, the photo whose face is their avatar, and
/// whether they are hidden (never published anywhere).
public struct PeopleList: Hashable, Sendable {
    /// One person's entry.
    public struct Entry: Hashable, Sendable {
        /// The name to publish.
        public var name: String
        /// Other spellings of the same person (`also: [Marie Sklodowska]`).
        public var also: [String]
        /// The photo whose face of this person is their avatar: a path below SOURCE.
        public var avatar: String?
        /// Never published: not a page, name, avatar, search term or alt text.
        public var hidden: Bool
        /// Faces the build found (`faces: auto`) that are this person: each
        /// names the group of faces it is in (`Grandma: 2019/IMG_0012.jpg`).
        public var photos: [FaceReference]
        /// Faces grouped with this person that are someone else.
        public var not: [FaceReference]

        public init(name: String, also: [String] = [], avatar: String? = nil, hidden: Bool = false, photos: [FaceReference] = [],
                    not: [FaceReference] = []) {
            self.name = name
            self.also = also
            self.avatar = avatar
            self.hidden = hidden
            self.photos = photos
            self.not = not
        }
    }

    /// The file's name, in SOURCE's root.
    public static let fileName = SourceLayout.peopleFileName

    /// The entries in the file's order.
    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    /// The entry each spelling (a person key: `FaceRegion.personKey`) belongs to.
    public var entryByKey: [String: Int] {
        var result: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            for name in [entry.name] + entry.also where result[FaceRegion.personKey(name)] == nil {
                result[FaceRegion.personKey(name)] = index
            }
        }
        return result
    }
}

/// One face of one photo, as people.yml points at it: `2019/IMG_0012.jpg`
/// (the photo's largest face) or `2019/IMG_0012.jpg#2` (its second largest).
public struct FaceReference: Hashable, Sendable, CustomStringConvertible {
    /// The photo's path below SOURCE.
    public var path: String
    /// Which face, 1 for the largest.
    public var rank: Int

    public init(path: String, rank: Int = 1) {
        self.path = path
        self.rank = rank
    }

    /// `path` or `path#n`; nil when it is not a relative path below SOURCE.
    public init?(parsing text: String) {
        var path = text.trimmingCharacters(in: .whitespaces)
        var rank = 1
        if let hash = path.lastIndex(of: "#"), let number = Int(path[path.index(after: hash)...]) {
            guard number >= 1 else { return nil }
            rank = number
            path = String(path[..<hash])
        }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        self.init(path: path, rank: rank)
    }

    public var description: String { rank == 1 ? path : "\(path)#\(rank)" }
}
