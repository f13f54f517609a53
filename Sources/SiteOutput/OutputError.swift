import Foundation
import GalleryCore

/// Why OUT cannot be used or written: one line for the user, naming the path.
public enum OutputError: Error, Sendable, CustomStringConvertible {
    /// OUT is SOURCE or inside it, which would publish the site into the photo folder.
    case insideSource(output: String, source: String)
    /// OUT cannot be created or written.
    case notWritable(String, reason: String)
    /// The state folder is inside OUT (it would be published) or SOURCE.
    case stateInside(state: String, folder: String, what: String)
    /// The state folder cannot be created or written.
    case stateNotWritable(String, reason: String)
    /// Another build holds OUT's lock.
    case locked(String)
    /// A file of the site could not be written.
    case writeFailed(String, reason: String)
    /// OUT's file system refused a write for a reason no photo causes: it is
    /// full, over quota, read-only, or OUT is not ours to write. The build
    /// stops at the first (every later write would fail the same way, and
    /// reporting each photo as skipped would blame the photos).
    case fault(String, code: Int32)

    /// The message.
    public var description: String {
        switch self {
        case .insideSource(let output, let source) where output == source:
            return "the output folder is the source folder '\(source)'; choose a folder outside it (gallerygen never writes into your photos)"
        case .insideSource(let output, let source):
            return "output folder '\(output)' is inside the source folder '\(source)'; choose a folder outside it"
        case .notWritable(let path, let reason): return "cannot write to output folder '\(path)': \(reason)"
        case .stateInside(let state, let folder, let what):
            return "the build state folder '\(state)' is inside '\(folder)' (\(what)); set state: in gallery.yml (or --state) to a folder outside it"
        case .stateNotWritable(let path, let reason):
            return "cannot write the build state folder '\(path)': \(reason); set state: in gallery.yml (or --state) to a folder you can write"
        case .locked(let path): return "another gallerygen build is already running on '\(path)'"
        case .writeFailed(let path, let reason): return "cannot write '\(path)': \(reason)"
        case .fault(let path, let code):
            let name = Self.faultNames[code].map { " (\($0))" } ?? ""
            return "cannot write '\(path)': \(Self.reason(code))\(name); the build stopped there. "
                + "Once the output folder can be written again, build again: the site is then completed"
        }
    }

    /// The errno values that are faults of the machine, not of a photo,
    /// with their names for the message.
    static let faultNames: [Int32: String] = [
        ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EROFS: "EROFS", EACCES: "EACCES", EPERM: "EPERM", EIO: "EIO",
    ]

    /// True for an error after which the build cannot go on (`fault`).
    public var stopsTheBuild: Bool {
        if case .fault = self { return true }
        return false
    }

    /// The error for a failed write of `path`: a `fault` when `error` carries
    /// one of the machine's errno values, otherwise `writeFailed` with its text.
    static func failure(writing path: String, _ error: Error) -> OutputError {
        if let error = error as? OutputError { return error }
        if let code = posixCode(of: error), faultNames[code] != nil { return .fault(path, code: code) }
        return .writeFailed(path, reason: reason(error))
    }

    /// The errno inside a POSIX or Foundation error (Foundation wraps it as
    /// the underlying error), if any.
    static func posixCode(of error: Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? Error { return posixCode(of: underlying) }
        // Foundation on Linux reports some file errors as Cocoa codes only.
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileWriteOutOfSpace where ns.domain == NSCocoaErrorDomain: return ENOSPC
        case .fileWriteVolumeReadOnly where ns.domain == NSCocoaErrorDomain: return EROFS
        case .fileWriteNoPermission where ns.domain == NSCocoaErrorDomain: return EACCES
        default: return nil
        }
    }

    /// The text of an errno value ("No space left on device").
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A short, specific reason from a Foundation error (see `ErrorText`).
    static func reason(_ error: Error) -> String { ErrorText.describe(error) }
}
