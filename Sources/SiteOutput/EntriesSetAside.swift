import Foundation
import GalleryCore
#if canImport(Glibc)
import Glibc
#endif

/// A whole build with no previous state file to commit from (the first
/// build, or after an upgrade of the state's layout) sets its photo entries
/// aside in a state file of their own once its media step is done, and
/// commits from that file as a rebuild commits from the state it read
/// (`StateDelta.swift`): a first build of a million photos held a million
/// 152-byte entries through the page step, for the commit alone.
extension OutputFolder {
    /// The state folder's file a build's entries are set aside in: removed
    /// when the build commits (and left by one that fails, for the next
    /// build's commit to remove).
    static let asideFileName = "aside.bin"

    /// Writes `photos`, with `previous`'s page records, to the aside file and
    /// makes that file `previous`'s base, with the counts of both kinds of
    /// entries: the build's state is then committed from it. False, with
    /// `previous` as it was, when the file cannot be written (the entries are
    /// then kept in memory and the state encoded whole, as before).
    public func settingEntriesAside(_ photos: PhotoEntries, previous: inout BuildState) -> Bool {
        let url = stateFolder.appendingPathComponent(Self.asideFileName)
        var aside = BuildState(files: [], photos: photos, pages: previous.pages)
        aside.siteInputs = previous.siteInputs
        var regions: (photos: Range<Int>, pages: Range<Int>)?
        do throws(OutputError) {
            var stream = try AtomicFile.Stream(to: url, fault: injectedFault)
            do throws(OutputError) {
                try aside.encode(regions: { regions = ($0, $1) }) { (chunk) throws(OutputError) in try stream.write(chunk) }
                try stream.commit()
            } catch {
                stream.abandon()
                throw error
            }
        } catch {
            return false
        }
        guard let regions, let identity = FileIdentity(path: url.path) else { return false }
        var base = StateFileBase(photos: .init(offset: regions.photos.lowerBound, length: regions.photos.count, count: photos.count),
                                 pages: .init(offset: regions.pages.lowerBound, length: regions.pages.count, count: previous.pages.count))
        base.file = url
        base.identity = identity
        previous.base = base
        return true
    }

    /// Removes the aside file, if a build left one.
    func removeAsideFile() {
        unlink(stateFolder.appendingPathComponent(Self.asideFileName).path)
    }
}
