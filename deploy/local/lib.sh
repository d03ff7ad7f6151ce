# shellcheck shell=bash
# Shared by deploy/local/{up,down,status,postgres}, Tests/run and Tests/Benchmarks/run: installing what is
# missing, the Python venv, the services' names and ports, and starting/stopping processes by recorded pid.

KINDRED_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KINDRED_VAR="${KINDRED_VAR:-$KINDRED_REPO/var}"
KINDRED_VENV="${KINDRED_VENV:-$KINDRED_REPO/.build-venv}"
KINDRED_SERVICES=(identity family social gamification)
# shellcheck disable=SC2034 # used by the scripts that source this file
KINDRED_APT_PACKAGES=(
    build-essential pkg-config libnghttp2-dev libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
    python3-protobuf libpq-dev libsodium-dev zlib1g-dev nghttp2-client postgresql-15 postgresql-client-15
    python3-venv acl procps libssl-dev openssl libcurl4-openssl-dev
)

say() { printf '%s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Port of a service: identity KINDRED_PORT_BASE (50051), family, social, gamification the next three. A second
# stack runs beside the first with its own KINDRED_VAR, KINDRED_PG_PORT and KINDRED_PORT_BASE.
service_port() {
    local base="${KINDRED_PORT_BASE:-50051}"
    case "$1" in
        identity) echo "$base" ;; family) echo $((base + 1)) ;; social) echo $((base + 2)) ;;
        gamification) echo $((base + 3)) ;;
        *) die "unknown service '$1'" ;;
    esac
}

# Replicas of each service the stack starts: KINDRED_REPLICAS (1), at most 50.
replica_count() {
    local count="${KINDRED_REPLICAS:-1}"
    [[ "$count" =~ ^[1-9][0-9]*$ ]] && [ "$count" -le 50 ] || die "KINDRED_REPLICAS must be 1 to 50, not '$count'"
    echo "$count"
}

# Replica I (1-based) of every service listens on 127.0.0.I, each service on its own port: the same port on
# every replica, as the pods behind a Kubernetes Service.
replica_address() { echo "127.0.0.$1"; }

# Replica I's file in DIR for service NAME with SUFFIX: NAME.SUFFIX for the first (the stack of one replica
# keeps its names), NAME-I.SUFFIX for the others.
replica_file() {
    local dir="$1" name="$2" replica="$3" suffix="$4"
    if [ "$replica" -eq 1 ]; then echo "$dir/$name.$suffix"; else echo "$dir/$name-$replica.$suffix"; fi
}

# The replicas of NAME that have a pidfile in the run directory, one number a line, in order.
recorded_replicas() {
    local file replica
    for file in "$KINDRED_VAR/run/$1.pid" "$KINDRED_VAR/run/$1"-*.pid; do
        [ -f "$file" ] || continue
        replica="${file##*/$1}"
        replica="${replica%.pid}"
        replica="${replica#-}"
        echo "${replica:-1}"
    done | sort -n
}

# The name every replica of service NAME answers to, as a headless Service's name does in Kubernetes
# (kindred-NAME, which the TLS certificates also name).
service_host() { echo "kindred-$1"; }

# The stack's hosts file (hosts(5)): each service's name on every replica's address. The services and the load
# tester resolve their peers through it (KINDRED_HOSTS_FILE), following it at every re-resolution.
KINDRED_HOSTS_FILE_PATH="$KINDRED_VAR/run/hosts"

# Writes the hosts file for COUNT replicas, and var/run/targets, the four targets for the load tester.
write_replica_names() {
    local count="$1" name replica targets=()
    {
        echo "# made by deploy/local/up: every replica of each service (KINDRED_REPLICAS=$count)"
        for name in "${KINDRED_SERVICES[@]}"; do
            for ((replica = 1; replica <= count; replica++)); do
                echo "$(replica_address "$replica") $(service_host "$name")"
            done
        done
    } >"$KINDRED_HOSTS_FILE_PATH.new"
    chmod 644 "$KINDRED_HOSTS_FILE_PATH.new"
    mv "$KINDRED_HOSTS_FILE_PATH.new" "$KINDRED_HOSTS_FILE_PATH"
    for name in "${KINDRED_SERVICES[@]}"; do targets+=("$name=$(service_host "$name"):$(service_port "$name")"); done
    (IFS=,; echo "${targets[*]}") >"$KINDRED_VAR/run/targets"
}

# Every service's --NAME-target flag, so each one calls every replica of the peers of its own stack
# (KINDRED_PORT_BASE) through their names in the hosts file.
peer_target_flags() {
    local name
    for name in "${KINDRED_SERVICES[@]}"; do echo "--$name-target=$(service_host "$name"):$(service_port "$name")"; done
}

# Installs the Debian packages that are not installed yet (root only; otherwise names them and fails).
ensure_apt_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" -eq 0 ] || die "missing Debian packages (install them as root): ${missing[*]}"
    say "installing Debian packages: ${missing[*]}"
    apt-get update -q >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install failed: ${missing[*]}"
}

require_swift() {
    command -v swift >/dev/null || die "swift is not on PATH (Swift 6 toolchain required)"
}

# Where the release executables are: KINDRED_BIN_DIR (prebuilt ones) or swift's release folder.
release_bin_dir() {
    if [ -n "${KINDRED_BIN_DIR:-}" ]; then echo "$KINDRED_BIN_DIR"; return; fi
    (cd "$KINDRED_REPO" && swift build -c release --show-bin-path)
}

# The Python venv with grpcio & co, rebuilt when Tests/Interop/requirements.txt changes.
ensure_venv() {
    local requirements="$KINDRED_REPO/Tests/Interop/requirements.txt" stamp="$KINDRED_VENV/.requirements"
    if [ -x "$KINDRED_VENV/bin/python" ] && cmp -s "$requirements" "$stamp"; then return 0; fi
    say "preparing the Python venv in $KINDRED_VENV"
    # Debian's interpreter, not whatever python3 is first on PATH: its venv module is known to be there.
    /usr/bin/python3 -m venv --clear "$KINDRED_VENV" || die "python3 -m venv failed"
    "$KINDRED_VENV/bin/pip" install -q --disable-pip-version-check -r "$requirements" \
        || die "pip install -r $requirements failed"
    cp "$requirements" "$stamp"
}

venv_python() { "$KINDRED_VENV/bin/python" "$@"; }

# The grpcio command-line helper (health, list, call) from the venv.
grpcli() { venv_python "$KINDRED_REPO/deploy/local/grpcli.py" "$@"; }

# The unprivileged account PostgreSQL (which refuses root) and the services run as.
KINDRED_RUN_USER="$(if [ "$(id -u)" -eq 0 ]; then echo kindred; else id -un; fi)"

ensure_run_user() {
    [ "$(id -u)" -eq 0 ] || return 0
    id kindred >/dev/null 2>&1 && return 0
    say "creating system user kindred"
    useradd --system --user-group --home-dir /nonexistent --shell /usr/sbin/nologin kindred \
        || die "useradd kindred failed"
}

# Replaces the current (sub)shell with the command run as the run user. setpriv execs in place (runuser
# would stay behind as a parent), so a pid recorded for a background command is the program's own.
exec_as_run_user() {
    if [ "$(id -u)" -eq 0 ]; then
        exec setpriv --reuid="$KINDRED_RUN_USER" --regid="$KINDRED_RUN_USER" --init-groups -- "$@"
    fi
    exec "$@"
}

# Runs a command as the run user, from / (root's working directory may be unreadable to it).
as_run_user() { (cd / && exec_as_run_user "$@"); }

# Starts a command in the background as the run user in its own session, output appended to LOG,
# and records its pid in PIDFILE (one background subshell that execs, so $! is the program's pid).
start_background() {
    local pidfile="$1" log="$2"
    shift 2
    (cd / && exec_as_run_user setsid "$@") </dev/null >>"$log" 2>&1 &
    echo $! >"$pidfile"
}

# A directory owned by the run user; when root, also lets that user traverse the directories above it
# (a clone under /root would otherwise be unreachable) with a traverse-only ACL entry for that user alone.
ensure_run_dir() {
    local dir="$1" parent
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] || return 0
    chown "$KINDRED_RUN_USER:" "$dir"
    parent="$(dirname "$dir")"
    while [ "$parent" != / ]; do
        as_run_user test -x "$parent" || setfacl -m "u:$KINDRED_RUN_USER:x" "$parent" \
            || die "cannot let $KINDRED_RUN_USER traverse $parent"
        parent="$(dirname "$parent")"
    done
}

# Waits until ADDRESS answers Health/Check SERVING for SERVICE ("" = the whole server); gives up after SECONDS
# or as soon as the process recorded in PIDFILE is gone. Prints the last status seen.
wait_serving() {
    local address="$1" service="$2" pidfile="$3" program="$4" seconds="$5" status deadline
    deadline=$((SECONDS + seconds))
    while :; do
        status="$(grpcli health "$address" "$service" --wait 1)" && { echo "$status"; return 0; }
        if ! live_pid "$pidfile" "$program" >/dev/null; then echo "$program exited ($status)"; return 1; fi
        if [ "$SECONDS" -ge "$deadline" ]; then echo "$status"; return 1; fi
    done
}

# Pid recorded in FILE if that process is still alive and is the program named (guards against reuse).
live_pid() {
    local file="$1" program="$2" pid
    [ -f "$file" ] || return 1
    pid="$(cat "$file")"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$program" || return 1
    echo "$pid"
}

# Sends SIGTERM to a recorded pid, waits up to SECONDS (default 20) for it to exit, then SIGKILLs it.
stop_pid_file() {
    local file="$1" program="$2" seconds="${3:-20}" pid i
    if pid="$(live_pid "$file" "$program")"; then
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < seconds * 10; i++)); do
            [ -d "/proc/$pid" ] || break
            sleep 0.1
        done
        if [ -d "/proc/$pid" ]; then
            say "$program (pid $pid) ignored SIGTERM for ${seconds}s: killing it"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$file"
}

# The services that take a client_credentials identity from kindred-identity.
KINDRED_CLIENT_SERVICES=(family social gamification)

# What service NAME may do beyond its role, the clients file's fourth column: family switches family devices
# between parent and child mode (IssueDeviceModeTokens).
client_permissions() {
    case "$1" in
        family) echo device_modes ;;
    esac
}

# The first line of the clients file: a file made under another format is remade.
KINDRED_CLIENTS_HEADER="# made by deploy/local from the client secrets beside it: client id, role, Argon2id hash, permissions"

# The stack's secrets in DIR (under var/, never committed), each made once and readable by the run user only:
# identity's secret key (it seals the signing keys), a client secret per other service, and identity's clients
# file with those secrets' Argon2id hashes, remade by BIN/kindred-identity when a secret is newer than it or
# the file was made under another format.
ensure_secrets() {
    local dir="$1" bin="$2" clients="$1/identity-clients" name hash permissions stale=0
    ensure_run_dir "$dir"
    chmod 700 "$dir"
    new_secret "$dir/identity-secret-key"
    for name in "${KINDRED_SERVICES[@]}"; do new_data_keys "$dir/$name-data-keys" local-1; done
    for name in "${KINDRED_CLIENT_SERVICES[@]}"; do
        new_secret "$dir/$name-client-secret"
        if [ ! -s "$clients" ] || [ "$dir/$name-client-secret" -nt "$clients" ]; then stale=1; fi
    done
    [ -s "$clients" ] && [ "$(head -n 1 "$clients")" = "$KINDRED_CLIENTS_HEADER" ] || stale=1
    [ "$stale" -eq 1 ] || return 0
    echo "$KINDRED_CLIENTS_HEADER" >"$clients.new"
    for name in "${KINDRED_CLIENT_SERVICES[@]}"; do
        hash="$("$bin/kindred-identity" clients hash-secret <"$dir/$name-client-secret")" \
            || die "kindred-identity clients hash-secret failed"
        permissions="$(client_permissions "$name")"
        echo "$name service $hash${permissions:+ $permissions}" >>"$clients.new"
    done
    chmod 600 "$clients.new"
    [ "$(id -u)" -ne 0 ] || chown "$KINDRED_RUN_USER:" "$clients.new"
    mv "$clients.new" "$clients"
}

# FILE holding base64 of 32 random bytes, made if missing.
new_secret() {
    [ -s "$1" ] && return 0
    (umask 077 && head -c 32 /dev/urandom | base64 >"$1")
    [ "$(id -u)" -ne 0 ] || chown "$KINDRED_RUN_USER:" "$1"
}

# FILE holding a keyring of one data key, ID:base64 of 32 random bytes (KINDRED_DATA_KEYS_FILE), made if
# missing. To rotate, put a new ID:key first in the file, restart, then run `kindred-<name> keys rotate-data`.
new_data_keys() {
    [ -s "$1" ] && return 0
    (umask 077 && echo "$2:$(head -c 32 /dev/urandom | base64)" >"$1")
    [ "$(id -u)" -ne 0 ] || chown "$KINDRED_RUN_USER:" "$1"
}

# glibc's allocator setting for the services (GLIBC_TUNABLES; also in deploy/image/Dockerfile and
# deploy/systemd/kindred@.service): each freed size keeps 256 chunks in its thread's cache instead of 7. A loop
# that reads a burst of calls starts a task for each, and each task takes a 1 KiB slab for its allocator; past 7,
# every slab went through the arena, which first consolidated its fast bins. Health/Check with 512 calls in flight
# costs 8% less CPU with it (Shared/KindredRuntime/README.md, "Memory allocator").
KINDRED_MALLOC_TUNABLES="glibc.malloc.tcache_count=256"

# The environment service NAME starts with beyond its flags, one VAR=value a line, from the secrets in DIR (and
# the allocator's setting above):
# identity its secret key and clients file; the others their client id and secret (client_credentials); each
# its data keys (its sensitive columns sealed at rest); family also where its gallery photos go (photos/ beside
# DIR).
service_environment() {
    local name="$1" dir="$2"
    case "$name" in
        identity)
            echo "KINDRED_IDENTITY_SECRET_KEY=$(cat "$dir/identity-secret-key")"
            echo "KINDRED_IDENTITY_CLIENTS_FILE=$dir/identity-clients" ;;
        *)
            echo "KINDRED_CLIENT_ID=$name"
            echo "KINDRED_CLIENT_SECRET=$(cat "$dir/$name-client-secret")" ;;
    esac
    # Services run from /, so the gallery's default (var/photos, relative) would not be this checkout's var/.
    [ "$name" != family ] || echo "KINDRED_FAMILY_PHOTO_ROOT=$(dirname "$dir")/photos"
    echo "KINDRED_DATA_KEYS_FILE=$dir/$name-data-keys"
    echo "GLIBC_TUNABLES=$KINDRED_MALLOC_TUNABLES"
}

# A TCP port for a throwaway server: free now, outside the range outgoing connections take their ports from, and
# not handed out before by this checkout (deploy/local/free_port.py says why). The record is exported so that the
# test suites' own servers (free_port() in Python) draw from it too.
export KINDRED_PORT_RECORD="${KINDRED_PORT_RECORD:-$KINDRED_VAR/ports-handed-out}"
free_port() {
    mkdir -p "$(dirname "$KINDRED_PORT_RECORD")" \
        && venv_python "$KINDRED_REPO/deploy/local/free_port.py" "$KINDRED_PORT_RECORD"
}

# shellcheck source=deploy/local/postgres.sh
source "$KINDRED_REPO/deploy/local/postgres.sh"

# KINDRED_TLS=1: the private CA and certificates in DIR (deploy/local/tls-certificates; kept across runs): one per
# service, named kindred-<name> (its identity under mutual TLS), kindred-cli for grpcli, the interop suite and the
# load tester, kindred-interop for kindred-interop-server. Exports KINDRED_TLS_DIR, which grpcli.py and the interop
# suite read.
ensure_tls_certificates() {
    local dir="$1"
    ensure_run_dir "$dir"
    "$KINDRED_REPO/deploy/local/tls-certificates" "$dir" "${KINDRED_SERVICES[@]/#/kindred-}" kindred-cli \
        kindred-interop || return 1
    # The services run as the run user and read their keys (the files are private: umask 077).
    [ "$(id -u)" -ne 0 ] || chown -R "$KINDRED_RUN_USER:" "$dir"
    export KINDRED_TLS_DIR="$dir"
}

# A service's TLS settings (KEY=VALUE lines) when KINDRED_TLS=1, none otherwise: its certificate on the listener
# and towards its peers, clients must present one of the CA's certificates (mutual TLS), peers are verified
# against the CA. Identity's service-only methods take only the services that use them (KINDRED_TLS_ALLOW_PEERS).
tls_environment() {
    local name="$1" dir="$2"
    [ "${KINDRED_TLS:-0}" = 1 ] || return 0
    echo "KINDRED_TLS_CERT=$dir/kindred-$name.pem"
    echo "KINDRED_TLS_KEY=$dir/kindred-$name.key"
    echo "KINDRED_TLS_CLIENT_CA=$dir/ca.pem"
    echo "KINDRED_TLS_CA=$dir/ca.pem"
    [ "$name" != identity ] || [ -n "${KINDRED_TLS_NO_PEER_RULES:-}" ] \
        || echo "KINDRED_TLS_ALLOW_PEERS=$(identity_peer_rules)"
}

identity_peer_rules() {
    local service=/kindred.identity.v1.IdentityService
    echo "$service/IssueDeviceModeTokens=kindred-family;$service/WatchEvents=kindred-family,kindred-social,kindred-gamification"
}
