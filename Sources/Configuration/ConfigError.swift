/// A problem in `gallery.yml` or an `album.yml`: names the file, the line and
/// the key, in one line.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// The key concerned (dotted for nested keys), when known.
    public var key: String?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `gallery.yml:12: key 'quality': must be …`.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "key '\(key)': " }
        return text + message
    }
}
