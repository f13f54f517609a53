import Foundation
import GalleryCore

/// What a walk found in each folder, kept by a process that walks SOURCE
/// again and again (`build --watch`): a folder nothing happened in since is
/// not listed again, its events are replayed. At 100,000 photos the walk's
/// `lstat` of every file was most of a rebuild's media step.
///
/// Which folders are unchanged is the watcher's to say (`expect`): a folder
/// is replayed only if it was watched before the walk that recorded it
/// listed it, and no event came from it or named it since. Anything else, a
/// lost event, other walk options, links followed, is walked afresh.
public final class ScanMemory: @unchecked Sendable {
    /// What a watcher saw between two walks (`SourceWatcher.takeChanges`),
    /// folders named by their paths as the scanner names them.
    public struct FolderChanges: Sendable {
        /// The folders watched now: only these are recorded and replayed.
        public var watched: Set<String>
        /// The folders events came from; nil when that is not known (the
        /// watcher's queue overflowed): every folder is walked.
        public var changed: Set<String>?
        /// The entries events named (files, and folders made, removed or
        /// moved there), each forgotten with everything below it: another
        /// folder at that path may hold inner folders of the same names.
        public var named: Set<String>

        public init(watched: Set<String>, changed: Set<String>?, named: Set<String>) {
            self.watched = watched
            self.changed = changed
            self.named = named
        }
    }

    /// One folder's walk: used only by the thread walking, and between walks.
    struct Folder {
        let id: SourceScanner.DirectoryID
        /// Its album event and its files' events, in the order walked.
        let events: [ScanEvent]
        let subfolders: [SourceScanner.Subfolder]
    }

    /// The walk the folders were recorded by (other options: other events).
    struct Walk: Equatable {
        let root: String
        let excluded: Set<String>
        let options: ScanOptions
    }

    private var folders: [String: Folder] = [:]
    private var walk: Walk?
    /// Folders watched since before this walk: only these are recorded and replayed.
    private var watched: Set<String> = []
    /// Folders recorded or replayed this walk; the others are gone.
    private var seen: Set<String> = []
    /// Folders replayed by the last walk.
    public private(set) var replayed = 0

    /// Creates an empty memory: the first walk lists every folder.
    public init() {}

    /// Before a walk: what the watcher saw since the last one.
    public func expect(_ changes: FolderChanges) {
        self.watched = changes.watched
        guard let changed = changes.changed else {
            folders.removeAll()
            return
        }
        // A named file has no folder and none below it; a named folder's
        // inner folders are found through its record, one level at a time
        // (before the changed folders' records go: a folder both changed and
        // named is forgotten with all below it).
        var gone = changes.named.filter { folders[$0] != nil }
        while !gone.isEmpty {
            var inner: Set<String> = []
            for path in gone {
                guard let folder = folders.removeValue(forKey: path) else { continue }
                for subfolder in folder.subfolders { inner.insert(path + "/" + subfolder.name) }
            }
            gone = inner
        }
        for path in changed { folders[path] = nil }
    }

    func begin(_ walk: Walk) {
        if walk != self.walk { folders.removeAll() }
        self.walk = walk
        seen.removeAll(keepingCapacity: true)
        replayed = 0
    }

    /// The folder at `raw`'s recorded walk, if it still holds.
    func replay(_ raw: [UInt8]) -> Folder? {
        guard let path = Self.path(raw), watched.contains(path), let folder = folders[path] else { return nil }
        seen.insert(path)
        replayed += 1
        return folder
    }

    /// Whether a walk of the folder at `raw` can be recorded (it is watched).
    func records(_ raw: [UInt8]) -> Bool {
        Self.path(raw).map(watched.contains) ?? false
    }

    func record(_ raw: [UInt8], _ folder: Folder) {
        guard let path = Self.path(raw) else { return }
        folders[path] = folder
        seen.insert(path)
    }

    /// After a walk: folders it did not reach are gone (or hidden now).
    func end() {
        if seen.count < folders.count { folders = folders.filter { seen.contains($0.key) } }
    }

    /// A folder's path as the watcher names it; nil for a name that is not UTF-8 (always walked).
    private static func path(_ raw: [UInt8]) -> String? {
        String(validating: raw, as: UTF8.self)
    }
}
