#!/usr/bin/env bash
# Install the app and the dev requirements (requirements-dev.txt, the GGUF test model), then run the
# linter and the tests.
#   scripts/test.sh [pytest args]          the whole suite (CI runs this)
#   scripts/test.sh --fast [pytest args]   the fast tier: pytest -m "not slow" on every core (pytest-xdist),
#                                          the pure-logic and fake-backed tests: no real model, server,
#                                          browser or child process (tests/conftest.py marks the rest slow)
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then
  fast=1
  shift
fi
./scripts/setup.sh --dev
export HF_HUB_OFFLINE=1 ANONYMIZED_TELEMETRY=False
.venv/bin/ruff check .
if [ "$fast" = 1 ]; then
  exec .venv/bin/python -m pytest -m "not slow" -n auto --dist loadfile "$@"
fi
exec .venv/bin/python -m pytest "$@"
