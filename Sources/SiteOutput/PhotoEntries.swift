import GalleryCore

/// The state's photo entries by cache key: a `StringTable`, not a
/// `Dictionary` (at 100,000 photos the dictionary's slots were 40 MB of a
/// no-op's peak; docs/performance.md).
public typealias PhotoEntries = StringTable<CachedPhoto>

/// The state's page records by page id: a `StringTable` as the photo
/// entries are (a `Dictionary` of 1,000,000 records kept 2,097,152 slots
/// of key and record, 84 bytes a page).
public typealias PageEntries = StringTable<PageRecord>
