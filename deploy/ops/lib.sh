# shellcheck shell=bash
# Shared by the operator scripts in deploy/ops (sourced after deploy/local/lib.sh): which stack a script acts
# on, and how it refuses. A stack is the local one (deploy/local/up, default ports, var/) unless flags or the
# environment point elsewhere:
#   KINDRED_OPS_TARGETS          identity=HOST:PORT,family=…  (default: 127.0.0.1:50051-50054)
#   KINDRED_<NAME>_DATABASE_URL  a service's database URL, as the services read it (default: the local
#                                cluster's role URL; its password from var/postgres/pgpass, or PGPASSFILE)
#   KINDRED_PG_DIR, KINDRED_PG_PORT  the local cluster (var/postgres, 55400)

# Stops the script with one line saying why, and a non-zero exit (2: refused before doing anything).
refuse() {
    say "${OPS_NAME:-ops}: $*"
    exit 2
}

# Refuses unless COMMAND is on PATH.
require_command() {
    command -v "$1" >/dev/null || refuse "$1 is not installed (${2:-install it first})"
}

# Refuses unless the venv with grpcio is there (deploy/local/up makes it).
require_venv() {
    [ -x "$KINDRED_VENV/bin/python" ] || refuse "no Python venv in $KINDRED_VENV: run deploy/local/up once"
}

# Sets OPS_TARGETS to every service's address, `identity=HOST:PORT,…`: from KINDRED_OPS_TARGETS, which must
# name all four, else the local stack's default ports. Not in a subshell: a refusal must end the script.
ops_targets() {
    local name item address
    OPS_TARGETS=""
    for name in "${KINDRED_SERVICES[@]}"; do
        address="127.0.0.1:$(service_port "$name")"
        if [ -n "${KINDRED_OPS_TARGETS:-}" ]; then
            address=""
            for item in ${KINDRED_OPS_TARGETS//,/ }; do
                [ "${item%%=*}" != "$name" ] || address="${item#*=}"
            done
            [ -n "$address" ] || refuse "KINDRED_OPS_TARGETS has no $name=HOST:PORT"
        fi
        OPS_TARGETS="${OPS_TARGETS:+$OPS_TARGETS,}$name=$address"
    done
}

# Address of service NAME in OPS_TARGETS (call ops_targets first).
ops_target() {
    local item
    for item in ${OPS_TARGETS//,/ }; do
        [ "${item%%=*}" != "$1" ] || echo "${item#*=}"
    done
}

# Sets OPS_URL to the database URL of service NAME: KINDRED_<NAME>_DATABASE_URL, else the local cluster's role
# URL (database DB, default kindred), whose password comes from the cluster's passfile, exported as PGPASSFILE.
# Not in a subshell: a refusal must end the script.
ops_database_url() {
    local name="$1" db="${2:-kindred}" variable
    variable="KINDRED_${name^^}_DATABASE_URL"
    if [ -n "${!variable:-}" ]; then OPS_URL="${!variable}"; return 0; fi
    ops_use_local_cluster
    OPS_URL="$(pg_role_url "$name" "$db")"
}

# The local cluster (KINDRED_PG_DIR, KINDRED_PG_PORT), refused when it was never made.
ops_use_local_cluster() {
    local dir="${KINDRED_PG_DIR:-$KINDRED_VAR/postgres}"
    [ -f "$dir/pgpass" ] || refuse "no database URL: set KINDRED_<NAME>_DATABASE_URL, or start the local stack (no $dir/pgpass)"
    pg_use "$dir" "${KINDRED_PG_PORT:-55400}"
    export PGPASSFILE="${PGPASSFILE:-$PG_PASSFILE}"
}

# A PostgreSQL client program (pg_dump, pg_restore, psql): on PATH, else the server's own.
pg_client() {
    if command -v "$1" >/dev/null; then command -v "$1"; return 0; fi
    local dir
    dir="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)"
    [ -x "$dir/$1" ] || refuse "$1 is not installed (apt-get install postgresql-client-15)"
    echo "$dir/$1"
}

# Refuses unless SERVICE is one of the four.
require_service_name() {
    [[ " ${KINDRED_SERVICES[*]} " == *" $1 "* ]] || refuse "unknown service '$1' (one of: ${KINDRED_SERVICES[*]})"
}
