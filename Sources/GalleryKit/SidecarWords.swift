import Foundation
import GalleryCore
import Metadata
import Scanning

/// The words in an item's sidecar files (`SourceFile.sidecars`): a caption
/// in `NAME.md` / `NAME.txt` (as sigal reads them), and XMP in `NAME.xmp` /
/// `NAME.ext.xmp` (as Lightroom, darktable and digiKam write them).
enum SidecarWords {
    /// Sidecars larger than this are not read (a caption is not a megabyte).
    static let maximumBytes: Int64 = 1 << 20

    /// The sidecars' words, best first: a Markdown/text caption, then XMP
    /// (the `NAME.ext.xmp` of this very file before a shared `NAME.xmp`).
    static func read(_ file: SourceFile) -> PhotoWords {
        var text = PhotoWords(), xmp = PhotoWords()
        for sidecar in file.sidecars where sidecar.byteCount <= maximumBytes {
            guard let bytes = try? SourceFileReader.read(sidecar) else { continue }
            switch SourceFileTypes.fileExtension(of: sidecar.fileName) {
            case "xmp": xmp = xmp.filled(from: WordsReader.xmp(bytes))
            case "md": text = text.filled(from: markdown(String(decoding: bytes, as: UTF8.self)))
            case "txt": text = text.filled(from: PhotoWords(caption: PhotoWords.cleanText(String(decoding: bytes, as: UTF8.self))))
            default: break
            }
        }
        return text.filled(from: xmp)
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
