import Foundation
import GalleryCore
import Metadata
import Scanning

/// What an item's sidecar files (`SourceFile.sidecars`) say: a caption in
/// `NAME.md` / `NAME.txt` (as sigal reads them), XMP in `NAME.xmp` /
/// `NAME.ext.xmp` (as Lightroom, darktable and digiKam write them), and a
/// Google Takeout JSON (`NAME.ext.json` and its cut forms).
enum SidecarWords {
    /// Sidecars larger than this are not read (a caption is not a megabyte).
    static let maximumBytes: Int64 = 1 << 20

    /// What an item's sidecars say beyond its file.
    struct Reading {
        /// Their words, best first: a Markdown/text caption, then XMP (the
        /// `NAME.ext.xmp` of this very file before a shared `NAME.xmp`), then
        /// the export's JSON (what the owner typed in Google Photos).
        var words = PhotoWords()
        /// When it was taken, as the export recorded it.
        var takenAt: Date?
        /// Where, as the export recorded it: for place names only.
        var location: GPSCoordinate?
        /// What could not be read, one phrase each ("Takeout JSON: not JSON").
        var problems: [String] = []
    }

    static func read(_ file: SourceFile, tables: ExportTables) -> Reading {
        var text = PhotoWords(), xmp = PhotoWords(), export = PhotoWords()
        var reading = Reading()
        for sidecar in file.sidecars {
            if SourceFileTypes.fileExtension(of: sidecar.fileName) == "csv" {
                // A table that cannot be read is said once, for the folder (`ExportTables.problems`).
                guard let row = tables.photoDetails(sidecar)?.photos[file.fileName] else { continue }
                export = export.filled(from: words(of: row))
                reading.takenAt = reading.takenAt ?? row.created
                continue
            }
            guard sidecar.byteCount <= maximumBytes else {
                reading.problems.append("\(sidecar.fileName): larger than \(maximumBytes >> 20) MB, not read")
                continue
            }
            guard let bytes = try? SourceFileReader.read(sidecar) else { continue }
            switch SourceFileTypes.fileExtension(of: sidecar.fileName) {
            case "xmp": xmp = xmp.filled(from: WordsReader.xmp(bytes))
            case "md": text = text.filled(from: markdown(String(decoding: bytes, as: UTF8.self)))
            case "txt": text = text.filled(from: PhotoWords(caption: PhotoWords.cleanText(String(decoding: bytes, as: UTF8.self))))
            case "json":
                do {
                    let json = try TakeoutSidecar(Array(bytes))
                    export = words(of: json)
                    reading.takenAt = json.takenAt
                    reading.location = json.location
                    if !json.refused.isEmpty {
                        reading.problems.append("Takeout JSON fields left out: \(json.refused.joined(separator: ", "))")
                        tables.countSidecarProblem("with fields left out")
                    }
                } catch {
                    reading.problems.append("Takeout JSON not read: \(error)")
                    switch error {
                    case .tooLarge: tables.countSidecarProblem("too large")
                    case .notJSON: tables.countSidecarProblem("not JSON")
                    case .notAnObject: tables.countSidecarProblem("not a JSON object")
                    }
                }
            default: break
            }
        }
        reading.words = text.filled(from: xmp).filled(from: export)
        return reading
    }

    /// A Takeout JSON's words: the description, the people named, a
    /// favourite as five stars (as Favourites are made), trash and archive.
    static func words(of json: TakeoutSidecar) -> PhotoWords {
        var words = PhotoWords(caption: json.caption.flatMap { PhotoWords.cleanText($0) }, rating: json.favorite ? 5 : nil,
                               people: PhotoWords.personNames(json.people))
        words.serviceStatus = json.trashed ? .trashed : json.archived ? .archived : nil
        return words
    }

    /// A Photo Details row's words: a favourite as five stars, hidden and recently deleted.
    static func words(of row: ICloudPhotoDetails.Photo) -> PhotoWords {
        var words = PhotoWords(rating: row.favorite ? 5 : nil)
        words.serviceStatus = row.deleted ? .recentlyDeleted : row.hidden ? .hidden : nil
        return words
    }

    /// Applies what the sidecars say to what the file said: their words
    /// first, the export's date where the file has none of its own, its
    /// place where the file has none. Returns what could not be read.
    static func apply(_ file: SourceFile, to metadata: inout PhotoMetadata, tables: ExportTables) -> [String] {
        guard !file.sidecars.isEmpty else { return [] }
        let reading = read(file, tables: tables)
        metadata.words = reading.words.filled(from: metadata.words)
        if metadata.captureDate.source == .fileTime, let taken = reading.takenAt {
            metadata.captureDate = CaptureDate(exportRecord: taken)
        }
        if metadata.gps == nil { metadata.gps = reading.location }
        return reading.problems
    }

    /// What a build remembers of the sidecars to notice an edit: their names,
    /// sizes and modification times, hashed; "" when there are none.
    static func stamp(_ file: SourceFile) -> String {
        guard !file.sidecars.isEmpty else { return "" }
        var hasher = StableHash()
        for sidecar in file.sidecars {
            hasher.update(sidecar.fileName)
            hasher.update("\(sidecar.byteCount) \(sidecar.modifiedNanoseconds)")
        }
        return hasher.digest().hex(digits: 16)
    }

    /// A Markdown sidecar: optional `Key: value` lines first (sigal's
    /// `Title:`, also `Caption:`/`Description:`, `Keywords:`/`Tags:`,
    /// `Rating:`), then the caption; a leading `# Heading` is the title when
    /// no `Title:` line gave one.
    static func markdown(_ text: String) -> PhotoWords {
        var words = PhotoWords()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var index = 0
        keys: while index < lines.count, let colon = lines[index].firstIndex(of: ":") {
            let line = lines[index]
            let value = String(line[line.index(after: colon)...])
            switch line[..<colon].lowercased() {
            case "title": words.title = PhotoWords.cleanText(value, maximumLength: 300)
            case "caption", "description": words.caption = PhotoWords.cleanText(value)
            case "keywords", "tags":
                words.keywords = PhotoWords.merged([], value.split(separator: ",").compactMap { PhotoWords.cleanKeyword(String($0)) })
            case "rating": words.rating = Int(value.trimmingCharacters(in: .whitespaces)).map { max(-1, min(5, $0)) }
            default: break keys  // prose ("Note: we arrived late"): the body starts here
            }
            index += 1
        }
        var body = Array(lines[index...])
        while body.first == "" { body.removeFirst() }
        if words.title == nil, let first = body.first, first.hasPrefix("# ") {
            words.title = PhotoWords.cleanText(String(first.dropFirst(2)), maximumLength: 300)
            body.removeFirst()
        }
        if words.caption == nil { words.caption = PhotoWords.cleanText(body.joined(separator: "\n")) }
        return words
    }
}

/// The export tables a build reads (iCloud's `Photo Details.csv`): each
/// parsed once, however many photos it describes, and kept for the build.
final class ExportTables: @unchecked Sendable {
    /// Checked before the file is read (the parser checks it again).
    static let maximumBytes = Int64(ICloudPhotoDetails.largestSize)
    private let lock = NSLock()
    private var parsed: [String: ICloudPhotoDetails?] = [:]
    private var unread: [String] = []

    /// The table `file` holds (nil: it cannot be read), parsed by the first
    /// photo that asks (the others wait for it); keyed by path, size and
    /// time, as the scan saw it.
    func photoDetails(_ file: SourceFile) -> ICloudPhotoDetails? {
        let key = "\(file.relativePath)\u{0}\(file.byteCount)\u{0}\(file.modifiedNanoseconds)"
        return lock.withLock {
            if let known = parsed[key] { return known }
            var table: ICloudPhotoDetails?
            do {
                guard file.byteCount <= Self.maximumBytes else { throw ExportTableError.tooLarge(file.byteCount) }
                table = try ICloudPhotoDetails(try SourceFileReader.read(file))
            } catch {
                unread.append("\(file.displayPath): not read (\(error)); its photos are published without it")
            }
            parsed[key] = table
            return table
        }
    }

    /// The tables that could not be read, one line each, for the build's warnings.
    var problems: [String] { lock.withLock { unread } }

    private var sidecarProblems: [String: Int] = [:]

    /// A Takeout JSON read in this build was refused, whole or in part, for this reason.
    func countSidecarProblem(_ kind: String) { lock.withLock { sidecarProblems[kind, default: 0] += 1 } }

    /// "Takeout JSON read with problems: 2 not JSON, 1 with fields left out (…)", or nil.
    var sidecarSummary: String? {
        let counts = lock.withLock { sidecarProblems }
        guard !counts.isEmpty else { return nil }
        let parts = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return "Takeout JSON read with problems: \(parts.joined(separator: ", ")) (each named in a note above; "
            + "their photos are published without what was left out)"
    }
}

/// Why an export table was not read (its photos are published without it).
enum ExportTableError: Error, CustomStringConvertible {
    case tooLarge(Int64)

    var description: String {
        switch self {
        case .tooLarge(let size): return "\(size) bytes, more than a table of photos holds"
        }
    }
}

