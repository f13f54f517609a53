import Synchronization

/// A camera's maker, model and lens, in one box shared by every photo that
/// names the same three: inline, the names were 48 of the metadata's bytes,
/// and a lens's name ("iPhone 12 Pro back dual wide camera 4.2mm f/1.6") a
/// string on the heap for each photo, all held for the whole build.
final class CameraIdentity: Sendable {
    let make: String?
    let model: String?
    let lens: String?

    private init(make: String?, model: String?, lens: String?) {
        self.make = make
        self.model = model
        self.lens = lens
    }

    private struct Names: Hashable {
        let make: String?, model: String?, lens: String?
    }

    /// The boxes made so far, by their names.
    private static let known = Mutex<[Names: CameraIdentity]>([:])
    /// Beyond this many (no library has so many cameras and lenses; a
    /// made-up one might), a box is made for each photo and not kept here.
    static let mostKept = 50_000

    /// The box of these names (the one made before, if any); nil when there are none.
    static func of(make: String?, model: String?, lens: String?) -> CameraIdentity? {
        guard make != nil || model != nil || lens != nil else { return nil }
        let names = Names(make: make, model: model, lens: lens)
        return known.withLock { known in
            if let made = known[names] { return made }
            let made = CameraIdentity(make: make, model: model, lens: lens)
            if known.count < mostKept { known[names] = made }
            return made
        }
    }
}
