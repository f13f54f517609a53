import Foundation
import SiteOutput

/// Opens OUT (see `OutputFolder.open`) before anything is written, and reads
/// what the previous build left: the whole build's state, and the states of
/// the parts of a sharded build finished since (a whole build merges them
/// all and so makes none of their renditions again; a part reads its own).
struct PrepareOutputStep: BuildStep {
    let name = "prepare output"

    func run(_ context: inout BuildContext) async throws {
        let output = try OutputFolder.open(context.settings.output, source: context.settings.source, state: context.settings.stateFolder,
                                           shard: context.shard, faults: context.writeFaults)
        context.output = output
        var state = output.loadState(preloaded: context.preloadedState.take())
        // A whole build merges every finished part; so does a page part (it
        // plans the whole site from every media part's photos, and takes the
        // pages other page parts made as made); a media part reads its own.
        let parts = context.shard?.phase == .media ? (output.loadOwnShardState().map { [$0] } ?? []) : output.loadShardStates()
        context.mergedParts = !parts.isEmpty
        // Merged, the state is no longer the file's: committed whole.
        if !parts.isEmpty {
            state.base = nil
            try state.loadFiles()
        }
        for part in parts {
            state.photos.merge(part.photos) { _, part in part }
            state.pages.merge(part.pages) { _, part in part }
            state.files += part.files  // owned: kept if produced, pruned if not
        }
        context.previousState = state
    }
}
