import Foundation
import GalleryCore

/// Why OUT cannot be used or written: one line for the user, naming the path.
public enum OutputError: Error, Sendable, CustomStringConvertible {
    /// OUT is SOURCE or inside it, which would publish the site into the photo folder.
    case insideSource(output: String, source: String)
    /// OUT cannot be created or written.
    case notWritable(String, reason: String)
    /// Another build holds OUT's lock.
    case locked(String)
    /// A file of the site could not be written.
    case writeFailed(String, reason: String)

    /// The message.
    public var description: String {
        switch self {
        case .insideSource(let output, let source):
            return "output folder '\(output)' is inside the source folder '\(source)'; choose a folder outside it"
        case .notWritable(let path, let reason): return "cannot write to output folder '\(path)': \(reason)"
        case .locked(let path): return "another gallerygen build is already running on '\(path)'"
        case .writeFailed(let path, let reason): return "cannot write '\(path)': \(reason)"
        }
    }

    /// The text of an errno value ("No space left on device").
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A short, specific reason from a Foundation error (see `ErrorText`).
    static func reason(_ error: Error) -> String { ErrorText.describe(error) }
}
