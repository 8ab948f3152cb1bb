#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: makes .venv, installs semloop with its
# dev extra, installs (where this machine lacks it) and starts a throwaway PostgreSQL from
# Debian's package, runs ruff and mypy, then pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv dev

# PostgreSQL: the tests marked `postgres` run against it; they fail, never skip, without it.
if [ -z "${SEMLOOP_TEST_POSTGRES_URL:-}" ]; then
  source scripts/_postgres.sh
  start_postgres
fi
export SEMLOOP_TEST_POSTGRES_URL

# The judge tests serve HTTPS with a throwaway certificate made by the openssl command.
command -v openssl >/dev/null || apt_install openssl
# The dashboard's end-to-end tests drive Debian's chromium with Playwright (whose own
# browser download cannot run offline); SEMLOOP_CHROMIUM names it for the tests.
command -v chromium >/dev/null || apt_install chromium
export SEMLOOP_CHROMIUM="${SEMLOOP_CHROMIUM:-$(command -v chromium)}"

export DEEPEVAL_TELEMETRY_OPT_OUT=1 DEEPEVAL_DISABLE_DOTENV=1 HF_HUB_OFFLINE=1

# Lint and types first: a failure here fails the run as loudly as a failing test
# (plain commands under `set -e`; inside an && chain a failure would not stop the script).
echo "ruff:"
.venv/bin/ruff check --quiet .
echo "  clean"
echo "mypy --strict:"
.venv/bin/mypy --no-error-summary
echo "  clean"

set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  exit 1
fi
exit "$status"
