#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: makes .venv, installs semloop with its
# dev extra, installs and starts a throwaway PostgreSQL (Debian's package) and Chromium
# where this machine lacks them, then runs pytest. Extra arguments go to pytest.
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

# Chromium for the dashboard tests.
if ! command -v chromium >/dev/null 2>&1; then
  apt_install chromium chromium-driver
fi

export DEEPEVAL_TELEMETRY_OPT_OUT=1 DEEPEVAL_DISABLE_DOTENV=1 HF_HUB_OFFLINE=1

# Lint and types first: a failure here fails the run as loudly as a failing test.
echo "ruff:" && .venv/bin/ruff check --quiet . && echo "  clean"
echo "mypy --strict:" && .venv/bin/mypy --no-error-summary && echo "  clean"

set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  exit 1
fi
exit "$status"
