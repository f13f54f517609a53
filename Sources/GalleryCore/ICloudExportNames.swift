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
}
