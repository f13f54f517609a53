import Foundation

/// The paths a build wrote, in the order written (a path written twice is
/// there twice), each kept as its length and its UTF-8 in blocks of a MB.
///
/// Read back from the build's journal when the prune needs them
/// (`BuildJournal.ownRecords`), not held through the build: a first build of
/// 1,000,000 photos writes 2,000,000 files, and their paths held as
/// `String`s through its media, page and prune steps took about 100 bytes
/// each (`heaptrack`); here they take 47, and only from the prune on.
/// Entries never move once added, so the prune sorts the new ones by
/// pointer (`forEachUTF8`) without copying them.
///
/// Safe to append to from several threads at once.
public final class WrittenPaths: Sequence, ExpressibleByArrayLiteral, @unchecked Sendable {
    private let lock = NSLock()
    /// Full blocks, then the one being filled, each with the bytes it uses.
    private var blocks: [(memory: UnsafeMutableRawBufferPointer, used: Int)] = []
    private var entries = 0

    /// The size of a block; a path longer than that gets a block of its own.
    private static let blockSize = 1 << 20
    /// An entry's length: the bytes before its UTF-8.
    private static let lengthBytes = MemoryLayout<UInt32>.size

    public init() {}

    /// A list of `paths`, as if written in their order.
    public convenience init(_ paths: some Sequence<String>) {
        self.init()
        for path in paths { append(path) }
    }

    public convenience init(arrayLiteral paths: String...) {
        self.init(paths)
    }

    deinit {
        for block in blocks { block.memory.deallocate() }
    }

    /// Adds `path` after those written before it.
    public func append(_ path: String) {
        var path = path
        path.withUTF8 { append(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Adds the path whose UTF-8 `utf8` is.
    public func append(utf8: UnsafeRawBufferPointer) {
        let size = Self.lengthBytes + utf8.count
        lock.withLock {
            if blocks.isEmpty || blocks[blocks.count - 1].used + size > blocks[blocks.count - 1].memory.count {
                blocks.append((.allocate(byteCount: Swift.max(Self.blockSize, size), alignment: 8), 0))
            }
            let (block, used) = blocks[blocks.count - 1]
            block.storeBytes(of: UInt32(utf8.count).littleEndian, toByteOffset: used, as: UInt32.self)
            if let base = utf8.baseAddress {
                (block.baseAddress! + used + Self.lengthBytes).copyMemory(from: base, byteCount: utf8.count)
            }
            blocks[blocks.count - 1].used = used + size
            entries += 1
        }
    }

    /// How many paths were written (a path written twice counts twice).
    public var count: Int { lock.withLock { entries } }
    public var isEmpty: Bool { count == 0 }

    /// The bytes each block uses, as they are now: what was written never
    /// changes, so it is read outside the lock.
    private func snapshot() -> [UnsafeRawBufferPointer] {
        lock.withLock { blocks.map { UnsafeRawBufferPointer(rebasing: $0.memory[..<$0.used]) } }
    }

    /// The UTF-8 of the entry at `offset` of `block`, and the offset after it.
    private static func entry(in block: UnsafeRawBufferPointer, at offset: Int) -> (utf8: UnsafeRawBufferPointer, next: Int) {
        let length = Int(UInt32(littleEndian: block.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        let start = offset + lengthBytes
        return (UnsafeRawBufferPointer(rebasing: block[start..<(start + length)]), start + length)
    }

    /// `body` of each path's UTF-8, in the order written. The buffers stay
    /// valid as long as this list does (`withExtendedLifetime` it).
    public func forEachUTF8(_ body: (UnsafeRawBufferPointer) -> Void) {
        for block in snapshot() {
            var offset = 0
            while offset < block.count {
                let (utf8, next) = Self.entry(in: block, at: offset)
                body(utf8)
                offset = next
            }
        }
    }

    /// The paths as strings, one at a time.
    public struct Iterator: IteratorProtocol {
        /// Keeps the blocks alive.
        let list: WrittenPaths
        let blocks: [UnsafeRawBufferPointer]
        var block = 0, offset = 0

        public mutating func next() -> String? {
            while block < blocks.count, offset >= blocks[block].count {
                block += 1
                offset = 0
            }
            guard block < blocks.count else { return nil }
            let (utf8, next) = WrittenPaths.entry(in: blocks[block], at: offset)
            offset = next
            return String(decoding: utf8, as: UTF8.self)
        }
    }

    public func makeIterator() -> Iterator { Iterator(list: self, blocks: snapshot()) }
}
