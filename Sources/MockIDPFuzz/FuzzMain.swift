import Foundation

// Two builds of one target:
// - with libFuzzer (scripts/fuzz: -sanitize=fuzzer,address and -D FUZZING): libFuzzer's own main calls
//   LLVMFuzzerTestOneInput; the harness is named by MOCKIDP_FUZZ_HARNESS;
// - without (every normal build): `mockidp-fuzz HARNESS FILE|DIR...` runs the given inputs once through the harness,
//   which replays a corpus or a crash file with no fuzzer, and `mockidp-fuzz --list` names the harnesses.
#if FUZZING
nonisolated(unsafe) private var selected: Harness?

/// libFuzzer's driver, called from this target's entry point: SwiftPM links an executable target with
/// `--defsym main=MockIDPFuzz_main` (in release builds too), so libFuzzer's own `main` is not the one that runs.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("MockIDPFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if selected == nil {
        let name = ProcessInfo.processInfo.environment["MOCKIDP_FUZZ_HARNESS"] ?? ""
        guard let harness = Harness.named(name) else {
            fatalError("MOCKIDP_FUZZ_HARNESS must name a harness: \(Harness.all.map(\.name).joined(separator: ", "))")
        }
        selected = harness
    }
    selected?.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
#else
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" || arguments.isEmpty {
            for harness in Harness.all { print("\(harness.name)\t\(harness.summary)") }
            return
        }
        guard let harness = Harness.named(arguments[0]) else {
            FileHandle.standardError.write(Data("mockidp-fuzz: no harness named '\(arguments[0])'\n".utf8))
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                data.withUnsafeBytes { harness.run($0) }
                count += 1
            }
        }
        print("\(harness.name): \(count) input(s) replayed")
    }

    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
#endif
