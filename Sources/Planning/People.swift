import GalleryCore

/// Who is published, and as whom: the names photographers' tools wrote
/// (face regions, keywords under `People`) through `people.yml` (other
/// spellings merged into one name, hidden people left out). Spellings that
/// differ only in letter case or Unicode form are one person; a person not
/// in people.yml is published under the first spelling met in the timeline.
public struct PeopleDirectory: Sendable {
    /// Nobody is published (`publish_people` off).
    public static let none = PeopleDirectory(list: PeopleList(), enabled: false)

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

extension SiteMap {
    /// The People page (`people/index.html`), when someone is published.
    public static let peopleIndexPath = "people/index.html"

    /// Every published person of the timeline, most photos first (then by name).
    static func people(_ timeline: [MediaItem], spellings: (MediaItem) -> [String], directory: PeopleDirectory,
                       options: Settings) -> [PersonPages] {
        guard directory.enabled else { return [] }
        var names: [String: String] = [:], members: [String: [MediaItem]] = [:]
        for item in timeline {
            let words = item.metadata.words
            guard !words.people.isEmpty || !words.keywords.isEmpty else { continue }
            var seen = Set<String>()
            for spelling in spellings(item) {
                guard let key = directory.personKey(spelling), seen.insert(key).inserted else { continue }
                if names[key] == nil { names[key] = directory.listedName(key) ?? spelling }
                members[key, default: []].append(item)
            }
        }
        // Newest first: the order a person's page reads in, whatever the timeline's.
        func newer(_ a: MediaItem, _ b: MediaItem) -> Bool {
            let x = a.metadata.captureDate.wallClockSeconds, y = b.metadata.captureDate.wallClockSeconds
            return x != y ? x > y : a.source.relativePath < b.source.relativePath
        }
        let ordered = names.keys.sorted { a, b in
            let (m, n) = (members[a]!.count, members[b]!.count)
            return m != n ? m > n : (NaturalOrder.less(names[a]!, names[b]!) || (names[a]! == names[b]! && a < b))
        }
        // Slugs claimed in name order, so one person's arrival renames no one else's page.
        var slugs = Slug.Uniquer()
        var folders: [String: String] = [:]
        for key in names.keys.sorted(by: { NaturalOrder.less(names[$0]!, names[$1]!) || (names[$0]! == names[$1]! && $0 < $1) }) {
            folders[key] = "people/" + slugs.claim(Slug.make(names[key]!, fallback: "person")) + "/"
        }
        let encoding = Encoding.still(options.format, quality: options.quality)
        return ordered.map { key in
            let items = members[key]!.sorted(by: newer)
            let ranges = PageSplitter.pages(count: items.count, budget: options.photosPerPage)
            let pages = ranges.indices.map { SiteMap.albumPage(folder: folders[key]!, number: $0) }
            var person = PersonPages(name: names[key]!, key: key, items: items, pages: pages, ranges: ranges)
            if let (item, face) = bestFace(of: key, in: items, directory: directory) {
                person.avatar = Avatar(contentHash: item.contentHash, displaySize: item.metadata.displaySize, face: face, encoding: encoding)
                person.avatarItem = item
            }
            return person
        }
    }

    /// The face a person's avatar is cut from: in the photo people.yml names
    /// when it shows them, else their largest face in pixels (a larger face
    /// is the sharper avatar), the newest of equals.
    static func bestFace(of key: String, in items: [MediaItem], directory: PeopleDirectory) -> (MediaItem, NormalizedRect)? {
        var best: (item: MediaItem, face: NormalizedRect, pixels: Double)?
        let chosen = directory.avatarPath(key)
        for item in items where item.kind != .video {
            let size = item.metadata.displaySize
            for face in item.metadata.uprightFaces where directory.personKey(face.name) == key {
                let pixels = face.area.width * Double(size.width) * face.area.height * Double(size.height)
                if let chosen, item.source.relativePath == chosen { return (item, face.area) }
                if best == nil || pixels > best!.pixels { best = (item, face.area, pixels) }
            }
        }
        return best.map { ($0.item, $0.face) }
    }

    /// Every spelling of a person (folded): people.yml's entries (hidden
    /// ones too), and with people published every name tagged in any item.
    static func personSpellings(_ gallery: Gallery, list: PeopleList, enabled: Bool) -> Set<String> {
        var spellings = Set(list.entryByKey.keys)
        guard enabled else { return spellings }
        for album in gallery.albums.values {
            for item in album.photos {
                for name in item.metadata.words.people { spellings.insert(FaceRegion.personKey(name)) }
            }
        }
        return spellings
    }

    /// An item's keywords less those that name a person.
    public func keywords(of item: MediaItem) -> [String] { Self.keywords(of: item, personSpellings: personSpellings) }

    static func keywords(of item: MediaItem, personSpellings: Set<String>) -> [String] {
        let keywords = item.metadata.words.keywords
        guard !personSpellings.isEmpty, !keywords.isEmpty else { return keywords }
        return keywords.filter { !personSpellings.contains(FaceRegion.personKey($0)) }
    }

    /// The names of the people an item shows: its tagged people, then its
    /// keywords that name a person tagged elsewhere (or in people.yml).
    func spellings(of item: MediaItem) -> [String] { Self.spellings(of: item, personSpellings: personSpellings) }

    static func spellings(of item: MediaItem, personSpellings: Set<String>) -> [String] {
        let words = item.metadata.words
        guard !personSpellings.isEmpty, !words.keywords.isEmpty else { return words.people }
        return words.people + words.keywords.filter { personSpellings.contains(FaceRegion.personKey($0)) }
    }

    /// The published people one item shows, in the order its tags name them.
    public func people(in item: MediaItem) -> [PersonInPhoto] {
        let words = item.metadata.words
        guard peopleDirectory.enabled, !words.people.isEmpty || !words.keywords.isEmpty else { return [] }
        let faces = item.metadata.uprightFaces
        var seen = Set<String>(), result: [PersonInPhoto] = []
        for spelling in spellings(of: item) {
            guard let key = peopleDirectory.personKey(spelling), seen.insert(key).inserted else { continue }
            let page = personPageByKey[key]
            let name = page.flatMap { personNameByPage[$0] } ?? peopleDirectory.listedName(key) ?? spelling
            let face = faces.first { peopleDirectory.personKey($0.name) == key }?.area
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
