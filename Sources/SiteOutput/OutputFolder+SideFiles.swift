import Foundation

/// Files other stages keep in the state folder beside `state.bin` (the faces
/// table): read whole, replaced atomically, never in OUT. A part of a
/// sharded build keeps its own copy in `shards/`, which the last step merges.
extension OutputFolder {
    /// The bytes of the state folder's file `name`; nil when there is none.
    public func readStateFile(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: stateFolder.appendingPathComponent(name))).map { [UInt8]($0) }
    }

    /// The first `count` bytes of the state folder's file `name` (a header).
    public func readStateFileHeader(_ name: String, count: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: stateFolder.appendingPathComponent(name).path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)).map { [UInt8]($0) }
    }

    /// What tells one version of the state folder's file `name` from the
    /// next (its size, modification time and inode), nil when there is none:
    /// a file made from it can tell, without reading it, that it is still the same.
    public func stateFileStamp(_ name: String) -> String? {
        var info = stat()
        guard stat(stateFolder.appendingPathComponent(name).path, &info) == 0 else { return nil }
        return "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)"
    }

    /// Replaces the state folder's file `name` with `bytes` (nothing is
    /// written when it holds them already). The part of a sharded build
    /// writes its own copy (`shards/<part>.<name>`) instead.
    public func writeStateFile(_ name: String, _ bytes: [UInt8]) throws(OutputError) {
        let url: URL
        if let shard {
            let folder = Self.shardsFolder(stateFolder)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            url = folder.appendingPathComponent(shard.fileName + "." + name)
        } else {
            try? FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
            url = stateFolder.appendingPathComponent(name)
        }
        if let present = try? Data(contentsOf: url), present.elementsEqual(bytes) { return }
        let written: Result<Void, OutputError> = bytes.withUnsafeBytes { raw in
            Result { () throws(OutputError) in try AtomicFile.write(raw, to: url, fault: injectedFault) }
        }
        try written.get()
    }

    /// The parts' copies of `name`, in the parts' order.
    public func readShardStateFiles(_ name: String) -> [[UInt8]] {
        shardFiles("." + name).compactMap { (try? Data(contentsOf: $0)).map { [UInt8]($0) } }
    }

    /// Removes the parts' copies of `name` (merged by the last step), and
    /// with `main` the state folder's own.
    public func removeStateFiles(_ name: String, main: Bool) {
        if main { unlink(stateFolder.appendingPathComponent(name).path) }
        for file in shardFiles("." + name) { unlink(file.path) }
    }

    /// Replaces the file `name` of `stateFolder` with `bytes`, atomically,
    /// outside a build (`gallerygen people --regroup`).
    public static func replaceStateFile(_ name: String, in stateFolder: URL, with bytes: [UInt8]) throws(OutputError) {
        let written: Result<Void, OutputError> = bytes.withUnsafeBytes { raw in
            Result { () throws(OutputError) in try AtomicFile.write(raw, to: stateFolder.appendingPathComponent(name)) }
        }
        try written.get()
    }
}
