import Foundation

/// Short, specific reasons from Foundation errors: the underlying POSIX error
/// ("Permission denied", "No such file or directory") says more than
/// Foundation's generic "The operation could not be completed".
public enum ErrorText {
    /// The most specific reason an error carries.
    public static func describe(_ error: Error) -> String {
        var current = error as NSError
        while true {
            if current.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(current.code))) }
            guard let underlying = current.userInfo[NSUnderlyingErrorKey] as? NSError else { break }
            current = underlying
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        // gallerygen's own errors say what happened in their description.
        if !(type(of: error) is NSError.Type), !(error is CocoaError) { return String(describing: error) }
        return current.localizedDescription
    }
}
