import Foundation
import GalleryCore

/// Which files OUT holds, listed once when a build opens it, on a thread of
/// its own while the build reads its state and SOURCE; files the build writes
/// are added as they are written. A no-op of 100,000 items asks whether
/// 200,000 renditions and pages exist: a set lookup each, where an `access`
/// call each was a tenth of the build.
///
/// Paths are kept as `PathKey`s (a 128-bit hash, 16 bytes each, not a
/// string): two paths with one hash are not a concern at 2^-128.
final class OutputListing: @unchecked Sendable {
    /// Guards `present` and `ready`: a read-write lock, since every core asks
    /// at once (a plain lock's waits were a tenth of an add's page comparison)
    /// and a file is seldom written meanwhile.
    private let guardian: UnsafeMutablePointer<pthread_rwlock_t>
    private var present = PathKeySet()
    /// The listing is complete (set under the lock, before `listed` is signalled).
    private var ready = false
    private let listed = DispatchSemaphore(value: 0)

    private let root: URL

    init(root: URL) {
        self.root = root
        guardian = .allocate(capacity: 1)
        pthread_rwlock_init(guardian, nil)
    }

    deinit {
        pthread_rwlock_destroy(guardian)
        guardian.deallocate()
    }

    private func reading<Result>(_ body: () -> Result) -> Result {
        pthread_rwlock_rdlock(guardian)
        defer { pthread_rwlock_unlock(guardian) }
        return body()
    }

    private func writing<Result>(_ body: () -> Result) -> Result {
        pthread_rwlock_wrlock(guardian)
        defer { pthread_rwlock_unlock(guardian) }
        return body()
    }

    /// Starts listing the folder (nothing, if it does not exist): once OUT
    /// is locked and an interrupted build's leftovers are gone.
    func start() {
        let path = root.path
        let thread = Thread { [self] in
            var found = PathKeySet()
            Self.list(path, relative: "", into: &found)
            // Taken whole when nothing was written meanwhile (no second set).
            writing {
                if present.isEmpty { present = found } else { present.formUnion(found) }
                ready = true
            }
            listed.signal()
        }
        // A frame per folder level: as deep a stack as the SOURCE walker has.
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// True when `path` (relative to the root) was there when listed, or was added since.
    func contains(_ path: String) -> Bool { contains(PathKey(path)) }

    /// True when the file whose key is `key` was there when listed, or was added since.
    func contains(_ key: PathKey) -> Bool {
        if let known = reading({ ready ? present.contains(key) : nil }) { return known }
        listed.wait()
        listed.signal()  // every other waiter passes too
        return reading { present.contains(key) }
    }

    /// Records a file written since the listing.
    func add(_ path: String) {
        let key = PathKey(path)
        _ = writing { present.insert(key) }
    }

    /// Records a file removed since the listing.
    func remove(_ path: String) {
        let key = PathKey(path)
        _ = writing { present.remove(key) }
    }

    /// Every file below `folder` (names only, see `FolderEntries`).
    private static func list(_ folder: String, relative: String, into found: inout PathKeySet) {
        FolderEntries.forEach(in: folder) { name, isFolder in
            let child = relative.isEmpty ? name : relative + "/" + name
            if isFolder {
                list(folder + "/" + name, relative: child, into: &found)
            } else {
                found.insert(PathKey(child))
            }
        }
    }
}
