#if canImport(Glibc)
import Glibc
#endif
import CLibFuzzer

/// Hands the process to libFuzzer, which parses the command line (flags, corpus folders) and calls
/// `target` with each input; a target returns 0. A crash or a sanitizer report ends the process.
public func runLibFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
