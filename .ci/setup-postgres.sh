#!/usr/bin/env bash
# Throwaway PostgreSQL 15 + pgvector for CI on Debian 12, run as root. Safe to re-run.
# Progress goes to stderr; stdout carries only the DATABASE_URL, so DATABASE_URL=$(.ci/setup-postgres.sh)
# works. Why pgvector comes from trixie: /work/shared/design/decisions.md section 1.
set -euo pipefail

PG_PORT="${PG_PORT:-55432}"
PG_DATA_DIR="${PG_DATA_DIR:-/tmp/ci-pg/data}"
PG_BIN=/usr/lib/postgresql/15/bin
# /usr/bin/pg_config is postgresql-common's wrapper (or libpq-dev's); pin the server's own.
PG_CONFIG="$PG_BIN/pg_config"
DB=contextstore
export DEBIAN_FRONTEND=noninteractive

exec 3>&1 1>&2
us() { echo "${EPOCHREALTIME/./}"; }   # microseconds; whole-second $SECONDS hides the fast phases
t0=$(us); phase() { local t; t=$(us); printf '[setup-postgres] %s: %d.%02ds\n' "$1" $(((t-t0)/1000000)) $(((t-t0)%1000000/10000)); t0=$t; }
[ "$(id -u)" -eq 0 ] || { echo "run as root" >&2; exit 1; }

# --- 1. packages -------------------------------------------------------------
pkgs=(postgresql-15 postgresql-server-dev-15 build-essential)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Skipping apt when nothing is missing keeps re-runs fast and offline-safe.
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -q
  apt-get install -y -q "${pkgs[@]}"
fi
# The package creates and may start Debian's 15/main on 5432; we never use it, so don't leave it running.
if pg_lsclusters -h 2>/dev/null | awk '$1==15 && $2=="main" && $4=="online"{f=1} END{exit !f}'; then
  pg_ctlcluster 15 main stop
fi
phase install

# --- 2. pgvector ---------------------------------------------------------------
# Print "URI suite" for every enabled binary source, from one-line .list and deb822 .sources files.
# Only *.list/*.sources are read: apt ignores other names (e.g. *.disabled-by-farm), so must we.
apt_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1=="deb" { i=2; if ($i ~ /^\[/) { while ($i !~ /\]$/ && i<NF) i++; i++ } print $i, $(i+1) }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN { RS=""; FS="\n" }
      { t=u=s=""; en=1
        for (j=1; j<=NF; j++) { l=$j; if (l ~ /^#/) continue
          k=tolower(l); sub(/:.*/, "", k); v=l; sub(/^[^:]*:[ \t]*/, "", v)
          if (k=="types") t=v; else if (k=="uris") u=v; else if (k=="suites") s=v
          else if (k=="enabled" && tolower(v) ~ /^(no|false|0)/) en=0 }
        if (!en || (" " t " ") !~ / deb /) next
        nu=split(u, U, /[ \t]+/); ns=split(s, S, /[ \t]+/)
        for (a=1; a<=nu; a++) for (b=1; b<=ns; b++) if (U[a] != "") print U[a], S[b] }' "$f"
  done
}

SHAREDIR="$("$PG_CONFIG" --sharedir)"
if [ -f "$SHAREDIR/extension/vector.control" ]; then
  echo "pgvector already installed: $(grep default_version "$SHAREDIR/extension/vector.control")"
else
  codename="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  # The mirror serving the release suite itself (not -security/-updates) also carries trixie.
  mirror="$(apt_sources | awk -v c="$codename" '$2==c {print $1; exit}')"
  [ -n "$mirror" ] || { echo "no apt source for suite $codename found under /etc/apt" >&2; exit 1; }
  echo "using mirror $mirror"
  work="$(mktemp -d /tmp/ci-pgvector.XXXXXX)"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial" "$work/src"
  # apt fetches as the unprivileged _apt user; give it somewhere to write (else it warns, runs as root).
  chmod 755 "$work"; chown _apt "$work/lists/partial" "$work/src" 2>/dev/null || true
  echo "deb-src $mirror trixie main" >"$work/sources.list"
  # Private list + lists dir: the system's sources and package indexes stay untouched.
  apto=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$work/lists")
  apt-get "${apto[@]}" update -q
  (cd "$work/src" && apt-get "${apto[@]}" source --download-only -q pgvector)
  phase "pgvector fetch"
  tar -xzf "$work"/src/pgvector_*.orig.tar.gz -C "$work"
  srcdir="$(find "$work" -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
  # pgvector defaults to -march=native: fine, the binary only ever runs on the machine that built it.
  make -C "$srcdir" -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG"
  make -C "$srcdir" -s install PG_CONFIG="$PG_CONFIG"
fi
phase "pgvector build/check"

# --- 3. cluster ----------------------------------------------------------------
# initdb/postgres refuse to run as root. Close inherited fds > 2 (our fd 3 = caller's stdout):
# the daemon would hold them open forever, hanging DATABASE_URL=$(...) and pipes.
as_pg() { (cd / && for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -le 2 ] || eval "exec $fd>&-"; done
           exec runuser -u postgres -- "$@"); }
# Debian's default socket dir; /run is a tmpfs, so it can vanish on reboot without systemd-tmpfiles.
install -d -o postgres -g postgres -m 2775 /var/run/postgresql
if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
  echo "a server is already accepting connections on 127.0.0.1:$PG_PORT, reusing it"
else
  if [ ! -f "$PG_DATA_DIR/PG_VERSION" ]; then
    install -d -o postgres -g postgres -m 700 "$PG_DATA_DIR"
    as_pg "$PG_BIN/initdb" -D "$PG_DATA_DIR" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
    # Durability is worthless for a throwaway CI database; speed is not.
    cat >>"$PG_DATA_DIR/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $PG_PORT
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  fi
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA_DIR" -l "$PG_DATA_DIR/server.log" -w -t 60 start
fi
# A reused server may still be starting up; give it the same grace pg_ctl -w would.
for _ in $(seq 60); do "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 1; done
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres)
if [ -z "$("${psql[@]}" -d postgres -tAc "select 1 from pg_database where datname='$DB'")" ]; then
  "${psql[@]}" -d postgres -c "CREATE DATABASE $DB"
fi
"${psql[@]}" -d "$DB" -c "CREATE EXTENSION IF NOT EXISTS vector"
echo "vector extension: $("${psql[@]}" -d "$DB" -tAc "select extversion from pg_extension where extname='vector'")"
phase "cluster start"

echo "postgres://postgres@127.0.0.1:$PG_PORT/$DB" >&3
