import Foundation

/// One part of a build split across machines. First the media (`--shard
/// I/N`): this copy of gallerygen makes the renditions of the media whose
/// shard key falls to part `index` of `count`, and renders no pages. Keys
/// come from the files' contents, so a renamed or moved photo stays in its
/// part, copies of one photo fall in the same part (two parts never write the
/// same file), and the parts are balanced. Then, optionally, the pages
/// (`--pages I/N`): each part renders the pages whose path hashes to it.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// What the parts split.
    public enum Phase: Sendable, Equatable {
        case media, pages
    }

    /// 0 ..< count.
    public let index: Int
    /// How many parts.
    public let count: Int
    /// Media or pages.
    public let phase: Phase

    public init(index: Int, count: Int, phase: Phase = .media) {
        self.index = index
        self.count = count
        self.phase = phase
    }

    /// "2/3": this part's number counted from 1, for people.
    public var description: String { "\(index + 1)/\(count)" }

    /// The name of the part's files in the state folder's `shards/` ("1-of-3",
    /// "pages-1-of-3"; 0-based).
    public var fileName: String { (phase == .pages ? "pages-" : "") + "\(index)-of-\(count)" }

    /// True when the file with shard key `key` is this part's.
    public func owns(key: UInt64) -> Bool { Int(key % UInt64(count)) == index }

    /// Why a `--shard` value cannot be used.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `I/N` (I from 0), `auto/N` (I from Kubernetes' `JOB_COMPLETION_INDEX`)
    /// or `auto` (I and N from Slurm's `SLURM_ARRAY_TASK_ID`, `_MIN`, `_STEP`
    /// and `_COUNT`).
    public static func parse(_ text: String, environment: [String: String], flag: String = "--shard", phase: Phase = .media) throws(ParseError) -> Shard {
        func integer(_ name: String, _ value: String?) throws(ParseError) -> Int {
            guard let value else { throw ParseError(description: "\(flag) \(text) needs \(name) in the environment") }
            guard let number = Int(value.trimmingCharacters(in: .whitespaces)), number >= 0 else {
                throw ParseError(description: "\(name)=\(value) is not a whole number")
            }
            return number
        }
        let index: Int, count: Int
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts == ["auto"] {
            let id = try integer("SLURM_ARRAY_TASK_ID", environment["SLURM_ARRAY_TASK_ID"])
            let minimum = try integer("SLURM_ARRAY_TASK_MIN", environment["SLURM_ARRAY_TASK_MIN"])
            let step = max(1, try environment["SLURM_ARRAY_TASK_STEP"].map { (v) throws(ParseError) in try integer("SLURM_ARRAY_TASK_STEP", v) } ?? 1)
            count = try integer("SLURM_ARRAY_TASK_COUNT", environment["SLURM_ARRAY_TASK_COUNT"])
            guard id >= minimum, (id - minimum) % step == 0 else {
                throw ParseError(description: "SLURM_ARRAY_TASK_ID=\(id) is not in the array from \(minimum) by \(step)")
            }
            index = (id - minimum) / step
        } else if parts.count == 2, let n = Int(parts[1]) {
            count = n
            index = parts[0] == "auto" ? try integer("JOB_COMPLETION_INDEX", environment["JOB_COMPLETION_INDEX"])
                : try integer("the part in \(flag) \(text)", parts[0])
        } else {
            throw ParseError(description: "\(flag) takes I/N (I from 0), auto/N (Kubernetes) or auto (Slurm), not '\(text)'")
        }
        guard count >= 1 else { throw ParseError(description: "\(flag) \(text): the number of parts must be at least 1") }
        guard index < count else { throw ParseError(description: "\(flag) \(text): part \(index) is not below \(count) (parts count from 0)") }
        return Shard(index: index, count: count, phase: phase)
    }
}
