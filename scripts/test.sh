#!/usr/bin/env bash
# Install the app and the dev requirements (requirements-dev.txt, the GGUF test model), then run the
# linter and the tests.
#   scripts/test.sh [pytest args]          the whole suite (CI runs this)
#   scripts/test.sh --fast [pytest args]   the fast tier: pytest -m "not slow and not page" on every core
#                                          (pytest-xdist), the pure-logic and fake-backed engine tests: no
#                                          real model, server, browser, child process or page (tests/conftest.py
#                                          marks the rest slow, and the AppTest page tests page)
#   scripts/test.sh --pages [pytest args]  the page tier: the AppTest page tests that are not slow, on every core
set -euo pipefail
cd "$(dirname "$0")/.."
tier=""
if [ "${1:-}" = "--fast" ] || [ "${1:-}" = "--pages" ]; then
  tier="$1"
  shift
fi
./scripts/setup.sh --dev
export HF_HUB_OFFLINE=1 ANONYMIZED_TELEMETRY=False
.venv/bin/ruff check .
if [ "$tier" = --fast ]; then
  exec .venv/bin/python -m pytest -m "not slow and not page" -n auto --dist loadfile "$@"
fi
if [ "$tier" = --pages ]; then
  exec .venv/bin/python -m pytest -m "page and not slow" -n auto --dist loadfile "$@"
fi
exec .venv/bin/python -m pytest "$@"
