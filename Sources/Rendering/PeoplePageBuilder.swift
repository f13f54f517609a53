import Foundation
import GalleryCore
import Planning

/// The people (`publish_people`): the People page (every published person
/// with their face, name and count, a filter box) and each person's pages.
struct PeoplePageBuilder: PageBuilding {
    let inputs: PageInputs
    /// People whose avatar could not be made (their photo unreadable now): shown by their initial.
    var withoutFace: Set<String> = []

    init(inputs: PageInputs) { self.inputs = inputs }

    /// A person's round face, from `pagePath`; nil when they have no avatar.
    func face(_ person: PersonPages, from pagePath: String) -> PersonFace? {
        guard let avatar = person.avatar, let first = avatar.paths.first, !withoutFace.contains(person.key) else { return nil }
        let link = URLPath.Relativizer(from: pagePath)
        let srcset = zip(avatar.paths, avatar.sides).map { "\(link.url(to: $0.0)) \($0.1)w" }.joined(separator: ", ")
        return PersonFace(src: link.url(to: first), srcset: srcset, side: avatar.sides[0])
    }

    func peopleIndexPage(_ pagePath: String) -> PeopleIndexModel {
        var chrome = chrome(pagePath, title: strings.text("people.title"), section: "people")
        let countLabel = strings.count("count.people", map.people.count)
        chrome.share = shareCard(pagePath, headline: strings.text("people.title"), summary: countLabel, item: map.people.first?.items.first)
        let people = map.people.enumerated().map { position, person in
            PeopleIndexModel.Entry(name: person.name, filterName: person.name.lowercased(), initial: String(person.name.prefix(1)),
                                   url: URLPath.relative(from: pagePath, to: person.pages[0]), countLabel: count(person.items),
                                   face: face(person, from: pagePath), lazy: position >= 24)
        }
        return PeopleIndexModel(chrome: chrome, countLabel: countLabel, people: people,
                                filterScript: URLPath.relative(from: pagePath, to: "static/people.js"))
    }

    /// A person's page: their face and name, a grid of the photos they are in, newest first.
    func personPage(_ person: PersonPages, number: Int) -> AlbumPageModel {
        var model = collectionPage(title: person.name, section: "people", items: person.items, pages: person.pages, ranges: person.ranges,
                                   number: number, parent: (strings.text("people.title"), SiteMap.peopleIndexPath))
        model.personFace = face(person, from: person.pages[number])
        return model
    }
}

/// What became of a person's avatar files.
public enum AvatarFiles: Sendable {
    /// OUT holds them already (named by their content: nothing to make).
    case inOutput
    /// Made now: each size's bytes, in `Avatar.paths` order.
    case made([[UInt8]])
    /// The photo could not be read or decoded now.
    case unavailable
}

/// Makes (or finds in OUT) the avatar files of the face `Avatar` cuts from an item.
public typealias AvatarMaker = @Sendable (MediaItem, Avatar) -> AvatarFiles

/// A person's round face: the 1× file as `src`, both in `srcset`.
public struct PersonFace: Sendable, Encodable {
    public var src: String
    public var srcset: String
    /// Its side in CSS pixels (`width` and `height` of the `<img>`).
    public var side: Int
}

/// The People page (`people`).
public struct PeopleIndexModel: Sendable, Encodable {
    public struct Entry: Sendable, Encodable {
        public var name: String
        /// The name as the filter box matches it (`data-name`).
        public var filterName: String
        /// Shown in the circle of a person with no face to show.
        public var initial: String
        public var url: String
        public var countLabel: String
        public var face: PersonFace?
        /// The first rows' faces load at once; the rest when scrolled near.
        public var lazy: Bool
    }
    public var chrome: PageChrome
    /// "12 people".
    public var countLabel: String
    public var people: [Entry]
    public var filterScript: String
}
