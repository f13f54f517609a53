import Foundation

/// What Apple's iCloud Photos download (privacy.apple.com) says of each
/// photo in `Photos/Photo Details*.csv`: its original creation date, and
/// whether it is a favourite, hidden or recently deleted. The file is
/// untrusted: rows that name no file, or a name with a folder in it, are
/// counted and left out; a date that does not read is left out of its row.
public struct ICloudPhotoDetails: Equatable, Sendable {
    public struct Photo: Equatable, Sendable {
        public var created: Date?
        public var favorite = false
        public var hidden = false
        public var deleted = false
    }

    /// By the photo's file name (`imgName`), as it is in `Photos/`.
    public var photos: [String: Photo] = [:]
    /// Rows left out: no name, a name with a path in it, a second row for one name.
    public var refusedRows = 0

    /// The columns this reads (the file has more: checksum, views, import date).
    static let nameColumn = "imgName", createdColumn = "originalCreationDate"

    public init() {}

    /// Reads one `Photo Details.csv` (the download splits large libraries into several).
    /// Apple splits a large library's table into several files: a file over
    /// this is not one of them (and its rows' strings would be held in memory).
    public static let largestSize = 64 << 20

    public init(_ bytes: [UInt8]) throws(CSVError) {
        guard bytes.count <= Self.largestSize else { throw .tooManyRows }
        let table = try CSVTable(bytes)
        guard table.header.contains(where: { $0.lowercased() == Self.nameColumn.lowercased() }) else { throw .empty }
        // Made once for the table: a formatter is costly to make, and a table has a row per photo.
        let formatters = Self.dateFormats.map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter
        }
        for row in table.rows {
            guard let name = Self.photoName(in: row, of: table), photos[name] == nil else {
                refusedRows += 1
                continue
            }
            var photo = Photo()
            photo.created = table.value(Self.createdColumn, in: row).flatMap { Self.date($0, formatters) }
            photo.favorite = Self.yes(table.value("favorite", in: row))
            photo.hidden = Self.yes(table.value("hidden", in: row))
            photo.deleted = Self.yes(table.value("deleted", in: row))
            photos[name] = photo
        }
    }

    /// A row's `imgName`, when it names a file (no folder, not `.` or `..`).
    static func photoName(in row: [String], of table: CSVTable) -> String? {
        guard let name = table.value(nameColumn, in: row)?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
              !name.contains("/"), !name.contains("\\"), name != ".", name != ".." else { return nil }
        return name
    }

    static func yes(_ text: String?) -> Bool {
        guard let text = text?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return text == "yes" || text == "true" || text == "1"
    }

    /// `Friday October 06,2023 12:11 PM GMT`: English, whatever the account's language.
    static func date(_ text: String, _ formatters: [DateFormatter]) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count < 64 else { return nil }
        for formatter in formatters {
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    static let dateFormats = ["EEEE MMMM dd,yyyy hh:mm a zzz", "EEEE MMMM d,yyyy h:mm a zzz", "EEEE MMMM dd, yyyy hh:mm a zzz"]
}

/// One table of an iCloud download's `Albums/` folder: the album's photos,
/// by their names in `Photos/` (column `imgName`), in the table's order.
/// Untrusted: a name with a folder in it, or a second time, is left out.
public struct ICloudAlbumTable: Equatable, Sendable {
    public var names: [String] = []
    public var refusedRows = 0

    /// The tables' limit (an album of a million photos is about 20 MB).
    public static let largestSize = ICloudPhotoDetails.largestSize

    public init(_ bytes: [UInt8]) throws(CSVError) {
        guard bytes.count <= Self.largestSize else { throw .tooManyRows }
        let table = try CSVTable(bytes)
        guard table.header.contains(where: { $0.lowercased() == ICloudPhotoDetails.nameColumn.lowercased() }) else { throw .empty }
        var seen = Set<String>()
        for row in table.rows {
            guard let name = ICloudPhotoDetails.photoName(in: row, of: table), seen.insert(name).inserted else {
                refusedRows += 1
                continue
            }
            names.append(name)
        }
    }
}

