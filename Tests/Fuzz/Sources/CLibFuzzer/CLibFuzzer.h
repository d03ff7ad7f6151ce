// libFuzzer's driver, for a target whose `main` is its own (SwiftPM gives every executable one, so
// libFuzzer's `main` never runs): `main` calls this with the callback to fuzz. Defined by the libFuzzer
// runtime that `-sanitize=fuzzer` links (compiler-rt's FuzzerInterface.h declares it the same way).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
