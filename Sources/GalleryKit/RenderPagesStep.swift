import SiteOutput
import Foundation
import GalleryCore
import Planning
import Rendering
import Sealing
import Imaging
import Scanning

/// Assembles albums, plans the site and renders the pages whose inputs
/// changed, then writes the theme's static files.
///
/// Every page has a fingerprint of exactly what it shows (`SitePlan`); the
/// build state keeps each page's fingerprint, and a page whose fingerprint
/// matches the previous build's and whose files are all still in OUT is not
/// rendered at all. Pages that are rendered are written only when their bytes
/// changed.
struct RenderPagesStep: BuildStep {
    let name = "render pages"
    let letsGoOfMuch = true

    /// Bumped whenever the renderer's output changes for the same inputs.
    static let rendererVersion = 7

    func run(_ context: inout BuildContext) async throws {
        MemoryTuning.giveBackLargeBlocks()
        let theme = context.theme
        let output = try context.openOutput()
        let previousFileCount = context.previousState.fileCount, previousInputs = context.previousState.siteInputs
        // The previous build's page records, taken out of the context: they
        // become this build's, changed in place, not copied whole.
        let previous = PreviousPages(context.previousState.pages)
        context.previousState.pages = [:]
        // A part of a sharded page build (`--pages I/N`) renders its share.
        let part = context.shard?.phase == .pages ? context.shard : nil
        if part == nil, context.settings.values.baseURL.isEmpty, previousFileCount == 0 {
            // Said on the first build into OUT only: a site kept without an
            // address on purpose should not be nagged at every build.
            context.report.advice.append(Self.baseURLAdvice)
        }
        // A robots.txt in OUT that no build of ours wrote is the user's: kept.
        // (Ours is one of the sitemap group's files: the pages' records say so without the list of every file.)
        let usersOwn: Set<String> = output.contains(SiteRenderer.robotsFile)
            && !previous.records.values.contains { $0.files?.contains(SiteRenderer.robotsFile) == true }
            ? [SiteRenderer.robotsFile] : []
        context.report.warnings += Self.missingCovers(context)
        let seed = Self.seed(context, theme: theme)
        let inputs = Self.siteInputs(context, seed: seed, usersOwnRobots: !usersOwn.isEmpty)
        context.siteInputs = inputs
        // A file a killed build journaled may hold what that build rendered,
        // not what its recorded fingerprint says: such pages are rendered again.
        let suspect = output.interruptedFiles
        if part == nil, suspect.isEmpty, inputs == previousInputs, !previous.records.isEmpty,
           try Self.reuseAll(previous.records, &context, output: output) {
            return
        }

        // The site is planned: from every item.
        var clock = PhaseClock(step: name)
        try context.makeDeferredItems()
        clock.end("the items made", in: &context.report)
        let gallery = Gallery.assemble(title: context.settings.title, photos: context.items,
                                       sidecars: context.sidecars, options: context.settings.values,
                                       vaults: context.albumKeys.mapValues(\.vault), references: context.albumReferences)
        context.report.stacks = gallery.stackCounts
        let options = context.settings.values
        let map = SiteMap(gallery: gallery, options: options, people: context.people)
        clock.end("the albums, moments and site map assembled", in: &context.report)
        // The search index's words made while the items' rows are hashed
        // (each leaves a core idle a third of the time): every item's words
        // are in it, so a build that plans the site nearly always writes it.
        let searchIndexFiles = part == nil ? Self.searchIndexFiles(theme: theme, gallery: gallery, options: options, map: map) : nil
        // Joined before the pages are made: its scratch (each word's list of
        // a million items' numbers) is let go before the plan's pages are
        // made, not held beside them (10-25 MB of an add's peak at 1,000,000 items).
        let plan = SitePlan(gallery: gallery, map: map, options: options, downloads: context.downloads, seed: seed,
                            afterPreparing: { searchIndexFiles?.wait() })
        clock.end("the pages planned and fingerprinted", in: &context.report)

        // Which pages are as the previous build left them, decided on every
        // core (a lookup and an existence check per page for 100,000 pages).
        let pages = plan.pages
        let ranges = evenRuns(of: pages.count, 16)
        // Per run: where among the previous records are those of its pages
        // the previous build had; for each page, where its previous record
        // is if the page is taken as it is (-1: it is rendered), four bytes
        // a page, not a copy of its 24-byte record held until the files of
        // the taken pages are listed; and how many files those list.
        let runs = parallelMap(ranges, minimumCount: 2) { range -> (known: [Int32], taken: [Int32], takenFiles: Int) in
            var known: [Int32] = [], takenFiles = 0
            let taken = range.map { index -> Int32 in
                let page = pages[index]
                if let part, !Self.owns(page, part) { return -1 }
                let id = page.id
                guard let at = previous.records.index(forKey: PageKey(path: id)) else { return -1 }
                let old = previous.records.values[at]
                known.append(Int32(at))
                guard old.fingerprint == page.fingerprint else { return -1 }
                // The sitemap's group holds robots.txt unless the user has their own.
                if page.kind == .sitemap, (old.files ?? []).contains(SiteRenderer.robotsFile) != usersOwn.isEmpty { return -1 }
                let present = old.files.map { $0.allSatisfy { output.contains($0) && (suspect.isEmpty || !suspect.contains($0)) } }
                    ?? (output.contains(id) && (suspect.isEmpty || !suspect.contains(id)))
                guard present else { return -1 }
                takenFiles += old.files?.count ?? 1
                return Int32(at)
            }
            return (known, taken, takenFiles)
        }
        clock.end("the pages compared with the previous build's", in: &context.report)
        // The previous records, changed where this build differs: 100,000
        // unchanged pages are not inserted into a new dictionary one by one.
        let previousCount = previous.records.count
        var records = part == nil ? previous.take() : [:]
        // The pages to render by their place in the plan: on a first build
        // that is every page, and copies of them held the plan's pages twice.
        var toRender: [Int] = []
        var htmlPages = 0
        let known = runs.reduce(0) { $0 + $1.known.count }
        // Sized once, for every file the taken pages list (a search index is thousands).
        context.producedFiles.reserve(adding: runs.reduce(0) { $0 + $1.takenFiles })
        for (index, at) in runs.lazy.flatMap(\.taken).enumerated() {
            let page = pages[index]
            if let part, !Self.owns(page, part) { continue }
            guard at >= 0 else {
                toRender.append(index)
                continue
            }
            // A whole build's records are the previous ones, moved (no record
            // is removed before this loop ends); a part's are still there.
            let old = part == nil ? records.values[Int(at)] : previous.records.values[Int(at)]
            if part != nil { records[PageKey(path: page.id)] = old }
            if let files = old.files {
                context.producedFiles.append(contentsOf: files)
                htmlPages += files.count { $0.hasSuffix(".html") }
            } else {
                context.producedFiles.append(page.path)
                if page.path.isHTML { htmlPages += 1 }
            }
        }
        // Pages the plan no longer has (a photo removed): their records go.
        var gone: [PageKey] = []
        if part == nil, known < previousCount {
            // Those whose places no page's lookup found (not a set of every page's key).
            var found = [Bool](repeating: false, count: previousCount)
            for run in runs { for at in run.known { found[Int(at)] = true } }
            gone = records.keys.indices.filter { !found[$0] }.map { records.keys[$0] }
            for id in gone { records.removeValue(forKey: id) }
        }

        // Sized once, for the pages the previous build did not have (a part
        // starts empty: its taken pages, then those it renders): grown by
        // doubling, a first build's million records were held twice as the
        // table moved; sized for every page rendered, a build rendering every
        // page again (an upgrade) held room for twice its records.
        records.reserveCapacity(records.count + (part == nil ? pages.count - known : toRender.count))
        let renderer = Self.renderer(theme: theme, plan: plan, context: context, searchIndexFiles: searchIndexFiles)
        let pagesToRender = toRender
        // Whether a page's files are in OUT was asked above, for every page.
        output.letGoOfListing()
        let rendered = try Self.render(pagesToRender.count, { renderer.job(pages[pagesToRender[$0]]) }, onlyFile: { pages[pagesToRender[$0]].id },
                                       workers: context.settings.jobs, output: output, keeping: usersOwn)
        clock.end("the taken pages listed and the changed ones rendered", in: &context.report)
        let hasMap = plan.map.mapPage != nil
        // The plan of 100,000 items is let go of on a thread of its own (its
        // dictionaries' strings freed one by one took a tenth of a second).
        // When most pages were rendered (a first build), it is let go of
        // before their records are made, and its memory handed back: the
        // records of a million pages made beside it were that build's peak
        // (1,000,000 items: 55 MiB over the render's), for a second spent freeing it first.
        var planAndRenderer: (SitePlan, SiteRenderer, Gallery, SiteMap, Eventually<[(path: String, text: String)]>?)?
            = (consume plan, consume renderer, consume gallery, consume map, consume searchIndexFiles)
        context.renderedMostPages = toRender.count * 2 > pages.count
        if context.renderedMostPages, let letGo = planAndRenderer.take() {
            ReleasedLater.drop(letGo)
            ReleasedLater.waitUntilFreed()
            if context.handsBackFreeMemory { MemoryTuning.releaseFreeMemory() }
        }
        var renderedPages = 0
        context.producedFiles.reserve(adding: rendered.paths.reduce(0) { $0 + ($1?.count ?? 1) })
        // Which pages changed matters only to a state committed from the
        // previous one's file, when it holds page records; a first build's
        // has none (a set of every page). Made once the pages are rendered:
        // every page's key, when every page is rendered again, is not held
        // beside what rendering holds.
        let tracksChanges = part == nil && context.previousState.hasPageRecordsInBase
        var changed = Set<PageKey>(minimumCapacity: tracksChanges ? toRender.count + gone.count : 0)
        if tracksChanges { changed.formUnion(gone) }
        for (index, files) in zip(toRender, rendered.paths) {
            let page = pages[index], key = PageKey(path: page.id)
            records[key] = PageRecord(fingerprint: page.fingerprint, files: files)
            if tracksChanges { changed.insert(key) }
            if let files {
                context.producedFiles.append(contentsOf: files)
                renderedPages += files.count { $0.hasSuffix(".html") }  // the search index's scripts are not pages
            } else {
                context.producedFiles.append(page.path)
                if page.path.isHTML { renderedPages += 1 }
            }
        }
        context.changedPages = tracksChanges ? changed : nil
        if part == nil {
            try Self.handOn(consume records, changed: changed, &context)
        } else {
            context.pageRecords = records
        }
        clock.end("the records made", in: &context.report)
        context.report.pages = htmlPages + renderedPages
        context.report.pagesRendered = renderedPages
        ReleasedLater.drop((consume planAndRenderer, consume toRender))
        guard part == nil else { return }  // the last whole build times the work and writes the static files
        context.report.pageWork = PageJob.Kind.allCases.compactMap { kind in
            rendered.work[kind].map { (kind.rawValue, $0.files, $0.seconds) }
        }
        for (path, bytes) in Self.staticFiles(theme, map: hasMap) {
            try output.writeIfChanged(bytes, to: "static/" + path)
            context.producedFiles.append("static/" + path)
        }
    }

    /// The renderer of `plan`: private albums' pages sealed with their keys,
    /// the search index's files taken from `searchIndexFiles` when made already.
    static func renderer(theme: Theme, plan: SitePlan, context: BuildContext,
                         searchIndexFiles: Eventually<[(path: String, text: String)]>?) -> SiteRenderer {
        var renderer = SiteRenderer(theme: theme, plan: plan, options: context.settings.values, downloads: context.downloads)
        renderer.searchIndexFiles = searchIndexFiles
        if let output = context.output {
            renderer.avatarMaker = Self.avatarMaker(output: output, maximumPixels: context.settings.maximumPixels)
        }
        for key in context.albumKeys.values {
            let salt = Data(key.salt).base64EncodedString()
            renderer.sealers[key.vault.folder] = { html, path in
                (try? key.sealPage(html, path: path)).map { SealedPage(payload: $0, salt: salt, iterations: key.iterations) }
            }
        }
        return renderer
    }

    /// album.yml covers that name no photo of their folder: the album then
    /// shows its first photo, and the user is told where the name is.
    static func missingCovers(_ context: BuildContext) -> [String] {
        let wanted = context.sidecars.compactMap { path, sidecar in sidecar.cover.map { (path, $0, sidecar.coverLine) } }
        guard !wanted.isEmpty else { return [] }
        let folders = Set(wanted.map(\.0))
        var present = Set<String>()
        context.forEachPublishedSource { source in
            if folders.contains(source.albumPath) { present.insert(source.albumPath.description + "/" + source.fileName) }
        }
        return wanted.filter { !present.contains($0.0.description + "/" + $0.1) }.sorted { $0.0 < $1.0 }.map { path, name, line in
            let file = (path.components + [SourceLayout.albumSidecarName]).joined(separator: "/")
            return "\(DisplayText.oneLine(file))\(line.map { ":\($0)" } ?? ""): cover '\(DisplayText.oneLine(name))' is not a published photo of this folder; the album shows its first photo"
        }
    }

    /// Avatars as renditions are made: named by their content, so one OUT
    /// holds is not made again; the photo read and decoded once per avatar.
    static func avatarMaker(output: OutputFolder, maximumPixels: Int) -> AvatarMaker {
        { item, avatar in
            if avatar.paths.allSatisfy(output.contains) { return .inOutput }
            guard let bytes = try? SourceFileReader.read(item.source) else { return .unavailable }
            let m = item.metadata
            let made = try? bytes.withUnsafeBytes { raw in
                try AvatarCropper.make(raw, format: m.format, storedSize: m.storedSize, orientation: m.orientation, avatar: avatar,
                                       maximumPixels: maximumPixels)
            }
            return made.map { .made($0) } ?? .unavailable
        }
    }

    /// The search index's manifest and token files, made on a thread of their own.
    static func searchIndexFiles(theme: Theme, gallery: Gallery, options: Settings, map: SiteMap) -> Eventually<[(path: String, text: String)]> {
        Eventually { SiteRenderer.searchIndexFiles(theme: theme, gallery: gallery, options: options, map: map) }
    }

    /// The theme's static files a site needs: the map's (`static/map/`) only
    /// with a map page.
    static func staticFiles(_ theme: Theme, map: Bool) -> [(key: String, value: [UInt8])] {
        theme.staticFiles.filter { map || !$0.key.hasPrefix("map/") }.sorted { $0.key < $1.key }
    }

    /// Why a site might want `base_url`.
    static let baseURLAdvice = "Link previews in chats and social networks (OpenGraph, Twitter cards), a sitemap and absolute feed addresses need the site's address: set base_url: https://… in gallery.yml."

    /// The pages part `part` of a sharded page build renders: its share of
    /// every page by a hash of the page's path, never the files made from
    /// the whole site (the search manifest and token files, the sitemap, the feed), which the
    /// last whole build writes.
    static func owns(_ page: PlannedPage, _ part: Shard) -> Bool {
        switch page.kind {
        case .searchIndex, .sitemap, .feed: return false
        default:
            var hasher = StableHash()
            hasher.add(page.path)
            return Int(hasher.digest().low % UInt64(part.count)) == part.index
        }
    }

    /// Hands a whole build's page records on to the state's commit: only the
    /// `changed` ones when the state is committed from the previous one's
    /// file, which holds the others as they are.
    static func handOn(_ records: consuming PageEntries, changed: Set<PageKey>, _ context: inout BuildContext) throws(OutputError) {
        if let kept = try context.previousState.leavingUnchangedPagesInBase(records, changed: changed) {
            context.pageRecords = kept
            context.pageCountWithBase = records.count
            ReleasedLater.drop(records)
        } else {
            context.pageRecords = records
        }
    }

    /// Nothing the pages are made from changed: the previous build's pages
    /// are this build's, if every one of their files is still there.
    static func reuseAll(_ previous: PageEntries, _ context: inout BuildContext, output: OutputFolder) throws(OutputError) -> Bool {
        // The records keep no ids (`PageKey`): every file the previous build
        // produced is looked for instead, by the state's list of them, and
        // those files are produced again (not listed one by one: a million
        // paths beside the produced ones).
        let (present, htmlPages) = try output.holdsEveryFile(of: context.previousState)
        guard present else { return false }
        output.letGoOfListing()
        context.producedFiles.includesPreviousFiles = true
        context.changedPages = []
        try handOn(previous, changed: [], &context)
        context.pagesReused = true
        context.renderedMostPages = false
        context.report.pages = htmlPages
        let hasMap = previous[PageKey(path: SiteMap.mapPagePath)] != nil
        for (path, _) in staticFiles(context.theme, map: hasMap) { context.producedFiles.append("static/" + path) }
        return true
    }

    /// A digest of everything the pages are made from, cheap to make: the
    /// seed, the album sidecars, the downloads, and per item its path,
    /// content, modification time (its metadata is read from the file, which
    /// the time stamps) and its words (a sidecar's edit). Equal digests mean
    /// equal pages; a different one means planning the site and comparing
    /// each page's own fingerprint.
    static func siteInputs(_ context: BuildContext, seed: StableHash.Digest, usersOwnRobots: Bool) -> StableHash.Digest {
        var hasher = StableHash()
        hasher.add(seed)
        hasher.add(usersOwnRobots)
        for (album, download) in context.downloads.sorted(by: { $0.key < $1.key }) {
            hasher.add(album.description)
            hasher.add(download.path)
            hasher.add(Int(download.bytes))
        }
        for (path, settings) in context.sidecars.sorted(by: { $0.key < $1.key }) {
            hasher.add(path.description)
            hasher.add(String(describing: settings))
        }
        for (path, members) in context.albumReferences.sorted(by: { $0.key < $1.key }) {
            hasher.add(path.description)
            hasher.add(members.count)
            for member in members { hasher.add(member) }
        }
        // people.yml: who is published under which name (the pages that show them say).
        hasher.add(String(describing: context.people))
        // A new passphrase names every page of the album anew.
        for (path, key) in context.albumKeys.sorted(by: { $0.key < $1.key }) {
            hasher.add(path.description)
            hasher.add(key.vault.folder)
        }
        hasher.add(context.itemCount)
        // Each item's digest in path order (a deferred one's made by the media
        // step), in sixteen runs on every core, each run's digest added in
        // order: 100,000 items took a fifth of a second on one.
        let deferred = context.deferredItems, items = context.items
        let digests = parallelMap(evenRuns(of: context.itemCount, 16), minimumCount: 2) { range in
            var hasher = StableHash()
            for place in range { hasher.add(deferred?.inputs(at: place) ?? DeferredItems.inputs(of: items[place])) }
            return hasher.digest()
        }
        for digest in digests { hasher.add(digest) }
        return hasher.digest()
    }

    /// What every page shows: the renderer, the theme and its strings, every
    /// setting that can change the output, the building machine's time zone
    /// (file-time dates are shown in it). Each page adds its own inputs (`SitePlan`).
    static func seed(_ context: BuildContext, theme: Theme) -> StableHash.Digest {
        var hasher = StableHash()
        hasher.add("renderer \(rendererVersion)")
        hasher.add(theme.fingerprint)
        hasher.add(context.settings.values.canonicalText)
        hasher.add(TimeZone.current.identifier)
        return hasher.digest()
    }
}

/// The previous build's page records, shared with the threads that compare
/// pages and then taken whole: a thread may hold on to its closure a moment
/// after its work is done, and a dictionary it still referenced would be
/// copied (100,000 records) at the first change.
private final class PreviousPages: @unchecked Sendable {
    private(set) var records: PageEntries

    init(_ records: PageEntries) { self.records = records }

    /// The records, no longer held here.
    func take() -> PageEntries {
        defer { records = [:] }
        return records
    }
}
