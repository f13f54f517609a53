import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// Why the preview server could not start.
public struct PreviewError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// `gallerygen serve`'s web server: OUT as any static host would serve it
/// (types, byte ranges for video seeking, validators and 304s, immutable
/// caching of `media/`, a folder's index.html, nothing outside OUT), plus a
/// small script in each page that reloads it when a build finishes.
/// HTTP parsing and connections are FlyingFox's (pure Swift, no SwiftNIO: a
/// preview server does not need it and CI builds it on 2 cores).
public final class SiteServer: Sendable {
    /// OUT, resolved (symbolic links followed) once.
    public let root: URL
    let server: HTTPServer
    /// Bumped after every build; open pages wait on it.
    let generation = BuildGeneration()

    /// The server-sent events open pages listen to: one per finished build.
    static let reloadPath = "/__gallerygen/events"

    /// The prefix of the pages `extras` answers.
    public static let extrasPrefix = "/__gallerygen/"

    public init(root: URL, host: String, port: UInt16, extras: (any ServedExtras)? = nil) throws(PreviewError) {
        guard let real = StaticFile.realPath(root) else { throw PreviewError(description: "cannot serve \(root.path): it does not exist") }
        self.root = URL(fileURLWithPath: real)
        let address = try Self.address(host: host, port: port)
        let handler = PreviewHandler(root: self.root, generation: generation, extras: extras)
        server = HTTPServer(config: HTTPServer.Configuration(address: address, logger: .disabled), handler: handler)
    }

    /// The socket address of `host` (an IPv4 or IPv6 address, or localhost) and `port`.
    static func address(host: String, port: UInt16) throws(PreviewError) -> any SocketAddress {
        do {
            switch host {
            case "localhost": return try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
            case let name where name.contains(":"): return try sockaddr_in6.inet6(ip6: name, port: port)
            default: return try sockaddr_in.inet(ip4: host, port: port)
            }
        } catch {
            throw PreviewError(description: "--host \(host): not an IPv4 or IPv6 address (\(error))")
        }
    }

    /// Fails, saying what to do, when nothing could listen on `host`:`port`
    /// now: asked before the first build, so a busy port is known at once,
    /// not after minutes of building. (Port 0 is always free.)
    public static func checkCanListen(host: String, port: UInt16) throws(PreviewError) {
        let address = try address(host: host, port: port)
        guard port != 0 else { return }
        do {
            let socket = try Socket(domain: Int32(address.family))
            defer { try? socket.close() }
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: address)
        } catch SocketError.failed(_, let code, _) where code == EADDRINUSE {
            throw PreviewError(description: "port \(port) is in use; choose another with --port, or --port 0 for any free one")
        } catch SocketError.failed(_, let code, _) where code == EACCES {
            throw PreviewError(description: "port \(port) needs administrator rights; choose one above 1023 with --port, or --port 0 for any free one")
        } catch {
            throw PreviewError(description: "cannot listen on \(host) port \(port): \(error); choose another --host or --port")
        }
    }

    /// Serves until the task is cancelled (or the socket fails).
    public func run() async throws { try await server.run() }

    /// The port it listens on, once it does (the one the system chose for port 0).
    public func listeningPort() async throws -> Int {
        try await server.waitUntilListening()
        switch await server.listeningAddress {
        case .ip4(_, let port), .ip6(_, let port): return Int(port)
        default: throw PreviewError(description: "the server is not listening on an IP address")
        }
    }

    /// A build finished: open pages reload.
    public func siteChanged() { generation.value.withLock { $0 += 1 } }
}

/// How many builds have finished since the server started.
final class BuildGeneration: Sendable {
    let value = Mutex(0)
    var current: Int { value.withLock { $0 } }
}

/// Answers one request: the reload long-poll, or a file of OUT.
struct PreviewHandler: HTTPHandler {
    let root: URL
    let generation: BuildGeneration
    var extras: (any ServedExtras)?

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let rawPath = request.target.path(percentEncoded: true)
        if rawPath.hasPrefix(SiteServer.extrasPrefix), rawPath != SiteServer.reloadPath, let extras {
            return try await extra(request, extras)
        }
        guard request.method == .GET || request.method == .HEAD else {
            return HTTPResponse(statusCode: .methodNotAllowed, headers: HTTPHeaders([HTTPHeader("Allow"): "GET, HEAD"]))
        }
        if rawPath == SiteServer.reloadPath { return try await reload(request) }
        switch StaticFile.resolve(rawPath, in: root) {
        case .notFound:
            return Self.notFound
        case .redirect(let location):
            return HTTPResponse(statusCode: .movedPermanently, headers: HTTPHeaders([.location: location]))
        case .file(let url, let relativePath):
            return try file(url, relativePath: relativePath, request: request)
        }
    }

    static let phrases = [200: "OK", 303: "See Other", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
                          500: "Internal Server Error"]

    /// An extra page, for this machine only.
    func extra(_ request: HTTPRequest, _ extras: any ServedExtras) async throws -> HTTPResponse {
        let local: Bool
        switch request.remoteAddress {
        case .ip4(let ip, _)?: local = ip.hasPrefix("127.")
        case .ip6(let ip, _)?: local = ip == "::1" || ip.hasPrefix("::ffff:127.")
        case .unix?: local = true
        case nil: local = false
        }
        guard local else { return Self.notFound }
        guard request.method == .GET || request.method == .POST else {
            return HTTPResponse(statusCode: .methodNotAllowed, headers: HTTPHeaders([HTTPHeader("Allow"): "GET, POST"]))
        }
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        let form = request.method == .POST ? ExtraRequest.formFields(try await request.bodyData) : [:]
        let path = request.target.path(percentEncoded: false)
        let asked = ExtraRequest(method: request.method.rawValue, path: path, query: query, form: form,
                                 origin: request.headers[HTTPHeader("Origin")], host: request.headers[HTTPHeader("Host")])
        guard let answer = await extras.answer(asked) else { return Self.notFound }
        var headers: HTTPHeaders = [.contentType: answer.contentType, .cacheControl: "no-store", HTTPHeader("X-Content-Type-Options"): "nosniff",
                                    HTTPHeader("Referrer-Policy"): "same-origin"]
        if let location = answer.location { headers[.location] = location }
        let body = answer.contentType.hasPrefix("text/html") ? Self.withReloadScript(answer.body) : answer.body
        return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: Self.phrases[answer.status] ?? "Error"), headers: headers, body: body)
    }

    static var notFound: HTTPResponse {
        HTTPResponse(statusCode: .notFound, headers: HTTPHeaders([.contentType: "text/plain; charset=utf-8"]), body: Data("Not found\n".utf8))
    }

    /// A stream of server-sent events: the build generation now, then each
    /// new one as builds finish, and a comment now and then so proxies and
    /// browsers keep the connection open.
    func reload(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: HTTPHeaders([.contentType: "text/event-stream", .cacheControl: "no-store"]),
                     body: HTTPBodySequence(from: BuildEvents(generation: generation)))
    }

    func file(_ url: URL, relativePath: String, request: HTTPRequest) throws -> HTTPResponse {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            return Self.notFound
        }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        let isPage = relativePath.hasSuffix(".html")
        let tag = StaticFile.entityTag(size: Int64(info.st_size), modified: info.st_mtim, variant: isPage ? "-live" : "")
        var headers: HTTPHeaders = [
            .contentType: StaticFile.contentType(of: relativePath),
            .cacheControl: StaticFile.cacheControl(for: relativePath),
            .eTag: tag,
            .lastModified: StaticFile.httpDate(modified),
            HTTPHeader("X-Content-Type-Options"): "nosniff",
        ]
        if StaticFile.isNotModified(ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: request.headers[.ifModifiedSince],
                                    entityTag: tag, modified: modified) {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        let isHead = request.method == .HEAD
        if isPage {
            // Pages carry the reload script: read whole (they are small), never in ranges.
            let page = Self.withReloadScript(try Data(contentsOf: url))
            if isHead { headers[.contentLength] = String(page.count) }
            return HTTPResponse(statusCode: .ok, headers: headers, body: isHead ? Data() : page)
        }
        headers[.acceptRanges] = "bytes"
        let size = Int64(info.st_size)
        // If-Range with another validator: the file changed, send it whole.
        let ifRange = request.headers[HTTPHeader("If-Range")]
        let answer = ifRange == nil || ifRange == tag ? StaticFile.range(request.headers[.range], size: size) : .whole
        switch answer {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
            return HTTPResponse(statusCode: .rangeNotSatisfiable, headers: headers)
        case .part(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
            if isHead {
                headers[.contentLength] = String(part.count)
                return HTTPResponse(statusCode: .partialContent, headers: headers)
            }
            return HTTPResponse(statusCode: .partialContent, headers: headers,
                                body: try HTTPBodySequence(file: url, range: Int(part.lowerBound)..<Int(part.upperBound), suggestedBufferSize: 1 << 16))
        case .whole:
            if isHead {
                headers[.contentLength] = String(size)
                return HTTPResponse(statusCode: .ok, headers: headers)
            }
            return HTTPResponse(statusCode: .ok, headers: headers, body: try HTTPBodySequence(file: url, suggestedBufferSize: 1 << 16))
        }
    }

    /// The script every served page gets: it listens to the server's events
    /// and reloads the page when a build finished since it was loaded.
    /// Only `gallerygen serve` adds it; the files in OUT never have it.
    static let reloadScript = """
        <script>(function () {
          if (!window.EventSource) return;
          var seen = null;
          new EventSource("\(SiteServer.reloadPath)").onmessage = function (event) {
            if (seen !== null && event.data !== seen) location.reload();
            seen = event.data;
          };
        })();</script>

        """

    static func withReloadScript(_ page: Data) -> Data {
        let script = Data(reloadScript.utf8)
        guard let end = page.range(of: Data("</body>".utf8), options: .backwards) else { return page + script }
        var result = page
        result.insert(contentsOf: script, at: end.lowerBound)
        return result
    }
}

/// The bytes of the reload event stream (`text/event-stream`), as FlyingFox
/// sends a body of unknown length: chunk by chunk, each as soon as it is made.
struct BuildEvents: AsyncBufferedSequence {
    typealias Element = UInt8
    let generation: BuildGeneration

    func makeAsyncIterator() -> Iterator { Iterator(generation: generation) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let generation: BuildGeneration
        var sent: Int?
        var pending: ArraySlice<UInt8> = []
        var lastWrite = ContinuousClock.now
        /// A comment at least this often keeps idle connections open.
        static let keepAlive: Duration = .seconds(15)

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            if pending.isEmpty { pending = ArraySlice(try await nextEvent()) }
            let chunk = pending.prefix(Swift.max(1, count))
            pending = pending.dropFirst(chunk.count)
            return chunk
        }

        mutating func nextEvent() async throws -> [UInt8] {
            let clock = ContinuousClock()
            guard let last = sent else {
                sent = generation.current
                lastWrite = clock.now
                return Array("retry: 1000\ndata: \(sent!)\n\n".utf8)
            }
            while true {
                let now = generation.current
                if now != last {
                    sent = now
                    lastWrite = clock.now
                    return Array("data: \(now)\n\n".utf8)
                }
                if clock.now - lastWrite >= Self.keepAlive {
                    lastWrite = clock.now
                    return Array(": waiting for a build\n\n".utf8)
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
