import GalleryCore

/// What follows from `SettingsSchema` for people: the commented `gallery.yml`
/// that `gallerygen init` writes and the settings table of the README. Every
/// value shown is the default, so the file changes nothing until edited (a
/// test parses it, and checks the README's table against `readmeTable`).
public enum ConfigTemplate {
    /// The file's text.
    public static var text: String {
        var lines = [
            "# gallery.yml: settings for `gallerygen build`. Put it in the root of your",
            "# photo folder (or pass --config FILE). Command-line flags override it.",
            "# Unknown keys and bad values are errors that name the key and the line.",
            "# Every value below is the default; a setting with no default to write",
            "# shows an example, commented out.",
        ]
        var openGroup: String?
        for setting in SettingsSchema.all {
            var key = setting.key
            var indent = ""
            if let dot = key.firstIndex(of: ".") {
                let group = String(key[..<dot])
                if openGroup != group {
                    lines += ["", "\(group):"]
                    openGroup = group
                }
                key = String(key[key.index(after: dot)...])
                indent = "  "
            } else {
                openGroup = nil
            }
            lines.append("")
            lines.append("\(indent)# \(setting.help)")
            if let example = setting.exampleText {
                // No default to write: an example to uncomment.
                lines.append("\(indent)# Default: \(setting.defaultText). Allowed: \(setting.expectation). For example:")
                lines.append("\(indent)# \(key): \(example)")
            } else {
                lines.append("\(indent)# Allowed: \(setting.expectation).")
                lines.append("\(indent)\(key): \(setting.defaultText)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The README's settings table (Markdown).
    public static var readmeTable: String {
        var rows = ["| key | default | flag | allowed | what it does |", "| --- | --- | --- | --- | --- |"]
        for setting in SettingsSchema.all {
            let flag = setting.flag.map { "`--\($0)`" } ?? ""
            rows.append("| `\(setting.key)` | `\(setting.defaultText)` | \(flag) | \(setting.expectation) | \(setting.help) |")
        }
        return rows.joined(separator: "\n") + "\n"
    }
}
