# Shared by Tests/Fuzz/run and Tests/Fuzz/run-long (sourced): the targets, where runs work, and one run of
# one target with its summary line.

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FUZZ_BIN="$FUZZ_DIR/.build/release"
# Scratch corpora, findings and logs; the committed seeds under corpus/ are only read.
FUZZ_WORK="${KINDRED_FUZZ_WORK:-$FUZZ_DIR/../../var/fuzz}"
# Swift's own crash backtracer would stand in the way of libFuzzer's report (and its crash-* file).
export SWIFT_BACKTRACE=enable=no
# Swift's weak-reference side tables look leaked to LeakSanitizer: see lsan.supp.
export LSAN_OPTIONS="suppressions=$FUZZ_DIR/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# corpus folder:executable, in the order they run.
FUZZ_TARGETS=(deframer:FuzzDeframer connection:FuzzConnection messages:FuzzMessages token:FuzzToken
    page-token:FuzzPageToken)

# The targets named on the command line (corpus names), or all of them.
fuzz_selected_targets() {
    local entry wanted
    for entry in "${FUZZ_TARGETS[@]}"; do
        if [ $# -eq 0 ]; then echo "$entry"; continue; fi
        for wanted in "$@"; do [ "$wanted" != "${entry%%:*}" ] || echo "$entry"; done
    done
}

# fuzz_one NAME EXECUTABLE LIBFUZZER-OPTIONS...: runs one target over a scratch corpus seeded from
# corpus/NAME, prints `NAME executions cov ft seconds exec/s crashes leaks`, and fails on any finding (a
# crash, a sanitizer report, a leak, a timeout, running out of memory). Findings go to $FUZZ_WORK/findings.
fuzz_one() {
    local name="$1" executable="$2"
    shift 2
    local scratch="$FUZZ_WORK/corpus/$name" findings="$FUZZ_WORK/findings/$name" log="$FUZZ_WORK/$name.log"
    local status=0 started ended
    mkdir -p "$scratch" "$findings"
    started=$(date +%s)
    "$FUZZ_BIN/$executable" -artifact_prefix="$findings/" -timeout=30 -rss_limit_mb=4096 \
        -print_final_stats=1 "$@" "$scratch" "$FUZZ_DIR/corpus/$name" >"$log" 2>&1 || status=$?
    ended=$(date +%s)
    awk -v name="$name" -v seconds="$((ended - started))" -v status="$status" \
        -v crashes="$(find "$findings" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)" \
        -v leaks="$(find "$findings" -name 'leak-*' | wc -l)" '
        /^#[0-9]+/ && / cov: / { executions = substr($1, 2); for (i = 2; i < NF; i++) {
            if ($i == "cov:") cov = $(i + 1); if ($i == "ft:") ft = $(i + 1) } }
        /^stat::number_of_executed_units:/ { executions = $2 }
        END { rate = seconds > 0 ? int(executions / seconds) : executions
            printf "%-11s executions %10s  cov %5s  ft %6s  %6ss  %7s exec/s  crashes %s  leaks %s  exit %s\n",
                name, executions, cov, ft, seconds, rate, crashes, leaks, status }' "$log"
    if [ "$status" != 0 ]; then
        echo "fuzz $name: exit $status; the log is $log, findings under $findings:" >&2
        grep -m 5 -E 'ERROR: |SUMMARY: |Fatal error|precondition|Test unit written' "$log" >&2 || tail -20 "$log" >&2
        return 1
    fi
}
