#!/usr/bin/env bash
# Create .venv (if missing) and install the pinned requirements into it.
#   scripts/setup.sh         the app: requirements.txt only, all wheels, no compiler (scripts/run.sh)
#   scripts/setup.sh --dev   the app, then requirements-dev.txt (tests, lint, benchmarks; llama.cpp is
#                            compiled here) and the GGUF test model (scripts/test.sh, .ci/run)
# Each step has its own stamp in .venv, so run.sh after test.sh installs nothing and test.sh after
# run.sh installs only the dev extras.
set -euo pipefail
cd "$(dirname "$0")/.."
dev=0
case "${1:-}" in
  "") ;;
  --dev) dev=1 ;;
  *) echo "usage: scripts/setup.sh [--dev]" >&2; exit 2 ;;
esac
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi

app_stamp=.venv/.requirements.sha256
app_want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat "$app_stamp" 2>/dev/null)" != "$app_want" ]; then
  .venv/bin/python -m pip install --quiet -r requirements.txt
  # OCR needs no system package: the models ship in the rapidocr wheel; check they loaded
  .venv/bin/python -c "from rag_core.documents.ocr import engine; engine()"
  echo "$app_want" > "$app_stamp"
fi
[ "$dev" = 1 ] || exit 0

dev_stamp=.venv/.requirements-dev.sha256
dev_want=$(cat requirements.txt requirements-models.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$dev_stamp" 2>/dev/null)" != "$dev_want" ]; then
  # llama-cpp-python compiles llama.cpp: a portable x86-64 build (AVX2; the native build, which uses the
  # AVX-512/AMX this kind of machine advertises, died of SIGILL here) without the multimodal library
  export CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON}"
  # torch alone first so nothing can pull the CUDA build before it is pinned (requirements-models.txt)
  .venv/bin/python -m pip install --quiet "$(grep -E '^torch==' requirements-models.txt)"
  .venv/bin/python -m pip install --quiet -r requirements-dev.txt
  echo "$dev_want" > "$dev_stamp"
fi
./scripts/fetch_test_model.sh  # the GGUF model of the real-LLM-server test (a no-op once unpacked)
