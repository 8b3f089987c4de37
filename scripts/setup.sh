#!/usr/bin/env bash
# Create .venv (if missing) and install the pinned requirements into it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  # torch alone first so nothing can pull the CUDA build before it is pinned
  .venv/bin/python -m pip install --quiet "$(grep -E '^torch==' requirements.txt)"
  .venv/bin/python -m pip install --quiet -r requirements.txt
  # OCR needs no system package: the models ship in the rapidocr wheel; check they loaded
  .venv/bin/python -c "from rag_core.documents.ocr import engine; engine()"
  echo "$want" > "$stamp"
fi
