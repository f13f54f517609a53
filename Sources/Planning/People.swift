import GalleryCore

/// Who is published, and as whom: the names photographers' tools wrote
/// (face regions, keywords under `People`) through `people.yml` (other
/// spellings merged into one name, hidden people left out). Spellings that
/// differ only in letter case or Unicode form are one person; a person not
/// in people.yml is published under the first spelling met in the timeline.
public struct PeopleDirectory: Sendable {
    public let enabled: Bool
    private let list: PeopleList
    private let entryByKey: [String: Int]

    public init(list: PeopleList, enabled: Bool) {
        self.list = list
        self.enabled = enabled
        entryByKey = list.entryByKey
    }

    /// The key of the person a spelling names (the people.yml entry's name,
    /// folded), or nil when that person is hidden or people are not published.
    public func personKey(_ spelling: String) -> String? {
        guard enabled else { return nil }
        let folded = FaceRegion.personKey(spelling)
        guard let index = entryByKey[folded] else { return folded }
        return list.entries[index].hidden ? nil : FaceRegion.personKey(list.entries[index].name)
    }

    /// The name people.yml publishes a person under, when it names them.
    func listedName(_ key: String) -> String? {
        entryByKey[key].map { list.entries[$0].name }
    }

    /// The photo people.yml chose for the avatar of the person with `key`.
    func avatarPath(_ key: String) -> String? {
        entryByKey[key].flatMap { list.entries[$0].avatar }
    }
}

/// One person's pages: the items they are in (listed albums only, each
/// once), newest first, paged like an album, and their avatar.
public struct PersonPages: Sendable {
    /// Their name as published.
    public var name: String
    /// How they are told apart (`FaceRegion.personKey` of the name).
    public var key: String
    public var items: [MediaItem]
    public var pages: [String]
    public var ranges: [Range<Int>]
    /// Their face, cut from their best region (the largest, or the photo people.yml names).
    public var avatar: Avatar?
    /// The item the avatar is cut from.
    public var avatarItem: MediaItem?
}

/// A person as one photo shows them: their name, their page (nil where
/// they have none: only in private or hidden albums), and where their face
/// is in the upright photo (nil: tagged by a keyword or a region without a box).
public struct PersonInPhoto: Sendable, Equatable {
    public var name: String
    public var page: String?
    public var face: NormalizedRect?
}

/// Every spelling of a person met in a library, folded once: the names
/// tagged in its items (with `publish_people`) and its keywords that name a
/// person tagged anywhere or listed in people.yml, each with the person it
/// publishes as. Pages ask about an item's names many times (its
/// fingerprint, its alt text, facts and search words): a lookup of the
/// name as written, not a Unicode normalisation each time.
struct PersonNames: Sendable {
    /// A spelling as written → the key of the person it publishes as; "" for a hidden person (or people off).
    private var published: [String: String] = [:]
    /// Keywords, as written, that name a person: people, never tags.
    private var personKeywords: Set<String> = []
    let isEmpty: Bool

    init(_ gallery: Gallery, list: PeopleList, directory: PeopleDirectory) {
        var folded = Set(list.entryByKey.keys)
        var tagged = Set<String>()
        if directory.enabled {
            for album in gallery.albums.values {
                for item in album.photos where item.metadata.hasWords {
                    for name in item.metadata.words.people where tagged.insert(name).inserted { folded.insert(FaceRegion.personKey(name)) }
                }
            }
        }
        isEmpty = folded.isEmpty
        guard !isEmpty else { return }
        var keywords = Set<String>()
        for album in gallery.albums.values {
            for item in album.photos where item.metadata.hasWords {
                for keyword in item.metadata.words.keywords where keywords.insert(keyword).inserted {
                    if folded.contains(FaceRegion.personKey(keyword)) { personKeywords.insert(keyword) }
                }
            }
        }
        for name in tagged.union(personKeywords) { published[name] = directory.personKey(name) ?? "" }
    }

    /// The key of the person `spelling` publishes as; nil when hidden or not published.
    func key(_ spelling: String, _ directory: PeopleDirectory) -> String? {
        guard let known = published[spelling] else { return directory.personKey(spelling) }
        return known.isEmpty ? nil : known
    }

    /// An item's keywords less those that name a person.
    func keywords(of item: MediaItem) -> [String] {
        guard item.metadata.hasWords else { return [] }
        let keywords = item.metadata.words.keywords
        guard !personKeywords.isEmpty, !keywords.isEmpty else { return keywords }
        return keywords.filter { !personKeywords.contains($0) }
    }

    /// The names of the people an item shows: its tagged people, then its
    /// keywords that name a person.
    func spellings(of item: MediaItem) -> [String] {
        guard item.metadata.hasWords else { return [] }
        let words = item.metadata.words
        guard !personKeywords.isEmpty, !words.keywords.isEmpty else { return words.people }
        return words.people + words.keywords.filter { personKeywords.contains($0) }
    }
}

extension SiteMap {
    /// The People page (`people/index.html`), when someone is published.
    public static let peopleIndexPath = "people/index.html"

    /// Every published person of the timeline, most photos first (then by name).
    static func people(_ timeline: [MediaItem], names: PersonNames, directory: PeopleDirectory, options: Settings) -> [PersonPages] {
        guard directory.enabled, !names.isEmpty else { return [] }
        var shown: [String: String] = [:], members: [String: [MediaItem]] = [:]
        for item in timeline where item.metadata.hasWords {
            let words = item.metadata.words
            guard !words.people.isEmpty || !words.keywords.isEmpty else { continue }
            var seen = Set<String>()
            for spelling in names.spellings(of: item) {
                guard let key = names.key(spelling, directory), seen.insert(key).inserted else { continue }
                if shown[key] == nil { shown[key] = directory.listedName(key) ?? spelling }
                members[key, default: []].append(item)
            }
        }
        // Newest first: the order a person's page reads in, whatever the timeline's.
        func newer(_ a: MediaItem, _ b: MediaItem) -> Bool {
            let x = a.metadata.captureDate.wallClockSeconds, y = b.metadata.captureDate.wallClockSeconds
            return x != y ? x > y : a.source.relativePath < b.source.relativePath
        }
        let ordered = shown.keys.sorted { a, b in
            let (m, n) = (members[a]!.count, members[b]!.count)
            return m != n ? m > n : (NaturalOrder.less(shown[a]!, shown[b]!) || (shown[a]! == shown[b]! && a < b))
        }
        // Slugs claimed in name order, so one person's arrival renames no one else's page.
        var slugs = Slug.Uniquer()
        var folders: [String: String] = [:]
        for key in shown.keys.sorted(by: { NaturalOrder.less(shown[$0]!, shown[$1]!) || (shown[$0]! == shown[$1]! && $0 < $1) }) {
            folders[key] = "people/" + slugs.claim(Slug.make(shown[key]!, fallback: "person")) + "/"
        }
        let encoding = options.stillEncoding
        let persons = ordered.map { key in
            let items = members[key]!.sorted(by: newer)
            let ranges = PageSplitter.pages(count: items.count, budget: options.photosPerPage)
            let pages = ranges.indices.map { SiteMap.albumPage(folder: folders[key]!, number: $0) }
            return PersonPages(name: shown[key]!, key: key, items: items, pages: pages, ranges: ranges)
        }
        // Each person's avatar, on every core: a pass over their faces.
        return parallelMap(persons, minimumCount: 64) { person in
            var person = person
            if let (item, face) = bestFace(of: person.key, in: person.items, names: names, directory: directory) {
                person.avatar = Avatar(contentHash: item.contentHash, displaySize: item.metadata.displaySize, face: face, encoding: encoding)
                person.avatarItem = item
            }
            return person
        }
    }

    /// The face a person's avatar is cut from: in the photo people.yml names
    /// when it shows them, else their largest face in pixels (a larger face
    /// is the sharper avatar), the newest of equals.
    static func bestFace(of key: String, in items: [MediaItem], names: PersonNames,
                         directory: PeopleDirectory) -> (MediaItem, NormalizedRect)? {
        var best: (item: MediaItem, face: NormalizedRect, pixels: Double)?
        let chosen = directory.avatarPath(key)
        for item in items where item.kind != .video && item.metadata.hasWords && !item.metadata.words.faces.isEmpty {
            let metadata = item.metadata
            let size = metadata.displaySize
            for face in metadata.words.faces where names.key(face.name, directory) == key {
                let area = face.area.upright(metadata.orientation)
                let pixels = area.width * Double(size.width) * area.height * Double(size.height)
                if let chosen, item.source.relativePath == chosen { return (item, area) }
                if best == nil || pixels > best!.pixels { best = (item, area, pixels) }
            }
        }
        return best.map { ($0.item, $0.face) }
    }

    /// An item's keywords less those that name a person.
    public func keywords(of item: MediaItem) -> [String] { personNames.keywords(of: item) }

    /// The published people one item shows, in the order its tags name them.
    public func people(in item: MediaItem) -> [PersonInPhoto] {
        guard peopleDirectory.enabled, !personNames.isEmpty, item.metadata.hasWords else { return [] }
        let words = item.metadata.words
        guard !words.people.isEmpty || !words.keywords.isEmpty else { return [] }
        var seen = Set<String>(), result: [PersonInPhoto] = []
        for spelling in personNames.spellings(of: item) {
            guard let key = personNames.key(spelling, peopleDirectory), seen.insert(key).inserted else { continue }
            let published = personIndexByKey[key].map { people[$0] }
            let page = published?.pages.first
            let name = published?.name ?? peopleDirectory.listedName(key) ?? spelling
            let face = words.faces.first { personNames.key($0.name, peopleDirectory) == key }?.area.upright(item.metadata.orientation)
            result.append(PersonInPhoto(name: name, page: page, face: face))
        }
        return result
    }
}

extension Fingerprinter {
    /// A person as their card on the People page and their pages' heading
    /// show them: name, first page, count line, date range and face.
    func personCard(_ person: PersonPages, _ h: inout StableHash) {
        h.add(person.name)
        h.add(person.pages.first ?? "-")
        ItemSummary(person.items).feed(&h)
        h.add(person.avatar?.paths.joined(separator: " ") ?? "-")
        if let first = person.items.first { feedItem(first, &h) } else { h.add("-") }
    }

    /// The People page (with every avatar's files: a group) and each person's pages.
    func peoplePages() -> [PlannedPage] {
        guard let index = map.peopleIndexPage else { return [] }
        var pages = [page(.peopleIndex, index) { h in
            for person in map.people {
                personCard(person, &h)
                // The avatar's bytes: the photo it is cut from (its content is in the files' names, its path is read).
                h.add(person.avatarItem?.source.relativePath ?? "-")
            }
        }]
        for (p, person) in map.people.enumerated() {
            for number in person.pages.indices {
                pages.append(page(.person(p, page: number), person.pages[number]) { h in
                    personCard(person, &h)
                    pager(person.pages, &h)
                    for index in person.ranges[number] { feedItem(person.items[index], &h) }
                })
            }
        }
        return pages
    }
}
