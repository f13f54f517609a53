import Foundation
import GalleryCore
import Planning

/// An item's own page: the picture or player, its facts and words, the way
/// back to its album, previous and next, and the neighbours preloaded.
struct ItemPageBuilder: PageBuilding {
    let inputs: PageInputs

    func photoPage(_ album: Album, index: Int, pagePath: String) -> PhotoPageModel {
        let item = album.photos[index]
        let key = item.source.relativePath
        var chrome = chrome(pagePath, title: Self.pageTitle(item), section: "albums")
        chrome.share = shareCard(pagePath, headline: Self.pageTitle(item),
                                 summary: Self.shareSummary(item.metadata.words.caption ?? alt(item) + " · " + (album.path.isRoot ? gallery.title : album.title)),
                                 item: item, type: "article")
        let keywords = map.keywords(of: item)
        let people = map.people(in: item).map { person in
            PersonLink(name: person.name, url: person.page.map { URLPath.relative(from: pagePath, to: $0) })
        }
        let previews = item.renditions(.preview)
        var preview: PhotoPageModel.Preview?
        if let largest = previews.last, let smallest = previews.first {
            preview = PhotoPageModel.Preview(
                image: ImageAttributes(src: URLPath.relative(from: pagePath, to: previews[previews.count > 1 ? 1 : 0].path),
                                       srcset: srcset(previews, from: pagePath), sizes: previewSizes(largest.size),
                                       width: smallest.size.width, height: smallest.size.height, alt: alt(item),
                                       avifSrcset: avifSrcset(item.avifRenditions(.preview), from: URLPath.Relativizer(from: pagePath))),
                animated: item.kind == .animation,
                poster: item.renditions(.poster).last.map { URLPath.relative(from: pagePath, to: $0.path) },
                placeholder: Self.placeholder(item))
        }
        let pages = map.albumPages[album.path] ?? ["index.html"]
        let place = map.photoPlaces[key]
        let albumPage = pages[min(pages.count - 1, place?.albumPage ?? 0)]
        var model = PhotoPageModel(
            chrome: chrome, breadcrumbs: breadcrumbs(to: album.path, from: pagePath, includingSelf: true), hasBreadcrumbs: true,
            photo: preview, facts: facts(item, from: pagePath),
            original: item.renditions(.original).first.map {
                PhotoPageModel.Download(url: URLPath.relative(from: pagePath, to: $0.path), name: item.source.fileName)
            },
            datetime: HumanDate.machine(item.metadata.captureDate),
            caption: item.metadata.words.caption,
            keywords: keywords.map { keyword in
                KeywordLink(name: keyword, url: map.tagPageByKey[SiteMap.tagKey(keyword)].map { URLPath.relative(from: pagePath, to: $0) })
            },
            hasKeywords: !keywords.isEmpty,
            people: people,
            hasPeople: !people.isEmpty,
            back: TitledLink(title: album.path.isRoot ? gallery.title : album.title,
                             url: URLPath.relative(from: pagePath, to: albumPage) + "#" + (place?.anchor ?? "")))
        if let playback = item.renditions(.video).first {
            if item.kind == .video, let poster = previews.dropFirst(previews.count > 1 ? 1 : 0).first {
                // The middle preview: sharp on a laptop, and what the neighbours' preloads fetched.
                model.video = PhotoPageModel.Player(src: URLPath.relative(from: pagePath, to: playback.path),
                                                    poster: URLPath.relative(from: pagePath, to: poster.path),
                                                    width: playback.size.width, height: playback.size.height)
                model.photo = nil
            } else if item.kind == .motionStill {
                model.motion = PhotoPageModel.Motion(src: URLPath.relative(from: pagePath, to: playback.path),
                                                     width: playback.size.width, height: playback.size.height)
            }
        }
        // Previous and next are tiles: a stack is stepped over (its strip steps through it).
        let previousIndex = album.previousTile(before: index), nextIndex = album.nextTile(after: index)
        let afterNextIndex = nextIndex.flatMap { album.nextTile(after: $0) }
        func neighbour(_ i: Int?) -> MediaItem? { i.map { album.photos[$0] } }
        if let prev = neighbour(previousIndex), let page = map.photoPlaces[prev.source.relativePath]?.page {
            model.prev = PlainLink(url: URLPath.relative(from: pagePath, to: page))
            chrome.relLinks.append(PageChrome.RelLink(rel: "prev", url: URLPath.relative(from: pagePath, to: page)))
        }
        if let next = neighbour(nextIndex), let page = map.photoPlaces[next.source.relativePath]?.page {
            model.next = PlainLink(url: URLPath.relative(from: pagePath, to: page))
            chrome.relLinks.append(PageChrome.RelLink(rel: "next", url: URLPath.relative(from: pagePath, to: page)))
        }
        // Next first (the likely step), then previous, then the one after next.
        var preloads: [PageChrome.Preload] = []
        for i in [nextIndex, previousIndex, afterNextIndex] {
            guard let other = neighbour(i) else { continue }
            // The AVIF when there is one (typed: a browser that cannot show it skips it).
            let avif = other.avifRenditions(.preview)
            let renditions = avif.isEmpty ? other.renditions(.preview) : avif
            guard let middle = renditions.dropFirst(renditions.count > 1 ? 1 : 0).first, let largest = renditions.last else { continue }
            preloads.append(PageChrome.Preload(href: URLPath.relative(from: pagePath, to: middle.path),
                                               srcset: srcset(renditions, from: pagePath), sizes: previewSizes(largest.size),
                                               type: avif.isEmpty ? nil : OutputFormat.avif.mimeType))
        }
        if !preloads.isEmpty {
            chrome.neighbours = PageChrome.NeighbourPreloads(script: URLPath.relative(from: pagePath, to: "static/neighbours.js"), links: preloads)
        }
        model.stack = stackStrip(album, index: index, pagePath: pagePath)
        model.chrome = chrome
        return model
    }

    /// The strip of the stack the item at `index` is in (nil: none).
    func stackStrip(_ album: Album, index: Int, pagePath: String) -> StackStrip? {
        let stack = album.stackRange(at: index), strip = album.stackStrip(at: index)
        guard stack.count > 1 else { return nil }
        let count = strings.grouped(stack.count)
        let link = URLPath.Relativizer(from: pagePath)
        let frames = strip.compactMap { i -> StackStrip.Frame? in
            let item = album.photos[i]
            let thumbs = item.renditions(.thumbnail)
            guard let first = thumbs.first else { return nil }
            let height = 72, width = max(1, Int((Double(height) * Double(first.size.width) / Double(max(1, first.size.height))).rounded()))
            let position = strings.text("stack.position", ["number": strings.grouped(i - stack.lowerBound + 1), "count": count])
            return StackStrip.Frame(url: map.photoPlaces[item.source.relativePath].map { link.url(to: $0.page) },
                                    image: ImageAttributes(src: link.url(to: first.path), srcset: srcset(thumbs, from: link), sizes: "\(width)px",
                                                           width: width, height: height, alt: position + " · " + alt(item)),
                                    current: i == index)
        }
        return StackStrip(label: strings.count("stack.strip", stack.count),
                          position: strings.text("stack.position", ["number": strings.grouped(index - stack.lowerBound + 1), "count": count]),
                          frames: frames, hiddenBefore: strip.lowerBound > stack.lowerBound, hiddenAfter: strip.upperBound < stack.upperBound)
    }

    /// The facts under the picture; the place links to its page.
    func facts(_ item: MediaItem, from pagePath: String) -> [PhotoPageModel.Fact] {
        let placeLabel = strings.text("fact.place")
        let placePage = item.metadata.place.flatMap { map.placePageByKey[$0.key] }
        // People are listed on their own, each linked to their page.
        return PhotoFacts.list(item, strings: strings, keywords: map.keywords(of: item), place: options.momentPlaces).map { fact in
            PhotoPageModel.Fact(label: fact.label, value: fact.value,
                                factHref: fact.label == placeLabel ? placePage.map { URLPath.relative(from: pagePath, to: $0) } : nil)
        }
    }

    func render(_ album: Album, index: Int, pagePath: String) throws(ThemeError) -> String {
        try theme.render("photo", photoPage(album, index: index, pagePath: pagePath))
    }
}
