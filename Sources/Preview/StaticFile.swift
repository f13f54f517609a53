import Foundation

/// How `gallerygen serve` answers a request for a file of OUT: which file (or
/// none: anything outside OUT is not found), with which type, validators and
/// caching, and which bytes of it for a `Range`. Plain values, no sockets:
/// the HTTP server hands requests in and writes what this decides.
public enum StaticFile {
    /// Where `rawPath` (the request target's path, percent-encoded, without
    /// its query) leads in `root`: a file, a folder that needs its trailing
    /// slash, or nothing. `..` (encoded or not), dot-files, NUL bytes and
    /// symbolic links that leave OUT all lead nowhere.
    public enum Resolution: Equatable, Sendable {
        case file(URL, relativePath: String)
        case redirect(String)
        case notFound
    }

    /// `root` must already be resolved (`realpath`) by the caller.
    public static func resolve(_ rawPath: String, in root: URL) -> Resolution {
        guard rawPath.hasPrefix("/"), let decoded = rawPath.removingPercentEncoding,
              !decoded.contains("\0"), !decoded.contains("\\") else { return .notFound }
        var components: [Substring] = []
        for component in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            // Dot-folders are not part of the site (nginx and the deploy recipes refuse them too).
            if component == ".." || component.hasPrefix(".") { return .notFound }
            components.append(component)
        }
        let relative = components.joined(separator: "/")
        let candidate = relative.isEmpty ? root : root.appendingPathComponent(relative)
        guard let real = realPath(candidate), real == root.path || real.hasPrefix(root.path + "/") else { return .notFound }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isFolder) else { return .notFound }
        if isFolder.boolValue {
            // A folder's relative links need its trailing slash.
            if !decoded.hasSuffix("/") { return .redirect(rawPath + "/") }
            let index = URL(fileURLWithPath: real).appendingPathComponent("index.html")
            guard let realIndex = realPath(index), realIndex.hasPrefix(root.path + "/"),
                  FileManager.default.fileExists(atPath: realIndex) else { return .notFound }
            return .file(URL(fileURLWithPath: realIndex), relativePath: relative.isEmpty ? "index.html" : relative + "/index.html")
        }
        return .file(URL(fileURLWithPath: real), relativePath: relative)
    }

    static func realPath(_ url: URL) -> String? {
        guard let resolved = realpath(url.path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The Content-Type of a file of the site, by its extension.
    public static func contentType(of path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return types[ext] ?? "application/octet-stream"
    }

    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "json": "application/json", "xml": "application/xml", "txt": "text/plain; charset=utf-8",
        "webp": "image/webp", "avif": "image/avif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
        "gif": "image/gif", "svg": "image/svg+xml", "ico": "image/x-icon", "heic": "image/heic", "tif": "image/tiff",
        "tiff": "image/tiff", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "zip": "application/zip", "woff2": "font/woff2", "bin": "application/octet-stream",
    ]

    /// `media/` holds content-addressed files (a new picture gets a new
    /// name), so browsers may keep them for good; pages are asked for anew.
    public static func cacheControl(for relativePath: String) -> String {
        relativePath.hasPrefix("media/") ? "public, max-age=31536000, immutable" : "no-cache"
    }

    /// A strong validator from size and modification time (nanoseconds): a
    /// file rewritten in place with new bytes gets a new one.
    public static func entityTag(size: Int64, modified: timespec, variant: String = "") -> String {
        "\"\(String(size, radix: 16))-\(String(modified.tv_sec, radix: 16)).\(String(modified.tv_nsec, radix: 16))\(variant)\""
    }

    /// Whether the client's copy is current: If-None-Match first (RFC 9110
    /// 13.2.2), else If-Modified-Since at whole seconds.
    public static func isNotModified(ifNoneMatch: String?, ifModifiedSince: String?, entityTag: String, modified: Date) -> Bool {
        if let ifNoneMatch {
            return ifNoneMatch.split(separator: ",").contains { tag in
                let trimmed = tag.trimmingCharacters(in: .whitespaces)
                return trimmed == "*" || trimmed == entityTag || trimmed == "W/" + entityTag
            }
        }
        if let ifModifiedSince, let since = httpDate(ifModifiedSince) {
            return modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }

    /// What a `Range` header asks of a file of `size` bytes.
    public enum RangeAnswer: Equatable, Sendable {
        /// The whole file (no header, a form this server does not split,
        /// several ranges, or an If-Range that no longer matches).
        case whole
        case part(Range<Int64>)
        case unsatisfiable
    }

    /// One `bytes=` range (RFC 9110 14.1.2): `a-b`, `a-` or `-n`.
    public static func range(_ header: String?, size: Int64) -> RangeAnswer {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(",") else { return .whole }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return .whole }
        if parts[0].isEmpty {
            guard let suffix = Int64(parts[1]), suffix >= 0 else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)..<size)
        }
        guard let first = Int64(parts[0]), first >= 0 else { return .whole }
        guard first < size else { return .unsatisfiable }
        if parts[1].isEmpty { return .part(first..<size) }
        guard let last = Int64(parts[1]), last >= first else { return .whole }
        return .part(first..<min(size, last + 1))
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), as HTTP dates are sent.
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
