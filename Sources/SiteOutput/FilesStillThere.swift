import GalleryCore

extension EncodedStrings {
    /// `body` of each string's UTF-8, in order, until it returns false
    /// (then false is returned). A list still in its state file is read from
    /// it `chunkSize` bytes at a time, not whole: the list of a million
    /// items' three million files is 135 MB.
    func forEachReadingAChunkAtATime(chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Bool) throws(OutputError) -> Bool {
        guard let (file, range) = unreadSource else {
            var going = true
            forEach { utf8 in if going { going = body(utf8) } }
            return going
        }
        // Read as a commit reads its base file's entries (`BaseReader`): each a length, then its bytes.
        var reader = BaseReader(descriptor: file.descriptor, region: .init(offset: range.lowerBound, length: range.count, count: count),
                                size: chunkSize)
        do throws(StateDeltaError) {
            for _ in 0..<count {
                let length = 8 + (try reader.length(at: 0, below: 1 << 20))
                try reader.ensure(length)
                let going = reader.withUnread(length) { body(UnsafeRawBufferPointer(rebasing: $0[8...])) }
                reader.consume(length)
                guard going else { return false }
            }
        } catch {
            throw .writeFailed(file.path, reason: "the state read at the build's start can no longer be read")
        }
        return true
    }
}

extension OutputFolder {
    /// Whether every file the previous build produced (as `previous` lists
    /// them) is still in OUT, and how many of them are HTML pages (those
    /// outside static/): a build that takes every page as it was produces
    /// them again. Asked of the state's list, not of the page records, which
    /// keep their ids' hashes alone (`PageKey`).
    public func holdsEveryFile(of previous: BuildState) throws(OutputError) -> (all: Bool, htmlPages: Int) {
        var htmlPages = 0
        let all = try previous.fileList.forEachReadingAChunkAtATime { utf8 in
            guard contains(utf8: utf8) else { return false }
            if Self.isPage(utf8) { htmlPages += 1 }
            return true
        }
        return (all, htmlPages)
    }

    /// Whether a produced file's path (UTF-8) is an HTML page: ends in
    /// .html, outside the theme's static files.
    static func isPage(_ utf8: UnsafeRawBufferPointer) -> Bool {
        let html = ".html".utf8, statics = "static/".utf8
        return utf8.count >= html.count && utf8.suffix(html.count).elementsEqual(html) && !utf8.starts(with: statics)
    }
}
