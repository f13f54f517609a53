import Foundation
import Testing
import GalleryTestSupport
import Yams
@testable import SiteOutput
@testable import GalleryCore
@testable import GalleryKit
@testable import Scanning
import Metadata

/// Sharded builds: parts run as separate processes with the environment
/// Kubernetes (Indexed Jobs) or Slurm (job arrays) gives them, one killed
/// and run again, then the page build; the site must be byte for byte the
/// one a single machine builds, with no rendition made twice.
@Suite(.serialized) struct ShardTests {
    @Test func partsAreReadFromTheFlagAndTheSchedulersEnvironment() throws {
        #expect(try Shard.parse("1/3", environment: [:]) == Shard(index: 1, count: 3))
        #expect(try Shard.parse("auto/8", environment: ["JOB_COMPLETION_INDEX": "7"]) == Shard(index: 7, count: 8))
        let slurm = ["SLURM_ARRAY_TASK_ID": "13", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4"]
        #expect(try Shard.parse("auto", environment: slurm) == Shard(index: 3, count: 4))
        var stepped = slurm
        stepped["SLURM_ARRAY_TASK_STEP"] = "2"
        stepped["SLURM_ARRAY_TASK_ID"] = "16"
        #expect(try Shard.parse("auto", environment: stepped) == Shard(index: 3, count: 4))
        for (text, environment, words) in [("3/3", [:], "not below 3"), ("x/3", [:], "not a whole number"), ("1-3", [:], "takes I/N"),
                                          ("auto/4", [:], "JOB_COMPLETION_INDEX"), ("auto", ["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_MIN"),
                                          ("0/0", [:], "at least 1"), ("auto/2", ["JOB_COMPLETION_INDEX": "2"], "not below 2")] {
            do {
                _ = try Shard.parse(text, environment: environment)
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.description.contains(words), "\(text): \(error)")
            }
        }
    }

    /// The key follows the content: a renamed copy keeps its part, another
    /// photo (mostly) does not share it; parts are balanced.
    @Test func theShardKeyFollowsTheContent() throws {
        let folder = try TemporaryFolder()
        let bytes = try IncrementalTests.photo(5)
        let a = try folder.write("a/IMG_1.jpg", bytes), b = try folder.write("b/renamed.jpg", bytes)
        let c = try folder.write("a/other.jpg", try IncrementalTests.photo(6))
        func key(_ url: URL) throws -> UInt64 {
            let key = SourceFileReader.shardKey(of: try FaultTests.scanned(url, in: folder.url))
            // The build keys a photo from its bytes in memory: the same key.
            #expect(Fixtures.contents(of: url).withUnsafeBytes { SourceFileReader.shardKey(of: $0) } == key, "\(url.lastPathComponent)")
            return key
        }
        #expect(try key(a) == key(b))
        #expect(try key(a) != key(c))
        // Broken and empty files have keys (read from the file and from memory alike), never a crash.
        for (name, bytes) in [("cut.jpg", [0xFF, 0xD8, 0xFF, 0xDB, 0x00] as [UInt8]), ("empty.jpg", []),
                              ("zero-length-segments.jpg", [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 50_000)),
                              ("bad-length.jpg", [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x01])] {
            _ = try key(try folder.write("odd/\(name)", bytes))
        }
        // The same pixels with other metadata (a caption added, a comment):
        // the renditions share their names, so the key is the same.
        let captioned = try folder.write("c/captioned.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 160, height: 120),
                                                                             exif: IncrementalTests.exif("2020:01:01 10:00:00")))
        var commented = try [UInt8](Data(contentsOf: captioned))
        commented.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x07] + Array("hello".utf8), at: 2)
        let other = try folder.write("c/commented.jpg", commented)
        let plain = try folder.write("c/plain.jpg", try Fixtures.jpeg(Fixtures.gradient(width: 160, height: 120)))
        #expect(try key(captioned) == key(other) && key(other) == key(plain))
        // (Their renditions do share names: one pixel identity.)
        let identities = try [captioned, other, plain].map { url in
            try [UInt8](Data(contentsOf: url)).withUnsafeBytes { ContentIdentity.hash($0, format: .jpeg, orientation: .up) }
        }
        #expect(Set(identities).count == 1)
        var counts = [0, 0, 0, 0]
        for seed in 0..<200 {
            let url = try folder.write("many/p\(seed).jpg", try IncrementalTests.photo(1000 + seed))
            counts[Int(try key(url) % 4)] += 1
        }
        #expect(counts.allSatisfy { $0 >= 30 && $0 <= 70 }, "200 photos over 4 parts: \(counts)")
    }

    /// A part reads only its own entries of the whole build's state (and
    /// none of its file list): the parts of a million-photo library do not
    /// each hold a million entries.
    @Test func aPartReadsOnlyItsOwnEntriesOfTheState() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.library(folder, photos: 24)
        let output = folder.url.appendingPathComponent("site")
        let whole = try FaultTests.runCapturing(["build", source.path, "--output", output.path, "--quiet"])
        #expect(whole.status == 0)
        let everything = try BuildState.decode(try Data(contentsOf: BuildState.location(in: BuildSettings.defaultStateFolder(for: output))))
        #expect(everything.photos.count == 26 && everything.photos.values.allSatisfy { $0.shardKey != 0 })
        var seen: PhotoEntries = [:]
        for index in 0..<3 {
            let part = try OutputFolder.open(output, source: source, shard: Shard(index: index, count: 3))
            let state = part.loadState()
            #expect(state.files.isEmpty)
            #expect(state.photos.values.allSatisfy { Shard(index: index, count: 3).owns(key: $0.shardKey) })
            #expect(state.photos.count < everything.photos.count)
            seen.merge(state.photos) { first, _ in first }
        }
        #expect(seen == everything.photos, "the parts' entries together are the whole state, decoded alike")
        // The key recorded is the one the walker computes.
        let file = try FaultTests.scanned(source.appendingPathComponent("Album 2/IMG_1002.jpg"), in: source)
        #expect(everything.photos[BuildState.key(for: file.relativePath)]?.shardKey == SourceFileReader.shardKey(of: file))
    }

    /// A library big enough that a part takes a moment.
    static func library(_ folder: TemporaryFolder, photos: Int) throws -> URL {
        for i in 0..<photos {
            var image = Fixtures.gradient(width: 480, height: 360)
            for p in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[p + 2] = UInt8(truncatingIfNeeded: i * 37 + p / 999) }
            let exif = IncrementalTests.exif("2024:0\(1 + i % 9):1\(i % 10) 1\(i % 10):00:00")
            try folder.write("src/Album \(i % 4)/IMG_\(1000 + i).jpg", try Fixtures.jpeg(image, exif: exif))
            // Faces tagged in a sidecar now and then: people pages and avatars are made by a part of the pages too.
            if i % 3 == 0 {
                let name = ["Ada Lovelace", "Alan Turing", "Grace Hopper"][i % 9 / 3]
                try folder.write("src/Album \(i % 4)/IMG_\(1000 + i).xmp", Array(WordsTests.xmpPacket("""
                    <rdf:Description xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#">\
                    <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag><rdf:li><rdf:Description mwg-rs:Name="\(name)" \
                    mwg-rs:Type="Face"><mwg-rs:Area stArea:x="0.4" stArea:y="0.5" stArea:w="0.2" stArea:h="0.3" stArea:unit="normalized"/>\
                    </rdf:Description></rdf:li></rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions></rdf:Description>
                    """).utf8))
            }
        }
        // Two copies of one photo under other names: the same part makes them.
        let twin = try [UInt8](Data(contentsOf: folder.url.appendingPathComponent("src/Album 0/IMG_1000.jpg")))
        try folder.write("src/Album 3/copy of IMG_1000.jpg", twin)
        try folder.write("src/Twins/IMG_1000.jpg", twin)
        // The settings where every part and the page build read them.
        try folder.write("src/gallery.yml", Array("format: jpeg\nthumbnail_sizes: [96x72]\npreview_sizes: [320x240]\npublish_people: true\n".utf8))
        return folder.url.appendingPathComponent("src")
    }

    /// Flags every run adds (the settings are in the library's gallery.yml).
    static let sizes: [String] = []

    /// Runs gallerygen with extra environment; the process, started.
    static func start(_ arguments: [String], environment: [String: String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = IncrementalTests.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        return (process, pipe)
    }

    /// Kills `process` (SIGKILL) as soon as its journal holds a file, or once it ends.
    static func killOnceJournaled(_ process: Process, _ journal: URL) {
        var waited = 0
        while process.isRunning, Fixtures.size(of: journal) == 0, waited < 40_000 {
            usleep(250)
            waited += 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Each part's state: the files it made.
    static func partFiles(_ output: URL) throws -> [String: Set<String>] {
        let folder = BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards")
        var result: [String: Set<String>] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".bin") {
            let state = try BuildState.decode(try Data(contentsOf: folder.appendingPathComponent(name)))
            result[name] = Set(state.files)
        }
        return result
    }

    /// The single-machine site, for comparison.
    static func singleBuild(_ source: URL, in folder: TemporaryFolder) throws -> [String: Data] {
        let output = folder.url.appendingPathComponent("single")
        let result = try FaultTests.runCapturing(["build", source.path, "--output", output.path, "--quiet"] + sizes)
        #expect(result.status == 0)
        return try FaultTests.site(output)
    }

    @Test func threeIndexedJobPartsThenThePageBuildGiveTheSingleMachineSite() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.library(folder, photos: 36)
        let output = folder.url.appendingPathComponent("site")
        // Three pods of a Kubernetes Indexed Job, at once.
        var parts: [(Process, Pipe)] = []
        for index in 0..<3 {
            parts.append(try Self.start(["build", source.path, "--output", output.path, "--shard", "auto/3"] + Self.sizes,
                                        environment: ["JOB_COMPLETION_INDEX": "\(index)"]))
        }
        var said: [String] = []
        for (process, pipe) in parts {
            said.append(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(said.last!)")
        }
        #expect(said.allSatisfy { $0.contains("of a sharded build: made the media of") }, "\(said)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path), "parts render no pages")
        // Disjoint parts, balanced, that together make every rendition.
        let files = try Self.partFiles(output)
        #expect(files.count == 3)
        let all = files.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(files.values.reduce(0) { $0 + $1.count } == all.count, "two parts made the same file")
        #expect(files.values.allSatisfy { $0.count >= all.count / 8 }, "unbalanced: \(files.mapValues(\.count))")

        // A photo deleted after the parts made it and before the page build:
        // its renditions, known only from a part's state, are pruned.
        try FileManager.default.removeItem(at: source.appendingPathComponent("Album 1/IMG_1001.jpg"))
        let pages = try FaultTests.runCapturing(["build", source.path, "--output", output.path] + Self.sizes)
        #expect(pages.status == 0)
        #expect(pages.standardError.contains("(0 renditions made, "), "the page build made renditions again: \(pages.standardError)")
        let single = try Self.singleBuild(source, in: folder)
        let sharded = try FaultTests.site(output)
        #expect(Set(single.keys) == Set(sharded.keys), "extra: \(Set(sharded.keys).subtracting(single.keys)), missing: \(Set(single.keys).subtracting(sharded.keys))")
        #expect(single == sharded)
        // The avatars are the People page's files, made by the page build: the parts made the rest.
        let people = String(decoding: try #require(single["people/index.html"]), as: UTF8.self)
        let avatars = Set(people.components(separatedBy: "../media/").dropFirst().compactMap { $0.split(whereSeparator: { " \"".contains($0) }).first }
            .map { "media/" + $0 })
        #expect(avatars.count == 6, "three people, two sizes each: \(avatars)")
        let media = Set(single.keys.filter { $0.hasPrefix("media/") }).subtracting(avatars)
        #expect(media.isSubset(of: all) && all.subtracting(media).count == 2, "the parts made the site's media (and the deleted photo's two)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards").path))?
            .filter { $0.hasSuffix(".bin") || $0.hasSuffix(".journal") }.isEmpty == true, "merged parts are cleared")
    }

    /// A Slurm array of four, the deploy script run as Slurm runs it (bash
    /// with the array's environment); one task killed mid-way and requeued;
    /// then the page step. While a part runs, a whole build on OUT and a
    /// second copy of the same part are refused.
    @Test func aSlurmArrayWithAKilledTaskGivesTheSingleMachineSite() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.library(folder, photos: 48)
        let output = folder.url.appendingPathComponent("site")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/slurm")
        func task(_ id: Int, extra: [String: String] = [:]) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script.appendingPathComponent("gallerygen-shards.sbatch").path]
            process.environment = ProcessInfo.processInfo.environment.merging([
                "SLURM_ARRAY_TASK_ID": "\(20 + id)", "SLURM_ARRAY_TASK_MIN": "20", "SLURM_ARRAY_TASK_COUNT": "4",
                "SLURM_ARRAY_JOB_ID": "777", "SLURM_CPUS_PER_TASK": "1",
                "SOURCE": source.path, "OUTPUT": output.path, "GALLERYGEN": IncrementalTests.executable.path,
            ].merging(extra) { _, new in new }) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            let pipe = Pipe()
            process.standardError = pipe
            try process.run()
            return (process, pipe)
        }
        // While a part runs (its locks held here): a whole build on OUT is
        // refused, and so is a second copy of the same part.
        do {
            let running = try OutputFolder.open(output, source: source, shard: Shard(index: 2, count: 4))
            let whole = try FaultTests.runCapturing(["build", source.path, "--output", output.path, "--quiet"] + Self.sizes)
            #expect(whole.status != 0 && whole.standardError.contains("already running"), "\(whole)")
            let (copy, copyPipe) = try task(2)
            let copySaid = String(decoding: copyPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            copy.waitUntilExit()
            #expect(copy.terminationStatus != 0 && copySaid.contains("already running"), "\(copySaid)")
            // Another part runs beside it.
            let (other, _) = try task(0)
            other.waitUntilExit()
            #expect(other.terminationStatus == 0)
            withExtendedLifetime(running) {}
        }
        // Task 2, killed as soon as it has journaled its first file.
        let (victim, _) = try task(2)
        let journal = BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards/2-of-4.journal")
        Self.killOnceJournaled(victim, journal)
        #expect(victim.terminationReason == .uncaughtSignal, "task 2 was killed mid-way (it had finished)")
        #expect(!FileManager.default.fileExists(atPath: BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards/2-of-4.bin").path))
        #expect(Fixtures.size(of: journal) > 0, "its journal is left for the retry")

        // The array: tasks 0, 1, 3 and the requeued 2, at once.
        var tasks: [(Process, Pipe)] = []
        for id in [0, 1, 3, 2] { tasks.append(try task(id)) }
        for (process, pipe) in tasks {
            let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(said)")
        }
        let files = try Self.partFiles(output)
        #expect(files.count == 4)
        let all = files.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(files.values.reduce(0) { $0 + $1.count } == all.count, "two parts made the same file")

        // The page array (two tasks), then the last step, as Slurm runs them after the array.
        for id in 0..<2 {
            let (status, said) = try FaultTests.runCapturing(
                [script.appendingPathComponent("gallerygen-pages.sbatch").path], executable: URL(fileURLWithPath: "/bin/bash"),
                environment: ["SOURCE": source.path, "OUTPUT": output.path, "GALLERYGEN": IncrementalTests.executable.path,
                              "SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "2",
                              "SLURM_CPUS_PER_TASK": "2"])
            #expect(status == 0 && said.contains("of a sharded page build"), "\(said)")
        }
        let (status, said) = try FaultTests.runCapturing(
            [script.appendingPathComponent("gallerygen-site.sbatch").path], executable: URL(fileURLWithPath: "/bin/bash"),
            environment: ["SOURCE": source.path, "OUTPUT": output.path, "GALLERYGEN": IncrementalTests.executable.path,
                          "SLURM_CPUS_PER_TASK": "2"])
        #expect(status == 0, "\(said)")
        #expect(said.contains("(0 renditions made, ") && said.contains("rendered 0 of "), "\(said)")
        let single = try Self.singleBuild(source, in: folder)
        let sharded = try FaultTests.site(output)
        #expect(Set(single.keys) == Set(sharded.keys), "extra: \(Set(sharded.keys).subtracting(single.keys)), missing: \(Set(single.keys).subtracting(sharded.keys))")
        #expect(single == sharded)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "a dead part's temporary files are cleaned: \(leftovers)")
    }

    /// The manifests are what the README says: an Indexed Job whose part
    /// count matches its completions, on a shared volume, and a page Job.
    @Test func theKubernetesManifestsAreIndexedJobsOnASharedVolume() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/kubernetes")
        let shards = try #require(try Yams.load(yaml: String(contentsOf: folder.appendingPathComponent("shards-job.yaml"), encoding: .utf8)) as? [String: Any])
        #expect(shards["kind"] as? String == "Job")
        let spec = try #require(shards["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect((spec["parallelism"] as? Int ?? 0) >= 1)
        let pod = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        let command = try #require(container["command"] as? [String])
        let shardAt = try #require(command.firstIndex(of: "--shard"))
        #expect(command[shardAt + 1] == "auto/\(completions)", "--shard auto/N with N = completions")
        let mounts = (container["volumeMounts"] as? [[String: Any]] ?? []).compactMap { $0["mountPath"] as? String }
        // The site in a folder of the site volume, so its state (beside it) is on the shared volume too.
        let out = try #require(command.firstIndex(of: "--output").map { command[$0 + 1] })
        #expect(mounts.contains("/site") && out.hasPrefix("/site/") && command.contains("/photos"))
        // The page parts: an Indexed Job too, its N the --pages part count.
        let pages = try #require(try Yams.load(yaml: String(contentsOf: folder.appendingPathComponent("pages-job.yaml"), encoding: .utf8)) as? [String: Any])
        let pageSpec = try #require(pages["spec"] as? [String: Any])
        #expect(pageSpec["completionMode"] as? String == "Indexed")
        let pageCompletions = try #require(pageSpec["completions"] as? Int)
        let pageCommand = try #require((((pageSpec["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?
            .first?["command"] as? [String])
        let pagesAt = try #require(pageCommand.firstIndex(of: "--pages"))
        #expect(pageCommand[pagesAt + 1] == "auto/\(pageCompletions)" && !pageCommand.contains("--shard"))
        // The last step: one pod, a whole build.
        let site = try #require(try Yams.load(yaml: String(contentsOf: folder.appendingPathComponent("site-job.yaml"), encoding: .utf8)) as? [String: Any])
        let siteCommand = ((((site["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?
            .first?["command"] as? [String]
        #expect(siteCommand != nil && siteCommand?.contains("--shard") == false && siteCommand?.contains("--pages") == false)
    }

    /// Every manifest runs the image the Containerfile documents building,
    /// as the image's own non-root user (its uid), with the site volume
    /// writable to it.
    @Test func theManifestsRunTheContainerfilesImageAsItsUser() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let containerfile = try String(contentsOf: repository.appendingPathComponent("Containerfile"), encoding: .utf8)
        let tag = try #require(containerfile.firstMatch(of: /podman build -f Containerfile -t (\S+) \./)?.1)
        let user = try #require(containerfile.firstMatch(of: /\nUSER (\d+):(\d+)\n/))
        for name in ["shards-job.yaml", "pages-job.yaml", "site-job.yaml"] {
            let job = try #require(try Yams.load(yaml: String(contentsOf: repository.appendingPathComponent("deploy/kubernetes/" + name), encoding: .utf8))
                as? [String: Any])
            let pod = try #require((((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any]))
            let container = try #require((pod["containers"] as? [[String: Any]])?.first)
            #expect(container["image"] as? String == String(tag), "\(name)")
            let security = try #require(pod["securityContext"] as? [String: Any], "\(name)")
            #expect(security["runAsUser"] as? Int == Int(user.1) && security["runAsGroup"] as? Int == Int(user.2), "\(name)")
            #expect(security["fsGroup"] as? Int == Int(user.2), "\(name)")
        }
    }

    /// The page phase: after the media parts, three page parts at once (one
    /// killed once it has written a page, then run again), then the last
    /// step, which renders no page a part made; the site is the single
    /// machine's byte for byte.
    @Test func pagePartsWithAKilledOneThenTheLastStepGiveTheSingleMachineSite() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.library(folder, photos: 36)
        let output = folder.url.appendingPathComponent("site")
        for index in 0..<2 {
            let part = try FaultTests.runCapturing(["build", source.path, "--output", output.path, "--shard", "\(index)/2", "--quiet"])
            #expect(part.status == 0, "\(part)")
        }
        func pagePart(_ index: Int) throws -> (Process, Pipe) {
            try Self.start(["build", source.path, "--output", output.path, "--pages", "auto/3", "--jobs", "1"],
                           environment: ["JOB_COMPLETION_INDEX": "\(index)"])
        }
        // Part 1, killed as soon as it has journaled a page.
        let (victim, _) = try pagePart(1)
        Self.killOnceJournaled(victim, BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards/pages-1-of-3.journal"))
        #expect(victim.terminationReason == .uncaughtSignal, "page part 1 was killed mid-way (it had finished)")
        #expect(!FileManager.default.fileExists(atPath: BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards/pages-1-of-3.bin").path))
        // The three parts at once (part 1 run again).
        var said: [String] = []
        for (process, pipe) in try (0..<3).map(pagePart) {
            said.append(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(said.last!)")
        }
        #expect(said.allSatisfy { $0.contains("of a sharded page build: rendered") }, "\(said)")
        // Disjoint shares of the pages; nothing site-wide, no media but the avatars a page shows.
        let shards = BuildSettings.defaultStateFolder(for: output).appendingPathComponent("shards")
        var owned: [Set<PageKey>] = []
        for index in 0..<3 {
            let state = try BuildState.decode(try Data(contentsOf: shards.appendingPathComponent("pages-\(index)-of-3.bin")))
            owned.append(Set(state.pages.keys))
            // Media only as files of a page's group: the People page's avatars.
            let grouped = Set(state.pages.values.flatMap { $0.files ?? [] })
            #expect(state.photos.isEmpty && state.files.allSatisfy { !$0.hasPrefix("media/") || grouped.contains($0) })
        }
        #expect(owned.allSatisfy { !$0.isEmpty })
        #expect(owned[0].isDisjoint(with: owned[1]) && owned[0].isDisjoint(with: owned[2]) && owned[1].isDisjoint(with: owned[2]))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("search/index.js").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path) == owned.contains { $0.contains(PageKey(path: "index.html")) })

        // The last step: the site-wide files, no page again, no rendition.
        let last = try FaultTests.runCapturing(["build", source.path, "--output", output.path])
        #expect(last.status == 0, "\(last)")
        #expect(last.standardError.contains("(0 renditions made, ") && last.standardError.contains("rendered 0 of "), "\(last.standardError)")
        let single = try Self.singleBuild(source, in: folder)
        let sharded = try FaultTests.site(output)
        #expect(Set(single.keys) == Set(sharded.keys), "extra: \(Set(sharded.keys).subtracting(single.keys)), missing: \(Set(single.keys).subtracting(sharded.keys))")
        #expect(single == sharded)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: shards.path))?
            .filter { $0.hasSuffix(".bin") || $0.hasSuffix(".journal") }.isEmpty == true, "merged parts are cleared")
        // A no-op afterwards renders nothing.
        let again = try FaultTests.runCapturing(["build", source.path, "--output", output.path])
        #expect(again.standardError.contains("rendered 0 of "), "\(again.standardError)")
    }

    @Test func pagesAndShardAreTwoPhases() throws {
        #expect(try Shard.parse("2/3", environment: [:], flag: "--pages", phase: .pages) == Shard(index: 2, count: 3, phase: .pages))
        #expect(Shard(index: 2, count: 3, phase: .pages).fileName == "pages-2-of-3")
        do {
            _ = try Shard.parse("3/3", environment: [:], flag: "--pages", phase: .pages)
            Issue.record("3/3 was taken")
        } catch {
            #expect(error.description.contains("--pages 3/3"))
        }
        let both = try FaultTests.runCapturing(["build", "/tmp", "--output", "/tmp/x", "--shard", "0/2", "--pages", "0/2"])
        #expect(both.status != 0 && both.standardError.contains("two phases"), "\(both)")
    }
}
