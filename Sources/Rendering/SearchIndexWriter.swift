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
        let places = map.places.map { (name: $0.place.fullName, page: $0.pages[0]) }
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
        // The words many items share, folded once: each album's names, each
        // month, each camera, each kind.
        let albumTokens = Dictionary(uniqueKeysWithValues: gallery.albums.keys.map { path in
            (path, names(of: path).flatMap(SearchIndex.tokens))
        })
        var monthTokens: [Int: [String]] = [:], cameraTokens: [CameraKey: [String]] = [:], kindTokens: [String: [String]] = [:]
        for month in map.searchMonths {
            for item in month.items {
                // Fields read where they are, not the metadata copied whole per item.
                let date = item.metadata.captureDate
                if date.source != .fileTime {
                    let day = date.localDay
                    if monthTokens[day.year * 100 + day.month] == nil { monthTokens[day.year * 100 + day.month] = SearchIndex.tokens(strings.month(day)) }
                }
                let camera = CameraKey(make: item.metadata.camera.make, model: item.metadata.camera.model)
                if cameraTokens[camera] == nil { cameraTokens[camera] = item.metadata.camera.cameraName.map(SearchIndex.tokens) ?? [] }
                if item.kind != .still {
                    let kind = PhotoFacts.kindKey(item)
                    if kindTokens[kind] == nil { kindTokens[kind] = SearchIndex.tokens(strings.text(kind)) }
                }
            }
        }
        let months = monthTokens, cameras = cameraTokens, kinds = kindTokens
        // Read once: a setting read per item through its key path was a tenth of the index.
        let people = options.publishPeople, placesShown = options.momentPlaces
        return SearchIndex.manifestAndTokens(months: map.searchMonths, places: places) { item in
            let own = item.metadata.words, date = item.metadata.captureDate
            var words = SearchIndex.ItemWords()
            words.texts = [own.title, own.caption].compactMap { $0 } + own.keywords
            if people { words.texts += own.people }
            if placesShown, let place = item.metadata.place { words.texts += [place.name, place.region, place.country] }
            let name = item.source.fileName
            words.texts.append(name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name)
            words.shared.append(cameras[CameraKey(make: item.metadata.camera.make, model: item.metadata.camera.model)] ?? [])
            let folder = item.source.albumPath
            words.shared.append(albumTokens[folder] ?? names(of: folder).flatMap(SearchIndex.tokens))
            if date.source != .fileTime {
                let day = date.localDay
                words.shared.append(months[day.year * 100 + day.month] ?? [])
            }
            // What it is, in the site's language ("vidéo", "Live Photo"); a plain photo needs no word.
            if item.kind != .still { words.shared.append(kinds[PhotoFacts.kindKey(item)] ?? []) }
            return words
        }
    }

    /// A camera as its name is made from.
    struct CameraKey: Hashable {
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
