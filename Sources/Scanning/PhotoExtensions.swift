/// The file extensions treated as photos, in any letter case.
public enum PhotoExtensions {
    /// `jpg jpeg png gif webp`.
    public static let all: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]

    /// True when `fileName` ends in a photo extension.
    public static func isPhoto(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return false }
        return all.contains(fileName[fileName.index(after: dot)...].lowercased())
    }
}
