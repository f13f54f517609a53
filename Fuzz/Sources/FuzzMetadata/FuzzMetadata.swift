import Foundation
import Metadata

/// The metadata reader (container walkers, libexif, location stripping) on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? MetadataReader.read(bytes, modificationDate: Date(timeIntervalSince1970: 0))
    _ = try? LocationStripper.strip(Array(bytes))
    return 0
}

/// SwiftPM renames an executable's entry point to `FuzzMetadata_main`; it hands
/// control to libFuzzer's driver with the function above.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzMetadata_main")
public func fuzzMetadataMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzMetadata)
}
