import Foundation
import GalleryCore
import Yams

/// Reads `gallery.yml` into `Settings` through `SettingsSchema`: every key is
/// looked up in the schema and its value checked by the setting's own type, so
/// an error names the file, the line and the key.
public enum ConfigFile {
    /// Reads `url` into `settings`; errors name the file by its last component.
    public static func load(_ url: URL, into settings: inout Settings) throws(ConfigError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigError(file: url.path, line: nil, key: nil, message: "cannot be read")
        }
        try parse(String(decoding: data, as: UTF8.self), file: url.lastPathComponent, into: &settings)
        // A theme folder named relative to the config file, not to wherever gallerygen runs.
        if case .file = settings.origin(ofKey: SettingsSchema.shared.theme.key) {
            let theme = settings.theme
            if theme.contains("/") || theme.hasPrefix(".") {
                settings.theme = URL(fileURLWithPath: theme, relativeTo: url.deletingLastPathComponent()).standardizedFileURL.path
            }
        }
        // So are the state folder and the face models'.
        if case .file = settings.origin(ofKey: SettingsSchema.shared.state.key), !settings.state.isEmpty {
            settings.state = URL(fileURLWithPath: settings.state, relativeTo: url.deletingLastPathComponent()).standardizedFileURL.path
        }
        if case .file = settings.origin(ofKey: SettingsSchema.shared.faceModels.key), !settings.faceModels.isEmpty {
            settings.faceModels = URL(fileURLWithPath: settings.faceModels, relativeTo: url.deletingLastPathComponent()).standardizedFileURL.path
        }
    }

    /// Parses YAML text into `settings` (keys not in the text keep their values).
    public static func parse(_ text: String, file: String = "gallery.yml", into settings: inout Settings) throws(ConfigError) {
        let reader = YAMLReader(file: file)
        try apply(try reader.mapping(text), reader: reader, into: &settings)
    }

    /// Settings from YAML text, on top of the defaults.
    public static func parse(_ text: String, file: String = "gallery.yml") throws(ConfigError) -> Settings {
        var settings = Settings()
        try parse(text, file: file, into: &settings)
        return settings
    }

    static func apply(_ entries: [(key: String, value: Node, line: Int?)], reader: YAMLReader, into settings: inout Settings) throws(ConfigError) {
        for (key, value, line) in entries {
            if SettingsSchema.groups.contains(key) {
                try apply(try reader.entries(value, path: key), reader: reader, into: &settings)
                continue
            }
            guard let setting = SettingsSchema.setting(forKey: key) else {
                let prefix = key.firstIndex(of: ".").map { String(key[...$0]) }
                let known = SettingsSchema.all.map(\.key).filter { prefix == nil ? !$0.contains(".") : $0.hasPrefix(prefix!) }
                    + (prefix == nil ? SettingsSchema.groups : [])
                throw reader.unknown(key, line, known: known)
            }
            let input: SettingInput
            if let scalar = value.scalar {
                input = .text(scalar.string)
            } else if let sequence = value.sequence {
                var items: [String] = []
                for item in sequence {
                    guard let scalar = item.scalar else { throw reader.fail(key, item, "must be \(setting.expectation)") }
                    items.append(scalar.string)
                }
                input = .list(items)
            } else {
                throw reader.fail(key, value, "must be \(setting.expectation)")
            }
            guard let parsed = setting.read(input) else { throw reader.failValue(key, value, "must be \(setting.expectation)") }
            settings.set(setting, to: parsed, from: .file(reader.file, line: value.mark?.line ?? line))
        }
    }
}

/// Command-line flags that set settings: each is checked by its setting's type.
public enum SettingFlags {
    /// Applies `--flag value` pairs (flag names without dashes) to `settings`.
    public static func apply(_ flags: [(flag: String, value: String)], to settings: inout Settings) throws(ConfigError) {
        for (flag, text) in flags {
            guard let setting = SettingsSchema.setting(forFlag: flag) else {
                throw ConfigError(file: "--\(flag)", line: nil, key: nil, message: "is not a setting")
            }
            guard let value = setting.read(.text(text)) else {
                throw ConfigError(file: "--\(flag)", line: nil, key: nil,
                                  message: "must be \(setting.expectation) (got '\(DisplayText.oneLine(text))')")
            }
            settings.set(setting, to: value, from: .flag(flag))
        }
    }
}
