import Foundation
import FuzzSupport
import Metadata

/// The metadata reader (container walkers, libexif, location stripping) on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? MetadataReader.read(bytes, modificationDate: Date(timeIntervalSince1970: 0))
    _ = try? LocationStripper.strip(Array(bytes))
    return 0
}


/// The entry point SwiftPM expects (`FuzzMetadata_main`): hands control to libFuzzer.
@_cdecl("FuzzMetadata_main")
public func fuzzMetadataMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzMetadata)
}
