#!/usr/bin/env bash
# Install everything and run the linter and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export HF_HUB_OFFLINE=1 ANONYMIZED_TELEMETRY=False
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
