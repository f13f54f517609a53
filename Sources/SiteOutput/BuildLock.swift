import Foundation

/// Why OUT cannot be built now.
public struct BuildLockError: Error, Sendable, CustomStringConvertible {
    /// The output folder.
    public var output: String
    /// One line for the user.
    public var description: String { "another gallerygen build is already running on '\(output)'" }
}

/// An exclusive `flock` on `STATE/lock`, held for the whole build.
/// The kernel releases it when the process ends, even by SIGKILL, so a crash
/// never leaves a stale lock behind.
public final class BuildLock: @unchecked Sendable {
    private var descriptor: Int32 = -1

    /// Takes OUT's lock or throws at once if another build holds it. The
    /// parts of a sharded build take it `shared` (they run side by side); a
    /// whole build takes it alone.
    public convenience init(output: URL, state: URL, shared: Bool = false) throws {
        try self.init(file: state.appendingPathComponent("lock"), output: output, shared: shared)
    }

    /// Takes the lock on `file` (one part of a sharded build runs once at a time).
    public init(file: URL, output: URL, shared: Bool = false) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BuildLockError(output: output.path) }
        if flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
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
