#!/usr/bin/env bash
# Stop the throwaway cluster started by setup-postgres.sh. Addressed by data dir, never by
# process name or port, so Debian's own cluster or anything else on the machine is left alone.
set -euo pipefail
PG_DATA_DIR="${PG_DATA_DIR:-/tmp/ci-pg/data}"
PG_BIN=/usr/lib/postgresql/15/bin
if [ -f "$PG_DATA_DIR/postmaster.pid" ]; then
  (cd / && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DATA_DIR" -m fast -w stop)
else
  echo "no cluster running in $PG_DATA_DIR" >&2
fi
