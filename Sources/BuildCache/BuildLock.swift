import Foundation

/// Why OUT cannot be built now.
public struct BuildLockError: Error, Sendable, CustomStringConvertible {
    /// The output folder.
    public var output: String
    /// One line for the user.
    public var description: String { "another gallerygen build is already running on '\(output)'" }
}

/// An exclusive `flock` on `OUT/.gallerygen/lock`, held for the whole build.
/// The kernel releases it when the process ends, even by SIGKILL, so a crash
/// never leaves a stale lock behind.
public final class BuildLock: @unchecked Sendable {
    private var descriptor: Int32 = -1

    /// Takes the lock or throws at once if another build holds it.
    public init(output: URL) throws {
        let folder = output.appendingPathComponent(BuildState.folderName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BuildLockError(output: output.path) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            close(descriptor)
            descriptor = -1
            throw BuildLockError(output: output.path)
        }
    }

    deinit { release() }

    /// Releases the lock (also done on deinit).
    public func release() {
        if descriptor >= 0 {
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }
}
