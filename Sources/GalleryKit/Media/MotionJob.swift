import SiteOutput
import Video
import GalleryCore
import Scanning

/// The motion of a Live Photo (a short clip beside the still) or a Motion
/// Photo (an MP4 inside the JPEG): whether there is one to publish, its
/// facts, and its playback file. A still is published whatever becomes of
/// its motion; what went wrong is a note.
struct MotionJob: Sendable {
    let video: VideoWork
    let rules: PublishingRules

    /// Finds the still's motion and fills `metadata.motion` (no location:
    /// the still's names the place, or the clip's when the still has none).
    /// Returns what the cache keeps of a Live Photo's clip.
    func examine(_ file: SourceFile, still bytes: UnsafeRawBufferPointer, metadata: inout PhotoMetadata,
                 notes: inout [String]) throws -> CachedClip? {
        var clip: CachedClip?
        if let liveClip = file.livePhotoClip {
            (metadata.motion, clip) = examineLiveClip(liveClip, still: metadata, notes: &notes)
            // A still saved without its location (an edited export) can take its clip's.
            if metadata.place == nil { metadata.place = rules.place(near: metadata.motion?.location) }
        } else if let range = metadata.embeddedClip {
            do {
                metadata.motion = try video.withEmbeddedClip(bytes, range: range) { url in try video.facts(of: url) }
            } catch {
                try rethrowIfTheBuildMustStop(error)
                notes.append("its Motion Photo clip is not published: \(ErrorText.describe(error))")
            }
        }
        metadata.motion?.location = nil
        return clip
    }

    /// Makes the playback file `path` of the still's motion. On failure the
    /// motion is dropped from `metadata` and named in `notes`: it is tried
    /// again next build. Returns whether the file was made.
    func makePlayback(_ file: SourceFile, still bytes: UnsafeRawBufferPointer, path: String, metadata: inout PhotoMetadata,
                      notes: inout [String]) throws -> Bool {
        guard let motion = metadata.motion else { return false }
        do {
            if let liveClip = file.livePhotoClip {
                try video.makePlayback(from: liveClip.url, facts: motion, path: path, displayName: liveClip.displayPath)
            } else if let range = metadata.embeddedClip {
                try video.withEmbeddedClip(bytes, range: range) { url in
                    try video.makePlayback(from: url, facts: motion, path: path, displayName: file.displayPath)
                }
            }
            return true
        } catch {
            try rethrowIfTheBuildMustStop(error)
            notes.append("its motion is not published: \(ErrorText.describe(error))")
            metadata.motion = nil
            return false
        }
    }

    /// Decides whether `clip` (a video named like the still beside it) is
    /// the still's Live Photo motion: short, and with the same Apple content
    /// identifier when both carry one. Its facts when it is; when it is not,
    /// it is published on its own (`CachedClip.belongsToStill` false).
    private func examineLiveClip(_ clipFile: SourceFile, still: PhotoMetadata, notes: inout [String]) -> (VideoFacts?, CachedClip?) {
        do {
            let hash = try SourceFileReader.contentHash(of: clipFile)
            func entry(_ belongs: Bool) -> CachedClip {
                CachedClip(size: clipFile.byteCount, modified: clipFile.modifiedNanoseconds, contentHash: hash, belongsToStill: belongs)
            }
            let facts: VideoFacts
            do {
                facts = try video.facts(of: clipFile.url)
            } catch let error as ExternalToolError {
                if case .missing = error {
                    notes.append("its Live Photo motion (\(clipFile.fileName)) is not published: \(error)")
                    return (nil, nil)
                }
                return (nil, entry(false))  // published (and skipped with its reason) on its own
            }
            let identifiersDiffer = still.livePhotoIdentifier != nil && facts.contentIdentifier != nil
                && still.livePhotoIdentifier != facts.contentIdentifier
            guard facts.duration <= VideoWork.longestLivePhotoClip, !identifiersDiffer else { return (nil, entry(false)) }
            return (facts, entry(true))
        } catch {
            // Unreadable: published on its own, which names the error, and
            // examined again next build (no size matches -1).
            return (nil, CachedClip(size: -1, modified: 0, contentHash: nil, belongsToStill: false))
        }
    }
}
