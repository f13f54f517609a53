import Foundation
import Glibc
import GalleryCore
import Scanning

/// Waits for changes under SOURCE with inotify, for `build --watch`.
///
/// Every folder is watched (new folders are added as they appear); a burst of
/// events (a camera import, an editor's save) is collapsed by waiting until
/// the tree has been quiet: briefly once every file written to has been
/// closed, longer while one is still open (a slow copy pauses mid-file).
public final class SourceWatcher {
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let root: String
    private let mask: UInt32 = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                                      | IN_DELETE_SELF | IN_MOVE_SELF)
    /// Files created or written to and not yet closed, by watch and name.
    private var beingWritten: Set<WrittenFile> = []
    /// Folders an event came from since `takeChanges`; nil once an event
    /// was lost (the queue overflowed).
    private var changedFolders: Set<String>? = []
    /// Entries events named since `takeChanges` (files, and folders made,
    /// removed or moved there, with whatever was already inside them).
    private var namedEntries: Set<String> = []

    private struct WrittenFile: Hashable {
        var watch: Int32
        var name: String
    }

    /// Starts watching `root` and every folder below it.
    public init(root: URL) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw GalleryError.invalidSetting("cannot watch files: \(String(cString: strerror(errno)))") }
        // Named as the scanner names SOURCE: a folder's path here is its path there.
        self.root = root.standardizedFileURL.path
        addTree(self.root, into: &folders)
    }

    /// Watches exactly SOURCE's folders as they are now. A folder moved out
    /// of SOURCE would go on being watched (its changes starting builds),
    /// and one created while the queue overflowed would not be: called after
    /// every build, so each rebuild also mends the watches.
    /// Watching an already watched folder gives back its watch, so only
    /// folders that appeared or went away cost anything.
    public func resync() {
        var current: [Int32: String] = [:]
        addTree(root, into: &current)
        for wd in folders.keys where current[wd] == nil { inotify_rm_watch(descriptor, wd) }
        folders = current
    }

    deinit { close(descriptor) }

    /// What changed since the last call, for a walk that lists only that
    /// (`ScanMemory`). Called between a wait and the build it starts.
    public func takeChanges() -> ScanMemory.FolderChanges {
        defer {
            changedFolders = []
            namedEntries = []
        }
        return ScanMemory.FolderChanges(watched: Set(folders.values), changed: changedFolders, named: namedEntries)
    }

    private func addTree(_ path: String, into folders: inout [Int32: String]) {
        let wd = inotify_add_watch(descriptor, path, mask | UInt32(IN_ONLYDIR))
        if wd >= 0 { folders[wd] = path }
        // Resynced after every build: entry types from the listing, not a stat of each photo.
        var children: [String] = []
        FolderEntries.forEach(in: path) { name, isFolder in
            if isFolder, !name.hasPrefix(".") { children.append(name) }
        }
        for name in children { addTree(path + "/" + name, into: &folders) }
    }

    /// Blocks until something changed and then stayed quiet, or (with
    /// `giveUpAfter`) until that many seconds passed with no change. Quiet
    /// is `settle` seconds once every file written to has been closed, and
    /// `debounce` seconds while one is still open. Returns the number of
    /// events seen (0: none).
    public func waitForChanges(debounce: Double = 0.5, settle: Double = 0.15, giveUpAfter: Double? = nil) -> Int {
        var events = 0
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // Wait for the first event, then until a quiet period.
        let idle: Int32 = giveUpAfter.map { Int32($0 * 1000) } ?? -1
        var timeout = idle
        while true {
            let ready = poll(&poller, 1, timeout)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 {
                // Only ended watches so far: nothing changed, keep waiting.
                if events > 0 || idle >= 0 { break }
                continue
            }
            events += drain()
            timeout = events > 0 ? Int32((beingWritten.isEmpty ? min(settle, debounce) : debounce) * 1000) : idle
        }
        // A file still open but quiet this long (or never to be closed: a
        // link made with `ln`) is forgotten; its next write notes it again.
        beingWritten.removeAll()
        return events
    }

    private func drain() -> Int {
        var count = 0
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = read(descriptor, buffer, size)
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                   let parent = folders[event.wd], !name.hasPrefix(".") {
                    addTree(parent + "/" + name, into: &folders)
                }
                noteWriting(event, name: name)
                noteChange(event, name: name)
                if event.mask & UInt32(IN_IGNORED) != 0 {
                    // A watch that ended (its folder deleted, or resync
                    // dropped it): not a change of its own.
                    folders[event.wd] = nil
                } else {
                    count += 1
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
        return count
    }

    /// Notes the folder an event came from, and the entry it names: a
    /// folder made, removed or moved there is walked afresh, and so is all
    /// that is below it (made before its watch was, or another folder's
    /// that had the same path, its changes seen by no watch of this path).
    private func noteChange(_ event: inotify_event, name: String) {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changedFolders = nil
            return
        }
        // A watch that ended is no change; nor is an event from a folder no
        // longer watched (moved out of SOURCE: its parent's event says so).
        guard event.mask & UInt32(IN_IGNORED) == 0, let folder = folders[event.wd] else { return }
        changedFolders?.insert(folder)
        if !name.isEmpty { namedEntries.insert(folder + "/" + name) }
        // A folder removed or moved (SOURCE itself, too): what is recorded at its path and below is not what is there now.
        if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { namedEntries.insert(folder) }
    }

    /// Follows which files are open for writing: created or modified and
    /// not yet closed, deleted or moved away.
    private func noteWriting(_ event: inotify_event, name: String) {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: which files are open is no longer known.
            beingWritten.removeAll()
            return
        }
        if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF) != 0 {
            beingWritten = beingWritten.filter { $0.watch != event.wd }
            return
        }
        guard !name.isEmpty, event.mask & UInt32(IN_ISDIR) == 0 else { return }
        let file = WrittenFile(watch: event.wd, name: name)
        if event.mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 {
            beingWritten.remove(file)
        } else if event.mask & UInt32(IN_CREATE | IN_MODIFY) != 0 {
            beingWritten.insert(file)
        }
    }
}
