/// Problems that stop a build before or while it runs: one line each for the user.
public enum GalleryError: Error, Sendable, CustomStringConvertible {
    /// SOURCE does not exist or is not a folder.
    case sourceMissing(String)
    /// OUT is SOURCE or inside it, which would publish the site into the photo folder.
    case outputInsideSource(output: String, source: String)
    /// OUT cannot be created or written.
    case outputNotWritable(String, reason: String)
    /// A setting is invalid.
    case invalidSetting(String)
    /// A file of the site could not be written.
    case writeFailed(String, reason: String)

    /// The message.
    public var description: String {
        switch self {
        case .sourceMissing(let path): return "source folder '\(path)' does not exist or is not a folder"
        case .outputInsideSource(let output, let source):
            return "output folder '\(output)' is inside the source folder '\(source)'; choose a folder outside it"
        case .outputNotWritable(let path, let reason): return "cannot write to output folder '\(path)': \(reason)"
        case .invalidSetting(let what): return what
        case .writeFailed(let path, let reason): return "cannot write '\(path)': \(reason)"
        }
    }
}
