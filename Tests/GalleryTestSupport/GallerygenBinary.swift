import Foundation

/// The built `gallerygen` executable, beside the test bundle, run as a user would.
public enum GallerygenBinary {
    public static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gallerygen")
    }

    /// What one run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs gallerygen to completion with `arguments`.
    public static func result(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while it runs, so a full pipe cannot stall it.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Standard output of a run that must succeed.
    public static func run(_ arguments: [String]) throws -> String {
        let result = try result(arguments)
        guard result.status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return result.stdout
    }
}
