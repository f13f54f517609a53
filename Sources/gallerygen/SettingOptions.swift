import ArgumentParser
import GalleryCore

/// The flags that set settings. Each one's name and help come from its
/// declaration in `SettingsSchema`, and its value is checked by the setting's
/// own type when the build resolves its settings (so a flag and a gallery.yml
/// key accept exactly the same values). A property's name is the schema's
/// property name; a test checks that `build --help` lists every setting's flag.
struct RenditionOptions: ParsableArguments {
    @Option(name: flagName(\.formats), help: flagHelp(\.formats)) var formats: String?
    /// `--format jpeg`, the flag before AVIF: still taken (`SettingsSchema.formerKeys`), no longer shown.
    @Option(name: .customLong("format"), help: .hidden) var format: String?
    @Option(name: flagName(\.quality), help: flagHelp(\.quality)) var quality: String?
    @Option(name: flagName(\.thumbnailBoxes), help: flagHelp(\.thumbnailBoxes)) var thumbnailBoxes: String?
    @Option(name: flagName(\.previewBoxes), help: flagHelp(\.previewBoxes)) var previewBoxes: String?
}

/// The setting flags of `gallerygen build`: the rendition flags and the rest.
struct BuildSettingOptions: ParsableArguments {
    @Option(name: flagName(\.title), help: flagHelp(\.title)) var title: String?
    @OptionGroup var renditions: RenditionOptions
    @Option(name: flagName(\.jobs), help: flagHelp(\.jobs)) var jobs: String?
    @Option(name: flagName(\.theme), help: flagHelp(\.theme)) var theme: String?
    @Option(name: flagName(\.language), help: flagHelp(\.language)) var language: String?
    @Option(name: flagName(\.state), help: flagHelp(\.state)) var state: String?
}

/// `--flag` of a setting.
func flagName<Value>(_ path: KeyPath<SettingsSchema, Setting<Value>>) -> NameSpecification {
    let setting = SettingsSchema.shared[keyPath: path]
    return .customLong(setting.flag ?? setting.key)
}

/// A setting's help line, with its default and what it accepts.
func flagHelp<Value>(_ path: KeyPath<SettingsSchema, Setting<Value>>) -> ArgumentHelp {
    let setting = SettingsSchema.shared[keyPath: path]
    return ArgumentHelp("\(setting.help) Default: \(setting.defaultText).", valueName: setting.valueName)
}

/// The flags given, as (flag name, value) pairs, found by walking the option
/// structs: a flag declared above needs no other line of code to take effect.
func givenSettingFlags(_ options: Any) -> [(flag: String, value: String)] {
    let settingsByProperty = Dictionary(uniqueKeysWithValues: SettingsSchema.propertyNames.map { ($0.value, $0.key) })
    var given: [(flag: String, value: String)] = []
    for child in Mirror(reflecting: options).children {
        guard let label = child.label?.dropFirst() else { continue }  // "_quality" → "quality"
        if let option = child.value as? Option<String?> {
            guard let value = option.wrappedValue,
                  let key = settingsByProperty[String(label)] ?? SettingsSchema.formerKeys[String(label)],
                  let setting = SettingsSchema.setting(forKey: key), let flag = setting.flag else { continue }
            given.append((flag, value))
        } else if let group = child.value as? OptionGroup<RenditionOptions> {
            given += givenSettingFlags(group.wrappedValue)
        }
    }
    return given
}
