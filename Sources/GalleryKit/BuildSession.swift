import Foundation
import GalleryCore
import SiteOutput
import Scanning

/// What one long-running process (`build --watch`) carries from a build to
/// the next. Between builds it waits for changes, idle: it reads the state
/// the last build committed meanwhile (a quarter of a second at 100,000
/// photos that the next build then does not wait for), and that build takes
/// it if the file is still the one read.
///
/// Its builds also keep the heap they grew: handed back after each step, it
/// was faulted in again by the next build, a tenth of a second or more.
///
/// It also remembers what the walk found in each folder (`ScanMemory`):
/// told which folders changed, the next walk lists only those.
public final class BuildSession: @unchecked Sendable {
    /// Set and taken by the thread that runs the builds, one at a time.
    private var nextState: Eventually<BuildState>?
    /// What the last walk found, folder by folder.
    let scanMemory = ScanMemory()

    /// Creates a session with nothing read ahead.
    public init() {}

    /// Before a build: what the watcher saw since the last one (`SourceWatcher.takeChanges`).
    public func sourceChanged(_ changes: ScanMemory.FolderChanges) {
        scanMemory.expect(changes)
    }

    /// Starts reading the state `settings`' build left, for the next build.
    func readAhead(after settings: BuildSettings) {
        let folder = settings.stateFolder
        nextState = Eventually { OutputFolder.readState(in: folder) }
    }

    /// The state read ahead (waiting for the read if it is still going), once.
    func takeState() -> BuildState? {
        defer { nextState = nil }
        return nextState?.value
    }
}
