/// The names gallerygen gives meaning to inside SOURCE.
public enum SourceLayout {
    /// The settings file in SOURCE's root.
    public static let configFileName = "gallery.yml"
    /// The optional sidecar in an album folder.
    public static let albumSidecarName = "album.yml"
    /// Who is who (`PeopleList`), in SOURCE's root.
    public static let peopleFileName = "people.yml"

    /// True for files that are gallerygen's own (settings and sidecars), which
    /// are neither published nor reported as ignored.
    public static func isToolFile(_ name: String, inRoot: Bool) -> Bool {
        name == albumSidecarName || (inRoot && (name == configFileName || name == peopleFileName))
    }
}
