# Sourced by scripts/test.sh: a throwaway PostgreSQL cluster from Debian's package.
# initdb refuses to run as root, so the cluster belongs to the `postgres` OS user.
start_postgres() {
  local bindir
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    apt_install postgresql
    bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  local root port
  root=$(mktemp -d /tmp/semloop-pg.XXXXXX)
  port=${SEMLOOP_TEST_POSTGRES_PORT:-55432}
  while (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  local as=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$root"
    as=(runuser -u postgres --)
  fi
  # UTF8 whatever the caller's locale: under SQL_ASCII (an empty LANG) psycopg hands back
  # bytes, and SQLAlchemy cannot read the server's version.
  "${as[@]}" "$bindir/initdb" -D "$root/data" -A trust -U postgres -E UTF8 --no-locale >/dev/null
  "${as[@]}" "$bindir/pg_ctl" -D "$root/data" -l "$root/log" -w \
    -o "-p $port -k $root -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  trap "${as[*]} $bindir/pg_ctl -D $root/data -m fast stop >/dev/null 2>&1; rm -rf $root" EXIT
  SEMLOOP_TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}
