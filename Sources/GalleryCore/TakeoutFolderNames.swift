import Foundation

/// The names a Google Takeout export gives its own files and folders, as
/// the scanner needs them (the files' contents are read in Metadata).
public enum TakeoutFolderNames {
    /// `metadata.json` in the languages seen in real exports (others: a JSON
    /// of the folder that describes no media file and has a title).
    public static let albumFileNames: Set<String> = [
        "metadata.json", "métadonnées.json", "metadaten.json", "metadati.json", "metadatos.json", "metadades.json",
    ]

    /// Whether `fileName` names an album's JSON (letter case and Unicode form aside).
    public static func isAlbumFile(_ fileName: String) -> Bool {
        albumFileNames.contains(fileName.precomposedStringWithCanonicalMapping.lowercased())
    }

    /// The folders Takeout fills by year (`Photos from 2019`, `Fotos von
    /// 2019`, `2019 年の写真`…): not albums. The year is a word of its own
    /// at either end; the rest is a phrase seen in real exports.
    public static func isYearFolder(_ name: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        for (year, rest) in [(trimmed.suffix(4), trimmed.dropLast(4)), (trimmed.prefix(4), trimmed.dropFirst(4))] {
            guard year.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(year), (1826...2200).contains(value) else { continue }
            let phrase = rest.trimmingCharacters(in: .whitespaces).lowercased()
            if yearFolderPhrases.contains(phrase) { return true }
        }
        return false
    }

    static let yearFolderPhrases: Set<String> = [
        "photos from", "photos de", "fotos von", "fotos de", "foto del", "年の写真", "년의 사진", "年的照片",
    ]
}
