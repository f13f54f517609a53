import Foundation

/// A folder's entries by name and whether each is a folder, for the walks
/// that need no more (the listing of OUT, the watcher's folders): `readdir`'s
/// type, no `stat` of each of 100,000 files unless the file system does not say.
public enum FolderEntries {
    /// Calls `body` with the name of each entry of `folder` ("." and ".."
    /// left out) and whether it is a folder (a link to one is not). An entry
    /// gone before its type could be asked is left out. False when the
    /// folder cannot be opened.
    @discardableResult
    public static func forEach(in folder: String, _ body: (_ name: String, _ isFolder: Bool) -> Void) -> Bool {
        guard let directory = opendir(folder) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = String(decoding: rawName(of: entry), as: UTF8.self)
            if name == "." || name == ".." { continue }
            var isFolder = Int(entry.pointee.d_type) == Int(DT_DIR)
            if Int(entry.pointee.d_type) == Int(DT_UNKNOWN) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            }
            body(name, isFolder)
        }
        return true
    }

    /// The bytes of a `readdir` entry's name, up to its NUL, in the entry
    /// itself (valid until the next `readdir` of its folder): the caller
    /// copies them into what it keeps, once. Copying `d_name` (256 bytes)
    /// reads past the end of a short name's entry, beyond the buffer
    /// `readdir` filled when the entry is its last (AddressSanitizer found
    /// it on a folder of 4,500 files).
    public static func rawName(of entry: UnsafeMutablePointer<dirent>) -> UnsafeRawBufferPointer {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }
}
