# shellcheck shell=bash
# A PostgreSQL cluster in a directory of the repository, run as the unprivileged run user (sourced after lib.sh).
# Configure with pg_use DIR PORT; the cluster listens on 127.0.0.1:PORT (password auth) and on a unix socket
# in a 0700 directory that only the run user (and root) can reach, where the superuser `postgres` needs none.

pg_bindir() {
    local dir
    dir="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)"
    [ -x "$dir/initdb" ] || die "PostgreSQL server binaries not found under /usr/lib/postgresql"
    echo "$dir"
}

# Selects the cluster: data in DIR/data, socket, log and the passfile beside it.
pg_use() {
    PG_DIR="$1"
    PG_PORT="$2"
    PG_DATA="$PG_DIR/data"
    PG_LOG="$PG_DIR/postgres.log"
    PG_PASSFILE="$PG_DIR/pgpass"
    PG_SOCKET="$PG_DIR/socket"
    # A unix socket path must fit in 107 bytes; a deep checkout gets a socket directory under /tmp instead.
    if [ $((${#PG_SOCKET} + 20)) -gt 107 ]; then
        PG_SOCKET="/tmp/kindred-pg-$(printf '%s' "$PG_DIR" | cksum | cut -d' ' -f1)"
    fi
    PG_BIN="$(pg_bindir)"
}

pg_ctl_cmd() { as_run_user "$PG_BIN/pg_ctl" -D "$PG_DATA" "$@"; }

pg_is_running() { pg_ctl_cmd status >/dev/null 2>&1; }

# Superuser psql over the unix socket; extra arguments go to psql (e.g. -d DB, -c SQL, or SQL on stdin).
pg_psql() {
    PGOPTIONS="-c client_min_messages=warning" \
        as_run_user "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKET" -p "$PG_PORT" -U postgres "$@"
}

pg_init() {
    ensure_run_dir "$PG_DIR"
    chmod 700 "$PG_DIR"
    [ -f "$PG_DATA/PG_VERSION" ] && return 0
    say "initializing a PostgreSQL cluster in $PG_DATA"
    as_run_user "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 >"$PG_DIR/initdb.log" 2>&1 \
        || die "initdb failed, see $PG_DIR/initdb.log"
    # Four services' pools, the test suites and pgbench -c 64 fit under 300 connections.
    as_run_user tee -a "$PG_DATA/postgresql.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
unix_socket_permissions = 0700
max_connections = 300
shared_buffers = 256MB
log_min_duration_statement = 1000
# After a checkpoint a page's first change logs the whole page; compressed, the mix writes a third less WAL (the
# standard mix at 600 calls/s, right after a CHECKPOINT: 2.4 KB a call against 3.5-3.8 KB, pg_stat_wal).
wal_compression = lz4
log_line_prefix = '%m [%p] %u@%d '
# What each statement costs, for the product-path measurements (Tests/LoadTest/README.md): CREATE EXTENSION
# pg_stat_statements in the database to read it. Its bookkeeping is a few microseconds a statement.
shared_preload_libraries = 'pg_stat_statements'
EOF
}

# Port and socket directory are given at each start (not written into the cluster) so a throwaway cluster
# can take whatever port is free; a cluster already running elsewhere is reported, not restarted.
pg_start() {
    local running_port
    if pg_is_running; then
        running_port="$(sed -n 4p "$PG_DATA/postmaster.pid")"
        [ "$running_port" = "$PG_PORT" ] || die "$PG_DATA is already running on port $running_port, not $PG_PORT"
        say "PostgreSQL already running on 127.0.0.1:$PG_PORT ($PG_DATA)"
        return 0
    fi
    ensure_run_dir "$PG_SOCKET"
    chmod 700 "$PG_SOCKET"
    as_run_user "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 60 -o "-p $PG_PORT -k '$PG_SOCKET'" start \
        >/dev/null || die "PostgreSQL did not start, see $PG_LOG"
    say "PostgreSQL running on 127.0.0.1:$PG_PORT ($PG_DATA)"
}

pg_stop() {
    pg_is_running || return 0
    pg_ctl_cmd -m fast -w -t 60 stop >/dev/null || die "PostgreSQL did not stop"
}

pg_destroy() {
    pg_stop
    rm -rf "$PG_DIR"
    case "$PG_SOCKET" in /tmp/kindred-pg-*) rm -rf "$PG_SOCKET" ;; esac
}

# URL of the superuser, over the unix socket (no password needed there).
pg_admin_url() { echo "postgresql://postgres@/${1:-postgres}?host=$PG_SOCKET&port=$PG_PORT"; }

# URL of a service's role over TCP; its password comes from the passfile ($PG_PASSFILE, via PGPASSFILE).
pg_role_url() { echo "postgresql://kindred_$1@127.0.0.1:$PG_PORT/${2:-kindred}"; }

# URL of a service's role over the unix socket, for a service on the cluster's machine running as the run user:
# a round trip there costs less than over TCP loopback (pgbench -S, 8 clients, this 2-core VM: 22,800-25,800
# against 15,500-17,800 queries a second), and a product call makes one to three. Only the run user (and root)
# can reach the socket's directory, and that user is already the superuser there.
pg_role_socket_url() { echo "postgresql://kindred_$1@/${2:-kindred}?host=$PG_SOCKET&port=$PG_PORT"; }

# Password of ROLE (roles are cluster-wide, so one per role whatever the database) from the passfile,
# generated and recorded (mode 600) the first time.
pg_role_password() {
    local role="$1" password
    password="$(awk -F: -v r="$role" '$4 == r { print $5 }' "$PG_PASSFILE" 2>/dev/null)"
    if [ -z "$password" ]; then
        password="$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32)"
        # shellcheck disable=SC2016 # $1 is expanded by that sh
        as_run_user sh -c 'umask 077 && cat >>"$1"' sh "$PG_PASSFILE" <<<"127.0.0.1:*:*:$role:$password"
    fi
    echo "$password"
}

# Database DB with one login role kindred_<name> per service owning schema <name>, and nothing else:
# PUBLIC loses CONNECT on the database and every right on schema public. Safe to run again.
pg_provision() {
    local db="${1:-kindred}" name role password
    pg_psql -d postgres -tA -c "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 \
        || pg_psql -d postgres -c "CREATE DATABASE $db"
    pg_psql -d "$db" -c "REVOKE ALL ON DATABASE $db FROM PUBLIC; REVOKE ALL ON SCHEMA public FROM PUBLIC;"
    for name in "${KINDRED_SERVICES[@]}"; do
        role="kindred_$name"
        password="$(pg_role_password "$role")"
        # Passwords travel on psql's stdin, never on a command line.
        pg_psql -d "$db" <<SQL
SELECT format('CREATE ROLE %I', '$role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$role')
\\gexec
ALTER ROLE $role LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$password';
ALTER ROLE $role SET search_path = $name;
CREATE SCHEMA IF NOT EXISTS $name AUTHORIZATION $role;
ALTER SCHEMA $name OWNER TO $role;
REVOKE ALL ON SCHEMA $name FROM PUBLIC;
GRANT CONNECT ON DATABASE $db TO $role;
SQL
    done
}
