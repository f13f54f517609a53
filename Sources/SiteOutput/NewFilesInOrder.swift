import Foundation

extension OutputFolder {
    /// The paths whose UTF-8 `paths` holds, sorted as strings sort and each
    /// once (a file written twice is listed once), encoded as the state's
    /// list is. Paths are compared by their bytes when all are ASCII, as
    /// they are unless a photo's name is not; paths equal as strings but not
    /// in their bytes (a name composed, and the same name decomposed: two
    /// files) in their bytes' order, so a path written twice is next to itself.
    /// Sorted in place: a sorted copy was a second list of 2,000,000 pointers on a first build.
    static func encodedInOrder(_ paths: inout [UnsafeRawBufferPointer]) -> (bytes: [UInt8], count: Int) {
        if paths.allSatisfy({ $0.allSatisfy { $0 < 0x80 } }) {
            paths.sort(by: EncodedStrings.bytesPrecede)
        } else {
            paths.sort { a, b in EncodedStrings.precedes(a, b) || (!EncodedStrings.precedes(b, a) && EncodedStrings.bytesPrecede(a, b)) }
        }
        var out = StateWriter()
        out.reserve(paths.reduce(0) { $0 + 8 + $1.count })
        var count = 0, previous: UnsafeRawBufferPointer?
        for path in paths {
            if let previous, previous.count == path.count, previous.elementsEqual(path) { continue }
            out.int(path.count)
            out.raw(path)
            count += 1
            previous = path
        }
        return (out.bytes, count)
    }
}
