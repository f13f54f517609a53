import SiteOutput
import Foundation

/// Removes files an earlier build made that this build no longer produces,
/// then commits the new state (which closes the journal and releases the
/// lock). Only files the previous state lists (or an interrupted build
/// journaled) are ever deleted, so a user's own files in OUT stay.
struct PruneStep: BuildStep {
    let name = "prune"

    func run(_ context: inout BuildContext) async throws {
        let output = try context.openOutput()
        // Nothing the state holds changed (a no-op): every page was taken
        // whole and the inputs' digest (each item's renditions' paths, the
        // downloads', the theme's) is the previous build's, so the files
        // produced are the previous build's. With nothing written or left
        // by a killed build there is nothing to prune, nor a state to encode.
        let unchanged = context.photoCacheUnchanged && context.pagesReused && !context.mergedParts && context.shard == nil
            && context.siteInputs == context.previousState.siteInputs && context.previousState.version == BuildState.currentVersion
        if unchanged, output.interruptedFiles.isEmpty, output.wroteNothing {
            output.commitUnchanged()
            return
        }
        // Every file produced is wanted: the deferred items' renditions too,
        // which are among the previous build's files when those are produced
        // again (the site's inputs, their renditions' paths among them, are the previous build's).
        if !context.producedFiles.includesPreviousFiles { try context.makeDeferredItems() }
        // The items are not pruned by: let go of before OUT's lists are
        // made, not held beside them (a third of a first build's peak), and
        // their memory handed back at once. The page step's plan and
        // gallery, let go of on a thread of their own, hold them too; the
        // items' list is let go of a part on each core, and the prune waits
        // until all is freed (freed meanwhile, it was still held when the
        // lists, fresh blocks of 100 MB and more at a million items, were
        // made: a removal's peak was the prune's).
        //
        // A build that rendered few pages (an add, a caption) kept its plan
        // beside the items while it rendered, a peak the lists do not reach
        // with the plan let go of: its items stay until the build ends and
        // the process frees them all at once (a million items freed one by
        // one were 0.8 s of a 15 s add).
        var clock = PhaseClock(step: name)
        if context.renderedMostPages {
            let items = context.items
            context.items = []
            ReleasedLater.dropInParts(items)
        }
        ReleasedLater.waitUntilFreed()
        if context.handsBackFreeMemory { MemoryTuning.releaseFreeMemory() }
        clock.end(context.renderedMostPages ? "the items freed" : "the plan freed", in: &context.report)
        var produced = context.producedFiles
        context.producedFiles = ProducedFiles()
        if produced.includesPreviousFiles { produced.append(contentsOf: try context.previousState.loadedFiles()) }
        let (removed, files, sameFiles) = try output.prune(previous: context.previousState, produced: produced)
        context.report.filesRemoved = removed
        clock.end("OUT's files sifted and the stale removed", in: &context.report)
        defer { clock.end("the state committed", in: &context.report) }
        if sameFiles, unchanged {
            output.commitUnchanged()
        } else {
            var state = files.map { BuildState(fileList: $0, photos: context.photoCache, pages: context.pageRecords) }
                ?? BuildState(files: Array(produced.set), photos: context.photoCache, pages: context.pageRecords)
            state.siteInputs = context.siteInputs
            // What changed since the state read: the rest is copied from its file.
            state.base = context.previousState.base
            state.changedPhotos = context.mergedParts ? nil : context.changedPhotos
            state.photoCountWithBase = context.photoCountWithBase
            state.pageCountWithBase = context.pageCountWithBase
            state.changedPages = context.changedPages
            context.report.stateFromBase = try output.commit(state)
        }
        context.report.filesWritten = output.writtenPaths
    }
}
