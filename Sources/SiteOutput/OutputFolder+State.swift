import Foundation
import GalleryCore

/// Reading and committing the build state in the state folder: the whole
/// build's (`state.bin`, committed from the file it was read from when it
/// can be: `StateDelta.swift`) and the parts' of a sharded build.
extension OutputFolder {
    /// The previous build's state; empty when there is none, it is
    /// unreadable, or of another version (a full rebuild, never a wrong site).
    /// `preloaded`: the same file read ahead (`readState(in:)`, by a watcher
    /// while it waited), taken if the file is still the one it read.
    public func loadState(preloaded: BuildState? = nil) -> BuildState {
        let location = BuildState.location(in: stateFolder)
        // A media part reads only its own photos' entries, and none of the files.
        if let shard, shard.phase == .media {
            guard let data = try? Data(contentsOf: location, options: .alwaysMapped) else { return BuildState() }
            return (try? BuildState.decode(data, keeping: { shard.owns(key: $0) }, withFiles: false)) ?? BuildState()
        }
        if let preloaded, let identity = preloaded.base?.identity, FileIdentity(path: location.path) == identity {
            return preloaded
        }
        return Self.readState(in: stateFolder)
    }

    /// The state a whole build (or a page part) left in `stateFolder`: read
    /// by `loadState`, or ahead of the next build by a process that runs
    /// many (`build --watch`). Empty when there is none or it is unreadable.
    public static func readState(in stateFolder: URL) -> BuildState {
        let location = BuildState.location(in: stateFolder)
        // Kept open: the list of files is read from it when pruning.
        // Mapped, not read: the pages it touches stay the file's (the kernel can drop them), not the heap's,
        // and are handed back as the decoding moves past them.
        guard let file = StateFile(location), let identity = FileIdentity(descriptor: file.descriptor),
              let mapped = MappedFile(descriptor: file.descriptor) else { return BuildState() }
        // Mapped from the open file: its bytes are the identity's.
        guard var state = try? BuildState.decode(mapped.data, file: file, passed: mapped.release) else { return BuildState() }
        state.base?.file = location
        state.base?.identity = identity
        return state
    }

    /// The states of the parts of a sharded build that finished since the
    /// last whole build (unreadable ones are left out: their media is made again).
    public func loadShardStates() -> [BuildState] {
        shardFiles(".bin").compactMap(Self.readState)
    }

    /// A part's state, if this part finished before (a rerun then makes nothing).
    public func loadOwnShardState() -> BuildState? {
        guard let shard else { return nil }
        return Self.readState(Self.shardsFolder(stateFolder).appendingPathComponent(shard.fileName + ".bin"))
    }

    /// A part's state file, or nil when it is missing or unreadable.
    fileprivate static func readState(_ file: URL) -> BuildState? {
        (try? Data(contentsOf: file)).flatMap { try? BuildState.decode($0) }
    }

    /// Commits `state` (atomically; nothing is written when the file already
    /// holds these bytes, as after a no-op build), closes the journal and
    /// releases the lock: the build is complete.
    /// Returns whether it was made from the previous state's file (`encodeFromBase`).
    @discardableResult
    public func commit(_ state: BuildState) throws(OutputError) -> Bool {
        let location = BuildState.location(in: stateFolder)
        let fromBase = state.canEncodeFromBase ? try commitFromBase(state, to: location) : false
        if !fromBase {
            var sink = AtomicFile.UnlessUnchanged(url: location, fault: injectedFault)
            do {
                try state.encode { (chunk) throws(OutputError) in try sink.write(chunk) }
                try sink.finish()
            } catch {
                sink.abandon()
                throw error
            }
        }
        // The parts' states and journals are merged into this state now.
        for file in shardFiles(".bin") + shardFiles(".journal") { unlink(file.path) }
        commitUnchanged()
        return fromBase
    }

    /// Commits `state` made from the file it was read from (`encodeFromBase`):
    /// false, with nothing written, when that file cannot serve.
    private func commitFromBase(_ state: BuildState, to location: URL) throws(OutputError) -> Bool {
        // Encoded whole while the base file is still there (entries may be left in it).
        let expected = BuildState.checksEncodingFromBase.load(ordering: .relaxed) ? state.encoded() : nil
        var sink = AtomicFile.UnlessUnchanged(url: location, fault: injectedFault)
        do throws(StateDeltaError) {
            try state.encodeFromBase(copy: { (descriptor, range) throws(OutputError) in try sink.copy(from: descriptor, range) }) {
                (chunk) throws(OutputError) in try sink.write(chunk)
            }
        } catch {
            sink.abandon()
            switch error {
            case .unusable: return false
            case .output(let fault): throw fault
            }
        }
        do {
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
        if let expected, (try? Data(contentsOf: location)) != expected {
            throw .writeFailed(location.path, reason: "internal: the state made from the previous one differs from the state encoded whole")
        }
        return true
    }

    /// Moves the state an earlier version kept in `OUT/.gallerygen` (where it
    /// was published with the site) to `state`, unless `state` already has
    /// one, and removes that folder from OUT. Once: afterwards there is none.
    static func migrateLegacyState(from output: URL, to state: URL) {
        let fm = FileManager.default
        let legacy = output.appendingPathComponent(BuildState.legacyFolderName)
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: legacy.path, isDirectory: &isFolder), isFolder.boolValue else { return }
        if !fm.fileExists(atPath: BuildState.location(in: state).path) {
            // The state, a killed build's journal, and finished parts' states and journals.
            for name in [BuildState.fileName, "journal", "shards"] {
                let from = legacy.appendingPathComponent(name), to = state.appendingPathComponent(name)
                guard fm.fileExists(atPath: from.path) else { continue }
                if rename(from.path, to.path) != 0 {
                    // Another file system: copy, then the folder goes below.
                    try? fm.copyItem(at: from, to: to)
                }
            }
        }
        try? fm.removeItem(at: legacy)
    }
}
