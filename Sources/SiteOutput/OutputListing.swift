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
///
/// Once the build asks no more of the listing but seldom (`letGo`: from
/// the page step's rendering on, only a person's avatar is looked for), the
/// keys are let go and the few questions left are asked of the file system:
/// at 1,000,000 items a first build has written two million renditions by
/// then, and their keys (some 45 MB) were held through its peak for nothing.
final class OutputListing: @unchecked Sendable {
    /// Guards `present`, `ready` and `isLetGo`: a read-write lock, since every core asks
    /// at once (a plain lock's waits were a tenth of an add's page comparison)
    /// and a file is seldom written meanwhile.
    private let guardian: UnsafeMutablePointer<pthread_rwlock_t>
    private var present = PathKeySet()
    /// The listing is complete (set under the lock, before `listed` is signalled).
    private var ready = false
    /// The keys were let go (`letGo`): the file system answers.
    private var isLetGo = false
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

    /// What the listing says of one path.
    private enum Lookup {
        case held(Bool)
        case stillListing
        case letGo
    }

    private func lookUp(_ key: PathKey) -> Lookup {
        reading { isLetGo ? .letGo : ready ? .held(present.contains(key)) : .stillListing }
    }

    /// True when `path` (relative to the root) was there when listed, or was added since.
    func contains(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { contains(UnsafeRawBufferPointer($0)) }
    }

    /// Likewise for the path whose UTF-8 is `path`.
    func contains(_ path: UnsafeRawBufferPointer) -> Bool {
        let key = PathKey(path)
        var lookup = lookUp(key)
        if case .stillListing = lookup {
            listed.wait()
            listed.signal()  // every other waiter passes too
            lookup = lookUp(key)
        }
        switch lookup {
        case .held(let present): return present
        case .letGo, .stillListing: return exists(path)
        }
    }

    /// Lets go of the keys: `contains` asks the file system from now on, and
    /// files written or removed are no longer recorded.
    func letGo() {
        listed.wait()
        listed.signal()
        writing {
            isLetGo = true
            present = PathKeySet()
        }
    }

    /// Whether OUT holds `path` now (asked once the keys are let go).
    private func exists(_ path: UnsafeRawBufferPointer) -> Bool {
        access(root.path + "/" + String(decoding: path, as: UTF8.self), F_OK) == 0
    }

    /// Records a file written since the listing (hashed only while the keys
    /// are held: a first build writes a million pages after they are let go).
    func add(_ path: String) {
        _ = writing { isLetGo ? false : present.insert(PathKey(path)) }
    }

    /// Records a file removed since the listing.
    func remove(_ path: String) {
        _ = writing { isLetGo ? false : present.remove(PathKey(path)) }
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
