/// Problems that stop a build before or while it runs: one line each for the user.
/// (Problems with OUT itself are `OutputError`s, from the folder's owner.)
public enum GalleryError: Error, Sendable, CustomStringConvertible {
    /// SOURCE does not exist or is not a folder.
    case sourceMissing(String)
    /// A setting is invalid.
    case invalidSetting(String)

    /// The message.
    public var description: String {
        switch self {
        case .sourceMissing(let path): return "source folder '\(path)' does not exist or is not a folder"
        case .invalidSetting(let what): return what
        }
    }
}
