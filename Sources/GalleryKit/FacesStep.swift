import Faces
import Foundation
import GalleryCore
import SiteOutput

/// `faces: auto`, after the media step: the faces found are added to the
/// table, the table loses the photos no longer published, new faces join
/// groups, groups get their names (people.yml, then tags), and each photo's
/// named faces become its people, as if tagged. Unnamed groups stay in the
/// state folder, never in OUT. A media part of a sharded build keeps what it
/// found for the last step, which groups.
struct FacesStep: BuildStep {
    let name = "faces"
    /// A pass that read the faces table lets go of it (100,000 photos' faces).
    let letsGoOfMuch = true

    /// How many more photos without faces than the library holds the table keeps.
    static let forgettingSlack = 1_000

    /// The media step's face work when `faces: auto` and the models are
    /// found; with `faces: off`, the table is removed (nothing of faces is
    /// kept). No models: one warning, and the build goes on without faces.
    static func startFaceWork(_ context: inout BuildContext, output: OutputFolder) -> FaceWork? {
        guard context.settings.faces == .auto else {
            if context.shard == nil {
                for file in [FaceLibrary.fileName, NamedFaces.fileName, FaceWork.engineFile, FaceWork.formerDetectorFile] {
                    output.removeStateFiles(file, main: true)
                }
            }
            return nil
        }
        let models: FaceModels
        do {
            let configured = context.settings.faceModels
            models = try FaceModels.locate(configured: configured.isEmpty ? nil : URL(fileURLWithPath: configured))
        } catch {
            context.report.warnings.append(error.description)
            return nil
        }
        var model = output.readStateFileHeader(FaceLibrary.fileName, count: 4096).flatMap(FaceLibrary.model(inHeader:))
        // The faces the parts of a sharded build found, merged into the table by the build after them.
        let parts = context.shard?.phase == .media ? []
            : output.readShardStateFiles(FaceLibrary.fileName).compactMap(FaceLibrary.init(decoding:)).filter { $0.model == FaceModels.identity }
        if model == nil, !parts.isEmpty { model = FaceModels.identity }
        let work = FaceWork(models: models, model: model, mergesParts: !parts.isEmpty,
                            engineCache: output.stateFolder.appendingPathComponent(FaceWork.engineFile),
                            keepsEngine: context.shard == nil) {
            var table = output.readStateFile(FaceLibrary.fileName).flatMap(FaceLibrary.init(decoding:)) ?? FaceLibrary()
            for part in parts {
                for (hash, faces) in part.photos where table.faces(of: hash) == nil { table.photos[hash] = faces }
                table.withoutFaces.formUnion(part.withoutFaces)
            }
            // What the table knew first stands.
            for hash in table.photos.keys { table.withoutFaces.remove(hash) }
            return table
        }
        context.faceWork = work
        return work
    }

    func run(_ context: inout BuildContext) async throws {
        guard let work = context.faceWork else { return }
        // The table as the build began and what was found go with this step
        // (the trim after it hands them back): the pages need none of it.
        defer { context.faceWork = nil }
        let output = try context.openOutput()
        // The pictures that waited for this step (on this thread: one of
        // its own took a heap of its own, tens of megabytes more at the peak).
        work.findWaiting()
        let found = work.foundThisBuild
        context.report.warnings += work.problems
        if context.shard?.phase == .media {
            // A part keeps what it found; the last step merges and groups.
            var part = FaceLibrary()
            for (hash, faces) in found { part.record(hash, faces.map { FaceLibrary.Entry(face: $0) }) }
            try output.writeStateFile(FaceLibrary.fileName, part.encoded())
            return
        }
        if context.shard == nil, let engine = work.engineToKeep {
            try output.writeStateFile(FaceWork.engineFile, engine)
            output.removeStateFiles(FaceWork.formerDetectorFile, main: true)
        }
        let peopleDigest = NamedFaces.digest(of: context.people)
        // Nothing new, nothing gone, people.yml as it was, the table as the
        // last pass left it: that pass's names, without reading the table.
        if found.isEmpty, !work.mergesParts, context.photoCacheUnchanged, work.trustsMarks,
           let saved = output.readStateFile(NamedFaces.fileName).flatMap(NamedFaces.init(decoding:)),
           saved.peopleDigest == peopleDigest, saved.tableStamp == output.stateFileStamp(FaceLibrary.fileName) {
            context.report.warnings += saved.problems
            if context.settings.publishPeople { Self.addPeople(saved.faces, to: &context.items) }
            context.report.faces = saved.summary
            return
        }
        var library = work.library
        var changed = !found.isEmpty || work.mergesParts
        // The photos without faces that left the library are forgotten once
        // they are many (a pass over every item, a tenth of a second at
        // 100,000): until then a photo of nobody that comes back is known.
        if library.withoutFaces.count > Self.forgettingSlack + context.items.count + context.items.count / 4 {
            library.withoutFaces = library.withoutFaces.keeping(context.items.lazy.map(\.contentHash.description))
            changed = true
        }
        for (hash, faces) in found { library.record(hash, faces.map { FaceLibrary.Entry(face: $0) }) }
        // A photo no longer published (removed, rejected, hidden) takes its faces with it.
        // Paths are kept for photos with faces only (what `people` and the review page name).
        var seen = Set<String>(minimumCapacity: library.photos.count)
        var paths: [String: String] = [:]
        // The faces table names photos by their hashes' text.
        for item in context.items {
            let hash = item.contentHash.description
            guard library.photos[hash] != nil else { continue }
            seen.insert(hash)
            paths[hash] = item.source.relativePath
        }
        if seen.count != library.photos.count {
            library.photos = library.photos.filter { seen.contains($0.key) }
            changed = true
        }
        if paths != library.paths {
            library.paths = paths
            changed = true
        }
        let grouped = FaceGrouping.group(&library)

        let naming = Self.name(library, context: context)
        if naming.names != library.names {
            library.names = naming.names
            changed = true
        }
        // people.yml's names and paths, on the terminal: one line each, control characters escaped.
        let problems = naming.problems.map(DisplayText.oneLine)
        context.report.warnings += problems
        if context.settings.publishPeople {
            Self.addPeople(naming.faces, to: &context.items)
        }
        // Written only when something changed: a rebuild with nothing new encodes nothing.
        if context.shard == nil && (changed || grouped > 0) {
            try output.writeStateFile(FaceLibrary.fileName, library.encoded())
        }
        if context.shard == nil { output.removeStateFiles(FaceLibrary.fileName, main: false) }
        context.report.faces = Self.summary(library, naming: naming, lookedAt: found.count, grouped: grouped,
                                            publishing: context.settings.publishPeople)
        if context.shard == nil, let stamp = output.stateFileStamp(FaceLibrary.fileName) {
            let summary = Self.summary(library, naming: naming, lookedAt: 0, grouped: 0, publishing: context.settings.publishPeople)
            let saved = NamedFaces(tableStamp: stamp, peopleDigest: peopleDigest, summary: summary, problems: problems, faces: naming.faces)
            try output.writeStateFile(NamedFaces.fileName, saved.encoded())
        }
    }

    /// The groups' names, from people.yml and the photos' tagged regions.
    static func name(_ library: FaceLibrary, context: BuildContext) -> FaceNaming {
        // Only the paths people.yml names are looked up (not a map of every item's).
        let referenced = Set(context.people.entries.flatMap { ($0.photos + $0.not).map(\.path) })
        var hashByPath: [String: String] = [:]
        var tagged: [String: [FaceRegion]] = [:]
        for item in context.items {
            if !referenced.isEmpty, referenced.contains(item.source.relativePath) { hashByPath[item.source.relativePath] = item.contentHash.description }
            if item.metadata.hasWords, !item.metadata.words.faces.isEmpty, library.photos[item.contentHash.description]?.isEmpty == false {
                tagged[item.contentHash.description] = item.metadata.words.faces
            }
        }
        return FaceNaming(library: library, people: context.people, tagged: tagged, hashOf: { hashByPath[$0] })
    }

    /// Each photo's named found faces become its people, beside its tags.
    static func addPeople(_ named: [String: [FaceRegion]], to items: inout [MediaItem]) {
        guard !named.isEmpty else { return }
        for index in items.indices {
            guard let regions = named[items[index].contentHash.description] else { continue }
            var metadata = items[index].metadata
            var words = metadata.words
            // Found in the upright picture; regions are kept as taggers write them, for the picture as stored.
            let orientation = metadata.orientation
            words.faces += regions.map { FaceRegion(name: $0.name, area: $0.area.stored(orientation)) }
            for region in regions where !words.people.contains(region.name) { words.people.append(region.name) }
            metadata.words = words
            items[index].metadata = metadata
            // The digest the state made no longer covers what the pages show.
            items[index].metadataDigest = nil
        }
    }

    /// "Faces: 1,234 in 800 photos (12 looked at now); 37 groups of two or more, 5 named."
    static func summary(_ library: FaceLibrary, naming: FaceNaming, lookedAt: Int, grouped: Int, publishing: Bool) -> String {
        let faces = library.photos.values.reduce(0) { $0 + $1.count }
        let withFaces = library.photos.values.count { !$0.isEmpty }
        var sizes: [Int: Int] = [:]
        for faces in library.photos.values { for entry in faces { if let group = entry.group { sizes[group, default: 0] += 1 } } }
        let groups = sizes.values.count { $0 >= 2 }
        var text = "Faces: \(BuildReport.count(faces, "face")) in \(BuildReport.count(withFaces, "photo"))"
        if lookedAt > 0 { text += " (\(BuildReport.count(lookedAt, "photo")) looked at now)" }
        text += "; \(BuildReport.count(groups, "group")) of two or more, \(Set(naming.names.values).count) named"
        if !publishing { text += " (publish_people is off: nobody is published)" }
        return text
    }
}
