import Foundation

/// The names Apple's iCloud Photos download (privacy.apple.com) gives its
/// own files, as the scanner needs them (their contents are read in Metadata).
public enum ICloudExportNames {
    /// `Photo Details.csv`, and `Photo Details-1.csv`… when a large library
    /// is split: the table of the photos in the same folder.
    public static func isPhotoDetails(_ fileName: String) -> Bool {
        let name = fileName.precomposedStringWithCanonicalMapping.lowercased()
        return name.hasPrefix("photo details") && name.hasSuffix(".csv")
    }

    /// The download's album tables live in `Albums/`, one `<album>.csv` each,
    /// beside the `Photos/` folder that holds their photos.
    public static let albumsFolder = "albums", photosFolder = "photos"

    /// Whether a folder of this name is the download's folder of photos.
    public static func isPhotosFolder(_ name: String) -> Bool { name.lowercased() == photosFolder }

    /// Whether a folder of this name holds album tables.
    public static func isAlbumsFolder(_ name: String) -> Bool { name.lowercased() == albumsFolder }

}
