import Configuration
import Foundation
import GalleryCore
import Rendering

/// A build's settings, checked: the values and the loaded theme.
public struct ResolvedBuild: Sendable {
    /// Where from, where to, and every setting.
    public var settings: BuildSettings
    /// The theme `settings.theme` names, loaded (so a bad theme fails before any image work).
    public var theme: Theme
}

/// Resolves the settings of a build: defaults, then `gallery.yml` (in SOURCE,
/// or the file given), then command-line flags; then checks what can only be
/// checked by loading it (the theme). Everything here runs before any image work.
public enum BuildConfiguration {
    /// The config file's name in SOURCE.
    public static let fileName = SourceLayout.configFileName

    /// The settings, or a one-line error naming the file, line and key (or the flag).
    public static func resolve(source: URL, output: URL, configFile: URL?, flags: [(flag: String, value: String)] = [])
        throws(ConfigError) -> ResolvedBuild {
        var values = Settings()
        let candidate = configFile ?? source.appendingPathComponent(fileName)
        if configFile != nil || FileManager.default.fileExists(atPath: candidate.path) {
            try ConfigFile.load(candidate, into: &values)
        }
        try SettingFlags.apply(flags, to: &values)
        let settings = BuildSettings(source: source, output: output, values: values)
        return ResolvedBuild(settings: settings, theme: try loadTheme(values))
    }

    /// The theme the settings name; an error names where the name came from.
    public static func loadTheme(_ values: Settings) throws(ConfigError) -> Theme {
        do {
            return try Theme.load(values.theme, language: values.language)
        } catch {
            // An unknown language is the `language` setting's fault, anything else the theme's.
            let key: String
            if case .unknownLanguage = error { key = SettingsSchema.shared.language.key } else { key = SettingsSchema.shared.theme.key }
            switch values.origin(ofKey: key) {
            case .file(let file, let line): throw ConfigError(file: file, line: line, key: key, message: error.description)
            case .flag(let flag): throw ConfigError(file: "--\(flag)", line: nil, key: nil, message: error.description)
            case .defaultValue: throw ConfigError(file: key, line: nil, key: nil, message: error.description)
            }
        }
    }
}
