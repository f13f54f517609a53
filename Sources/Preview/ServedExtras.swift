import Foundation

/// Pages `gallerygen serve` answers beside OUT's files, under `/__gallerygen/`
/// (the faces review page): made on request, never written into OUT, and
/// answered only to this machine (a reviewer sees faces of people nobody
/// has named; a site served to the network must not show them).
public protocol ServedExtras: Sendable {
    /// The answer to a request below `/__gallerygen/` (other than the reload
    /// stream); nil: not found.
    func answer(_ request: ExtraRequest) async -> ExtraResponse?
}

/// A request to an extra page, reduced to what such a page reads.
public struct ExtraRequest: Sendable {
    public var method: String
    /// The path below the server's root, percent-decoded (`/__gallerygen/people`).
    public var path: String
    public var query: [String: String]
    /// A POSTed form's fields (`application/x-www-form-urlencoded`).
    public var form: [String: String]
    /// The request's `Origin` header, if any.
    public var origin: String?
    /// The request's `Host` header.
    public var host: String?

    public init(method: String, path: String, query: [String: String] = [:], form: [String: String] = [:], origin: String? = nil,
                host: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.form = form
        self.origin = origin
        self.host = host
    }

    /// The fields of a form body.
    public static func formFields(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let key = parts.first, !key.isEmpty else { continue }
            fields[key] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}

/// An extra page's answer.
public struct ExtraResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: Data
    /// Where a 303 sends the browser.
    public var location: String?

    public init(status: Int = 200, contentType: String = "text/html; charset=utf-8", body: Data = Data(), location: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.location = location
    }

    /// After a form: the browser is sent to `location` (303 See Other).
    public static func seeOther(_ location: String) -> ExtraResponse {
        ExtraResponse(status: 303, contentType: "text/plain; charset=utf-8", body: Data(), location: location)
    }
}
