import GalleryCore

/// The state's photo entries by cache key: a `StringTable`, not a
/// `Dictionary` (at 100,000 photos the dictionary's slots were 40 MB of a
/// no-op's peak; docs/performance.md).
public typealias PhotoEntries = StringTable<CachedPhoto>
