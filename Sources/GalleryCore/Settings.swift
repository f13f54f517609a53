/// Where a setting's value came from, so an error found later (an unknown
/// theme) can still name the file, line and key, or the flag.
public enum SettingOrigin: Sendable, Equatable {
    /// Nothing set it.
    case defaultValue
    /// A line of a config file.
    case file(String, line: Int?)
    /// A command-line flag.
    case flag(String)
}

/// The values of every setting in `SettingsSchema`: the defaults, overridden
/// by what gallery.yml and the flags set. Read and written through the
/// schema's declarations: `settings.quality`, `settings.photosPerPage = 2`.
@dynamicMemberLookup
public struct Settings: Sendable, Equatable {
    private var values: [String: any Sendable] = [:]
    private var origins: [String: SettingOrigin] = [:]

    /// Every setting at its default.
    public init() {}

    /// The value of a setting (its default when nothing set it).
    public subscript<Value>(dynamicMember path: KeyPath<SettingsSchema, Setting<Value>>) -> Value {
        get {
            let setting = SettingsSchema.shared[keyPath: path]
            return values[setting.key] as? Value ?? setting.defaultValue
        }
        set {
            let setting = SettingsSchema.shared[keyPath: path]
            values[setting.key] = newValue
        }
    }

    /// Sets a value already checked by `setting.read`, remembering where it came from.
    public mutating func set(_ setting: any AnySetting, to value: any Sendable, from origin: SettingOrigin) {
        values[setting.key] = value
        origins[setting.key] = origin
    }

    /// The value of `setting` as gallery.yml writes it (its default's text when nothing set it).
    public func text(of setting: any AnySetting) -> String {
        values[setting.key].flatMap(setting.write) ?? setting.defaultText
    }

    /// Where the value of the setting with `key` came from.
    public func origin(ofKey key: String) -> SettingOrigin { origins[key] ?? .defaultValue }

    /// Every setting that can change the output, as `key=value` lines in
    /// schema order: a stable text for fingerprints.
    public var canonicalText: String {
        SettingsSchema.all.filter(\.affectsOutput).map { setting in
            "\(setting.key)=\(text(of: setting))"
        }.joined(separator: "\n")
    }

    public static func == (a: Settings, b: Settings) -> Bool {
        a.canonicalText == b.canonicalText && a.jobs == b.jobs
    }
}

extension Settings {
    /// Photos larger than this many pixels are refused before decoding.
    public var maximumPixels: Int { Int(self.maxMegapixels * 1_000_000) }

    /// The stills' encoder: the last of `formats` (WebP or JPEG, what every
    /// `<img>` shows) at `quality`.
    public var stillEncoding: Encoding { .still(self.formats.last ?? .webp, quality: self.quality) }

    /// Frames × canvas pixels an animation may have to be re-encoded; a
    /// larger one is published as a still poster of its first frame.
    public var maximumAnimationPixels: Int { Int(self.maxAnimationMegapixels * 1_000_000) }

    /// The moments grouping.
    public var momentGrouping: MomentGrouping {
        switch self.momentGroupBy {
        case .day: return .day
        case .month: return .month
        case .gap: return .gap(hours: self.momentGapHours)
        }
    }
}
