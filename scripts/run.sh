#!/usr/bin/env bash
# Install the app's requirements (requirements.txt: wheels only, no compiler, no test tools) and start
# the app on the embedded default (Chroma + SQLite under data/store, bundled e5 model, sample policies
# indexed on first start).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export HF_HUB_OFFLINE=1 ANONYMIZED_TELEMETRY=False
# Serving beyond this machine without accounts would hand every page to anyone on the
# network: refuse, and say how to create the first administrator (see SECURITY.md).
.venv/bin/python -m rag_core.accounts.serving "$@" || exit 1
exec .venv/bin/streamlit run app.py "$@"
