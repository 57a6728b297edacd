#!/bin/bash
# The bf16 rows of docs/performance.md's measurement log in one go (`make bench-speed`, about two minutes on an idle
# machine; a benchmark, not a test): cached decode in fp32 and bf16 three times, the AVX2 path
# three times, the forward over 1,024 positions, a decode step's stages, the memory stream,
# ComparePrecision, PyTorch's decode (Debian's python3-torch, when installed) and the widgets'
# latency. Every section is headed by the time and the load average: run it on an idle
# machine, and compare only figures from the same run.
set -u
cd "$(dirname "$0")/.."
BIN=${GPTNOTES_BIN:-bin/gptnotes}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
step() { echo; echo "=== $(date +%T) load: $(cut -d' ' -f1-3 /proc/loadavg) :: $*"; }
quiet() { grep -v '^goos\|^goarch\|^pkg\|^cpu\|^PASS\|^ok'; }
go test -tags openblas -c -o "$T/gpt.test" ./gpt || exit 1
go test -tags openblas -c -o "$T/fast.test" ./gpt/internal/fast || exit 1
for i in 1 2 3; do
  step "cached decode, fp32 and bf16, run $i"
  "$T/gpt.test" -test.run '^$' -test.bench 'GenerateSmallPrecision' -test.benchtime 1x 2>&1 | quiet
done
for i in 1 2 3; do
  step "cached decode, the AVX2 path (GPTNOTES_CPU=avx2), run $i"
  GPTNOTES_CPU=avx2 "$T/gpt.test" -test.run '^$' -test.bench 'GenerateSmallPrecision' -test.benchtime 1x 2>&1 | quiet
done
step "forward over 1,024 positions, best of 3"
"$T/gpt.test" -test.run '^$' -test.bench 'ForwardSmall1024Precision' -test.benchtime 3x 2>&1 | quiet
step "a prompt's forward before the first token (2, 11, 64 tokens), best of 7"
"$T/gpt.test" -test.run '^$' -test.bench 'PrefillSmallPrecision' -test.benchtime 7x 2>&1 | quiet
step "a decode step's stages, 200 of each"
"$T/gpt.test" -test.run '^$' -test.bench 'DecodeStagesSmall' -test.benchtime 200x 2>&1 | quiet
step "memory stream"
"$T/fast.test" -test.run '^$' -test.bench 'MemoryStream' 2>&1 | quiet
step "ComparePrecision, 200 steps"
"$T/gpt.test" -test.run '^$' -test.bench 'ComparePrecisionSmall' -test.benchtime 1x 2>&1 | quiet
if $PY -c 'import torch' 2>/dev/null; then
  step "PyTorch cached decode, fp32 and bf16"
  $PY tests/bench_generate.py --new 64 --no-uncached
  $PY tests/bench_generate.py --new 64 --no-uncached --bf16
else
  step "PyTorch: not installed (apt-get install python3-torch), skipped"
fi
if [ -x "$BIN" ]; then
  step "widgets, the shipped model"
  GPTNOTES_BIN=$BIN $PY tests/bench_widgets.py
  if [ -n "${GPT2_WEIGHTS:-}" ]; then
    step "widgets, $GPT2_WEIGHTS"
    GPTNOTES_BIN=$BIN $PY tests/bench_widgets.py
  fi
fi
step end
