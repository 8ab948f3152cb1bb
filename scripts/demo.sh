#!/usr/bin/env bash
# The main job on a fresh machine: makes .venv, installs semloop with every extra, then runs
# `semloop demo` on the embedded default (SQLite, the embedded judge, no API key, no network).
# Extra arguments go to `semloop demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_venv.sh
ensure_venv all
exec .venv/bin/semloop demo "$@"
