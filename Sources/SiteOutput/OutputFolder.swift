import Foundation
import GalleryCore

/// The one owner of OUT. Every look at, write to and removal from the output
/// folder goes through it: the checks before a build, the lock, the journal,
/// atomic writes, the build state, clean-up after a killed build and pruning.
/// Steps ask it; none of them touches OUT's files itself.
///
/// Safe to use from several photo jobs at once.
public final class OutputFolder: @unchecked Sendable {
    /// OUT.
    public let url: URL
    /// The build state's folder (outside OUT: OUT is published whole).
    public let stateFolder: URL
    /// OUT's path with a trailing slash: building a URL per existence check is
    /// measurable on a no-op rebuild of tens of thousands of photos.
    private let prefix: String
    private let journal: BuildJournal
    private var lock: BuildLock?
    /// The part of a sharded build OUT is open for; nil for a whole build.
    public let shard: Shard?
    /// That part's own lock: one copy of a part at a time (a scheduler's
    /// retry while the first attempt still runs waits its turn... by failing).
    private var shardLock: BuildLock?
    private let mutex = NSLock()
    /// How many files this build wrote: which they were is the journal's
    /// to say (`writtenPaths`).
    private var writes = 0
    /// Paths journaled whose file was then not made (a program that failed
    /// on its input): rare, and left out of `writtenPaths`.
    private var unwritten: Set<String> = []
    /// The private albums' sealers, by their folder (set before any media work).
    private var sealers: [(folder: String, seal: FileSealer)] = []
    /// The files OUT holds (listed when opened, plus those written since).
    private let listing: OutputListing
    /// Files a previous, interrupted build journaled: this build owns them too.
    public private(set) var interruptedFiles: Set<String> = []

    /// Faults to fail writes with, as the file system would (tests); nil in a real build.
    private let faults: WriteFaults?

    /// The fault `faults` has for writing `path`, if any.
    func injectedFault(_ path: String) -> POSIXError? { faults?.fault(path) }

    private init(url: URL, state: URL, shard: Shard?, faults: WriteFaults?) {
        self.url = url
        self.faults = faults
        self.stateFolder = state
        self.shard = shard
        self.prefix = url.path.hasSuffix("/") ? url.path : url.path + "/"
        self.listing = OutputListing(root: url)
        self.journal = shard.map { BuildJournal(url: Self.shardsFolder(state).appendingPathComponent($0.fileName + ".journal")) }
            ?? BuildJournal(state: state)
    }

    /// `STATE/shards`: each part's state, journal and lock.
    static func shardsFolder(_ state: URL) -> URL {
        state.appendingPathComponent("shards")
    }

    /// The files in the shards folder ending in `suffix`.
    func shardFiles(_ suffix: String) -> [URL] {
        let folder = Self.shardsFolder(stateFolder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Opens OUT for a build: it must not be SOURCE or inside it (symbolic
    /// links resolved); it is created if missing and must be writable; its lock
    /// is taken (a second build on it fails at once); and what an interrupted
    /// build left (journaled files, temporary files) is taken over. With
    /// `shard`, OUT is opened for one part of a sharded build: the parts
    /// share OUT's lock (a whole build waits for none of them: it fails),
    /// each holds its own, and keeps its own journal and state.
    public static func open(_ output: URL, source: URL, state: URL? = nil, shard: Shard? = nil,
                            faults: WriteFaults? = nil) throws(OutputError) -> OutputFolder {
        let fm = FileManager.default
        let source = source.standardizedFileURL.resolvingSymlinksInPath()
        let output = output.standardizedFileURL
        let state = (state ?? BuildSettings.defaultStateFolder(for: output)).standardizedFileURL
        // Resolve symlinks of the part of OUT that exists, so a link cannot hide
        // that OUT is really inside SOURCE.
        var existing = output
        var tail: [String] = []
        while !fm.fileExists(atPath: existing.path), existing.path != "/" {
            tail.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for part in tail { resolved.appendPathComponent(part) }
        let sourcePath = source.path.hasSuffix("/") ? source.path : source.path + "/"
        if resolved.path == source.path || resolved.path.hasPrefix(sourcePath) {
            throw .insideSource(output: resolved.path == source.path ? source.path : output.path, source: source.path)
        }
        // mkdir one level at a time so a failure names its real cause.
        var created = existing
        for part in tail {
            created.appendPathComponent(part)
            if mkdir(created.path, 0o755) != 0, errno != EEXIST {
                throw .notWritable(output.path, reason: OutputError.reason(errno))
            }
        }
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: output.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notWritable(output.path, reason: "it exists and is not a folder")
        }
        guard access(output.path, W_OK) == 0 else {
            throw .notWritable(output.path, reason: OutputError.reason(errno))
        }
        // The state is never published: not in OUT, and SOURCE is never written to.
        let statePath = state.resolvingSymlinksInPath().path
        let outputPath = output.resolvingSymlinksInPath().path
        if statePath == outputPath || statePath.hasPrefix(outputPath + "/") {
            throw .stateInside(state: state.path, folder: output.path, what: "OUT, which is published whole")
        }
        if statePath == source.path || statePath.hasPrefix(sourcePath) {
            throw .stateInside(state: state.path, folder: source.path, what: "SOURCE, which is never written to")
        }
        do {
            try fm.createDirectory(at: state, withIntermediateDirectories: true)
        } catch {
            throw .stateNotWritable(state.path, reason: OutputError.reason(error))
        }
        guard access(state.path, W_OK) == 0 else { throw .stateNotWritable(state.path, reason: OutputError.reason(errno)) }
        let folder = OutputFolder(url: output, state: state, shard: shard, faults: faults)
        do {
            folder.lock = try BuildLock(output: output, state: state, shared: shard != nil)
            if let shard {
                folder.shardLock = try BuildLock(file: shardsFolder(state).appendingPathComponent(shard.fileName + ".lock"), output: output)
            }
        } catch {
            throw .locked(output.path)
        }
        // Under the lock (two builds never move it at once), before the journal is read.
        migrateLegacyState(from: output, to: state)
        if folder.journal.wasInterrupted {
            // A build was killed: what it journaled is ours, and (for a whole
            // build, when no part can be writing) its half-written temporary
            // files must go. A part cannot clean up beside the parts still
            // running: the whole build after them does.
            folder.interruptedFiles = Set(folder.journal.leftover())
            if shard == nil { folder.removeTemporaryFiles() }
        }
        if shard == nil {
            // After parts of a sharded build: what a killed part journaled is
            // this build's to keep or prune, and any part's temporary files
            // go (one killed and rerun has a state, not a journal, by now).
            let journals = folder.shardFiles(".journal")
            for journal in journals { folder.interruptedFiles.formUnion(BuildJournal(url: journal).leftover()) }
            if !journals.isEmpty || !folder.shardFiles(".bin").isEmpty { folder.removeTemporaryFiles() }
        }
        folder.listing.start()
        return folder
    }

    // MARK: Looking

    /// True when `path` (relative to OUT) exists: was there when OUT was
    /// opened (and not pruned since) or was written by this build. A file
    /// removed by hand from OUT during a build is the next build's to make again.
    public func contains(_ path: String) -> Bool {
        listing.contains(path)
    }

    /// Likewise for the path whose UTF-8 is `utf8`.
    func contains(utf8: UnsafeRawBufferPointer) -> Bool {
        listing.contains(utf8)
    }

    /// The build asks no more whether files exist but seldom (from the page
    /// step's rendering on: a person's avatar): OUT's listing is let go, and
    /// those questions are asked of the file system.
    public func letGoOfListing() {
        listing.letGo()
    }

    /// Likewise for `rendition`'s path, spelled on the stack: asked of
    /// every rendition of every photo by each rebuild's media step.
    public func contains(_ rendition: Rendition) -> Bool {
        rendition.withPath { contains(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The bytes of `path`, if it exists and can be read.
    func contents(of path: String) -> Data? {
        FileManager.default.contents(atPath: prefix + path)
    }

    // MARK: Writing

    /// Encrypts a private album's file for the path it is published at.
    public typealias FileSealer = @Sendable (_ bytes: UnsafeRawBufferPointer, _ path: String) throws -> [UInt8]

    /// Every file written or produced under `folder` from now on is sealed
    /// first: its plain bytes never reach OUT (a program's output is made in
    /// the state folder, outside OUT, and sealed from there).
    public func seal(folder: String, with sealer: @escaping FileSealer) {
        mutex.withLock { sealers.append((folder, sealer)) }
    }

    private func sealer(for path: String) -> FileSealer? {
        mutex.withLock { sealers.isEmpty ? nil : sealers.first { path.hasPrefix($0.folder) }?.seal }
    }

    /// Writes `bytes` to `path` (relative to OUT): journaled first, then
    /// written to a temporary name and renamed into place; sealed first when
    /// `path` is a private album's.
    public func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(OutputError) {
        try write(bytes, to: path, sealing: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to path: String, sealing: Bool) throws(OutputError) {
        try record(path)
        if sealing, let sealer = sealer(for: path) {
            let sealed: [UInt8]
            do { sealed = try sealer(bytes, path) } catch { throw OutputError.failure(writing: prefix + path, error) }
            let written: Result<Void, OutputError> = sealed.withUnsafeBytes { raw in
                Result { () throws(OutputError) in try AtomicFile.write(raw, to: url.appendingPathComponent(path), fault: injectedFault) }
            }
            try written.get()
        } else {
            try AtomicFile.write(bytes, to: url.appendingPathComponent(path), fault: injectedFault)
        }
        didWrite(path)
    }

    /// Has `make` write `path` (relative to OUT) through a temporary name in
    /// the same folder (a child program, ffmpeg, writes it), then renames it
    /// into place: journaled first, and a failed or killed run leaves no half
    /// file under the real name (the temporary one is removed now, or by the
    /// next build's clean-up).
    public func produce(_ path: String, by make: (URL) throws -> Void) throws {
        if sealer(for: path) != nil { return try produceSealed(path, by: make) }
        try record(path)
        let target = url.appendingPathComponent(path)
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(AtomicFile.temporaryName(for: target.lastPathComponent))
        do {
            if let fault = injectedFault(target.path) { throw fault }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError.failure(writing: target.path, error)
        }
        do {
            try make(temporary)
        } catch {
            unlink(temporary.path)
            mutex.withLock { _ = unwritten.insert(path) }
            // A program that fails writing into a full file system says so in
            // its own words (ffmpeg: "No space left on device"): the file
            // system's free space tells it apart from a bad input.
            if Self.isFull(folder) { throw OutputError.fault(target.path, code: ENOSPC) }
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            unlink(temporary.path)
            throw OutputError.failure(writing: target.path, error)
        }
        didWrite(path)
    }

    /// `produce` for a private album's file: made in the state folder (never
    /// in OUT, where a killed build could leave it in plain), then sealed into OUT.
    private func produceSealed(_ path: String, by make: (URL) throws -> Void) throws {
        let scratch = stateFolder.appendingPathComponent("sealing", isDirectory: true)
        let temporary = scratch.appendingPathComponent(AtomicFile.temporaryName(for: (path as NSString).lastPathComponent))
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw OutputError.failure(writing: scratch.path, error)
        }
        defer { unlink(temporary.path) }
        try make(temporary)
        guard let plain = FileManager.default.contents(atPath: temporary.path) else {
            throw OutputError.failure(writing: temporary.path, POSIXError(.EIO))
        }
        let written: Result<Void, OutputError> = plain.withUnsafeBytes { raw in Result { () throws(OutputError) in try write(raw, to: path) } }
        try written.get()
    }

    private func didWrite(_ path: String) {
        mutex.withLock { writes += 1 }
        listing.add(path)
    }

    /// Journals `path` before it is written; a journal that cannot grow is
    /// a fault of OUT like any other write.
    private func record(_ path: String) throws(OutputError) {
        // The journal holds a path a line: one with a line break would be
        // read back as other paths, which the prune could remove. None of
        // OUT's paths has one (slugs and hashes); this keeps it so.
        guard !path.utf8.contains(UInt8(ascii: "\n")) else { throw .writeFailed(prefix + path, reason: "a path in OUT has a line break") }
        do {
            if let fault = injectedFault(journal.url.path) { throw fault }
            try journal.record(path)
        } catch {
            throw OutputError.failure(writing: journal.url.path, error)
        }
    }

    /// True when the file system holding `folder` has less than 1 MiB left
    /// for this user.
    static func isFull(_ folder: URL) -> Bool {
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 1 << 20
    }

    /// Writes unless the file already holds exactly these bytes: a page whose
    /// bytes did not change keeps its modification time. Never sealed here:
    /// a private album's pages are sealed as pages (the renderer's locked page).
    public func writeIfChanged(_ bytes: [UInt8], to path: String) throws(OutputError) {
        if let existing = contents(of: path), existing.count == bytes.count, existing.elementsEqual(bytes) {
            return
        }
        let result: Result<Void, OutputError> = bytes.withUnsafeBytes { raw in Result { () throws(OutputError) in try write(raw, to: path, sealing: false) } }
        try result.get()
    }

    /// Everything written by this build so far, in the order written, as
    /// the journal lists it (read back once, and kept after the build commits).
    public var writtenPaths: WrittenPaths { (try? writtenFiles()) ?? [] }

    /// `writtenPaths`, failing when the journal cannot be read back: the
    /// prune then stops, rather than leave what this build wrote unlisted.
    private func writtenFiles() throws(OutputError) -> WrittenPaths {
        let (writes, unwritten) = mutex.withLock { (self.writes, self.unwritten) }
        guard writes > 0 else { return [] }
        let journaled = try journal.ownRecords()
        return unwritten.isEmpty ? journaled : WrittenPaths(journaled.filter { !unwritten.contains($0) })
    }
    /// True while this build has written no file.
    public var wroteNothing: Bool { mutex.withLock { writes == 0 } }

    // MARK: Pruning and completing

    /// Removes what `produced` no longer holds among the files a previous build
    /// made (`previous`' list, plus what an interrupted build journaled, plus
    /// what this build wrote for an item it then did not publish: a video
    /// that changed while processed), with the folders that leaves empty.
    /// Returns the removed paths and the next state's list of files (`sift`:
    /// nil when the caller must sort `produced`; `sameFiles` when it is the
    /// previous list). A user's own files in OUT are never among those
    /// removed, so they stay.
    public func prune(previous: BuildState, produced: some ProducedPaths) throws(OutputError) -> (removed: [String], files: EncodedStrings?, sameFiles: Bool) {
        try previous.loadFiles()
        let sifted = Self.sift(owned: previous.fileList, produced: produced, written: try writtenFiles(), leftovers: interruptedFiles)
        var removed: [String] = []
        for path in Set(sifted.stale).sorted() {
            let file = url.appendingPathComponent(path)
            if unlink(file.path) == 0 {
                removed.append(path)
                listing.remove(path)
            }
            var folder = file.deletingLastPathComponent()
            while folder.path.count > url.path.count, rmdir(folder.path) == 0 {
                folder.deleteLastPathComponent()
            }
        }
        return (removed, sifted.files, sifted.sameFiles)
    }

    /// Commits one part's state (`shards/I-of-N.bin`, atomically), closes its
    /// journal and releases its locks: the part is done; the next whole build
    /// merges it.
    public func commitShard(_ state: BuildState) throws(OutputError) {
        guard let shard else { return }
        var stream = try AtomicFile.Stream(to: Self.shardsFolder(stateFolder).appendingPathComponent(shard.fileName + ".bin"),
                                           fault: injectedFault)
        do {
            try state.encode { (chunk) throws(OutputError) in try stream.write(chunk) }
        } catch {
            stream.abandon()
            throw error
        }
        try stream.commit()
        journal.finish()
        shardLock?.release()
        lock?.release()
    }

    /// Completes a build whose state is the previous one's, byte for byte
    /// (a no-op): the file in place stays, the journal closes, the lock goes.
    public func commitUnchanged() {
        removeAsideFile()
        journal.finish()
        lock?.release()
    }

    /// Deletes the temporary files an interrupted write leaves: in OUT, and
    /// beside the state (a state half-written, or the old one a commit had
    /// just swapped out: 433 MB at a million photos).
    private func removeTemporaryFiles() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stateFolder.path)) ?? [] where AtomicFile.isTemporaryName(name) {
            unlink(stateFolder.appendingPathComponent(name).path)
        }
        guard let walker = FileManager.default.enumerator(atPath: url.path) else { return }
        while let relative = walker.nextObject() as? String {
            if AtomicFile.isTemporaryName((relative as NSString).lastPathComponent) {
                unlink(prefix + relative)
            }
        }
    }
}
