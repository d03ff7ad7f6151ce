# One h2load measurement of a gRPC method, shared by the service benchmarks (sourced; needs deploy/local/lib.sh).
# shellcheck shell=bash
# The caller sets BENCH_DIR, SECONDS_PER_RUN, CONNECTIONS and STREAMS (h2load -c, -m: CONNECTIONS x STREAMS
# calls in flight), and POSTMASTER (a pid) to have PostgreSQL's CPU per call reported too. KINDRED_BENCH_RPS paces
# each connection to that many calls a second (h2load --rps), so calls arrive one at a time as a product's do,
# instead of as fast as the server answers them: what a call costs when no other call shares its wake-ups.

# The CPU (user + system clock ticks) process PID has used so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# CPU ticks of the postmaster PID and its children so far, including children already gone.
backend_ticks() {
    local total=0 pid
    for pid in "$1" $(pgrep -P "$1"); do
        total=$((total + $(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

# h2load_measure RESULTS SERVER PID_FILE URL LABEL BODY_FILE [HEADER...]: one run of CONNECTIONS x STREAMS
# calls in flight for SECONDS_PER_RUN, sending BODY_FILE (a gRPC-framed request) to URL; appends a row
# (req/s, p50/p99, failures, peak RSS and CPU per call of the server in PID_FILE) to RESULTS via report.py.
h2load_measure() {
    local results="$1" server="$2" pid_file="$3" url="$4" label="$5" body="$6" pid before pg_before=0 header args=()
    shift 6
    for header in "$@"; do args+=(-H "$header"); done
    pid="$(cat "$pid_file")"
    rm -f "$BENCH_DIR/h2load.log"
    [ -z "${POSTMASTER:-}" ] || pg_before="$(backend_ticks "$POSTMASTER")"
    before="$(cpu_ticks "$pid")"
    timeout "$((SECONDS_PER_RUN + 60))" h2load -D "$SECONDS_PER_RUN" -c "$CONNECTIONS" -m "$STREAMS" -t 1 \
        ${KINDRED_BENCH_RPS:+"--rps=$KINDRED_BENCH_RPS"} \
        -H 'content-type: application/grpc' -H 'te: trailers' "${args[@]}" -d "$body" \
        --log-file="$BENCH_DIR/h2load.log" "$url" >"$BENCH_DIR/h2load.out" 2>&1 \
        || die "h2load failed: $(tail -n 3 "$BENCH_DIR/h2load.out")"
    venv_python "$KINDRED_REPO/Tests/Benchmarks/report.py" record "$results" "$server" "$label" \
        "$BENCH_DIR/h2load.out" "$BENCH_DIR/h2load.log" "$(($(cpu_ticks "$pid") - before))" \
        "$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")" \
        ${POSTMASTER:+"$(($(backend_ticks "$POSTMASTER") - pg_before))"}
}
