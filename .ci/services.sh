# Sourced by .ci/run: makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer, starting
# or installing them from Debian's packages when they do not, and exports the URLs the tests read.

apt_install() {
  if [[ -z "${APT_UPDATED:-}" ]]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_postgres() {
  export ICCID_TEST_POSTGRES_URL="${ICCID_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
  if psql "$ICCID_TEST_POSTGRES_URL" -qtAc "SELECT 1" >/dev/null 2>&1; then return; fi
  command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql postgresql-client
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  if ! psql "$ICCID_TEST_POSTGRES_URL" -qtAc "SELECT 1" >/dev/null 2>&1; then
    # A fresh cluster asks for passwords over TCP: trust loopback (a throwaway CI database) and add `test`.
    local hba="/etc/postgresql/$version/main/pg_hba.conf"
    sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload
    su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = 'test'\"" | grep -q 1 \
      || su postgres -c "createdb test"
  fi
  psql "$ICCID_TEST_POSTGRES_URL" -qtAc "SELECT 1" >/dev/null
}

ensure_redis() {
  export ICCID_TEST_REDIS_URL="${ICCID_TEST_REDIS_URL:-redis://127.0.0.1:6379}"
  if redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then return; fi
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG && return; sleep 1; done
  echo "Redis did not start" >&2
  return 1
}
