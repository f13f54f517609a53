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

        public init(name: String, also: [String] = [], avatar: String? = nil, hidden: Bool = false) {
            self.name = name
            self.also = also
            self.avatar = avatar
            self.hidden = hidden
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
