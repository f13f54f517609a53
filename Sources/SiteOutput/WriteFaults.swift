import Foundation

/// Faults of a full disk, a quota or a read-only mount without needing one:
/// a rule called with the full path of every file the owner of OUT writes
/// (site files, the journal, the state); an errno it returns fails that write
/// as the file system would. Handed to one build (`GalleryBuilder.build(…,
/// faults:)`) by the tests that need it; a real build has none.
public struct WriteFaults: Sendable {
    let rule: @Sendable (String) -> Int32?

    public init(_ rule: @escaping @Sendable (String) -> Int32?) { self.rule = rule }

    /// The error writing `path` meets, if any.
    func fault(_ path: String) -> POSIXError? {
        rule(path).map { POSIXError(POSIXErrorCode(rawValue: $0) ?? .EIO) }
    }
}
