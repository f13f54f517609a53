import Foundation
import GalleryCore
import Planning

/// The search page and the search index's files.
struct SearchIndexWriter: PageBuilding {
    let inputs: PageInputs

    func searchPage() -> SearchPageModel {
        var chrome = chrome(Self.searchPage, title: strings.text("search.title"), section: "search")
        // A link preview with no picture: the page shows none until a query is typed.
        chrome.share = shareCard(Self.searchPage, headline: strings.text("search.title"), summary: gallery.title, item: nil)
        return SearchPageModel(chrome: chrome,
                        searchScript: URLPath.relative(from: Self.searchPage, to: "static/search.js"),
                        indexScript: URLPath.relative(from: Self.searchPage, to: "search/index.js"))
    }

    /// The whole index: the manifest, the token files and every month's item files.
    func searchIndex() -> [(path: String, text: String)] {
        manifestAndTokens() + map.searchMonths.indices.flatMap(documents(month:))
    }

    /// The manifest and the token files: the words that find every item in
    /// the timeline (listed albums, each once), and the place pages.
    func manifestAndTokens() -> [(path: String, text: String)] {
        // People's pages are offered as places' are: a name typed, their page found.
        let places = map.places.map { (name: $0.place.fullName, page: $0.pages[0]) } + map.people.map { (name: $0.name, page: $0.pages[0]) }
        // Each album's names (its own and its parents'), once per album rather than per item.
        let gallery = self.gallery
        @Sendable func names(of path: AlbumPath) -> [String] {
            var names: [String] = []
            var album: AlbumPath? = path
            while let current = album, !current.isRoot {
                names.append(gallery.title(of: current))
                album = current.parent
            }
            return names
        }
        // The words many items share, folded once: each album's names here,
        // each group's month, camera and kind when the group is first met.
        let albumTokens = Dictionary(uniqueKeysWithValues: gallery.albums.keys.map { path in
            (path, names(of: path).flatMap(SearchIndex.tokens))
        })
        // Read once: a setting read per item through its key path was a tenth of the index.
        let placesShown = options.momentPlaces
        let map = self.map
        let strings = self.strings
        return SearchIndex.manifestAndTokens(months: map.searchMonths, places: places, words: { item in
            // Fields read where they are, not the metadata copied whole per item.
            let own = item.metadata.words, date = item.metadata.captureDate
            var texts = [own.title, own.caption].compactMap { $0 } + (own.keywords.isEmpty ? [] : map.keywords(of: item))
            if !own.people.isEmpty || !own.keywords.isEmpty { texts += map.people(in: item).map(\.name) }
            if placesShown, let place = item.metadata.place { texts += [place.name, place.region, place.country] }
            let source = item.source  // copied once, not at each use
            texts.append(source.fileStem)
            let day = date.source != .fileTime ? date.localDay : nil
            let group = SearchGroup(album: source.albumPath, month: day.map { $0.year * 100 + $0.month },
                                    camera: CameraKey(make: item.metadata.camera.make, model: item.metadata.camera.model),
                                    kind: item.kind != .still ? PhotoFacts.kindKey(item) : nil)
            return SearchIndex.ItemWords(texts: texts, group: group)
        }, groupWords: { item in
            let date = item.metadata.captureDate
            var lists = [item.metadata.camera.cameraName.map(SearchIndex.tokens) ?? [],
                         albumTokens[item.source.albumPath] ?? names(of: item.source.albumPath).flatMap(SearchIndex.tokens)]
            if date.source != .fileTime { lists.append(SearchIndex.tokens(strings.month(date.localDay))) }
            // What it is, in the site's language ("vidéo", "Live Photo"); a plain photo needs no word.
            if item.kind != .still { lists.append(SearchIndex.tokens(strings.text(PhotoFacts.kindKey(item)))) }
            return lists
        })
    }

    /// The items that share what finds them besides their own words: an
    /// album (its names and its parents'), a month, a camera, a kind.
    struct SearchGroup: Hashable, Sendable {
        let album: AlbumPath
        let month: Int?
        let camera: CameraKey
        let kind: String?
    }

    /// A camera as its name is made from.
    struct CameraKey: Hashable, Sendable {
        let make: String?, model: String?
    }

    /// The item files of `map.searchMonths[month]`: what a result shows of each item.
    func documents(month: Int) -> [(path: String, text: String)] {
        let month = map.searchMonths[month]
        // Untitled items' alt texts, each kind and day once: a month's items share a few.
        var untitled: [AltKey: String] = [:]
        for item in month.items where item.metadata.words.title == nil && item.metadata.words.caption == nil {
            let key = AltKey(item)
            if untitled[key] == nil { untitled[key] = untitledAlt(key) }
        }
        return SearchIndex.documents(of: month) { item in
            let key = item.source.relativePath
            let thumbs = item.renditions(.thumbnail), previews = item.renditions(.preview)
            let first = thumbs.first, largest = previews.last
            return SearchDocument(page: map.photoPlaces[key]?.page ?? "", thumbnailSrcset: srcset(thumbs, from: "index.html"),
                                  thumbnailWidth: first?.size.width ?? 1, thumbnailHeight: first?.size.height ?? 1,
                                  previewSrcset: srcset(previews, from: "index.html"),
                                  previewWidth: largest?.size.width ?? 1, previewHeight: largest?.size.height ?? 1,
                                  alt: alt(item, known: untitled),
                                  caption: Self.captionLine(item.metadata.words) ?? "",
                                  video: item.renditions(.video).first?.path ?? "", live: item.kind == .motionStill)
        }
    }
}
