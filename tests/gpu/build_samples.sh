#!/usr/bin/env bash
# Builds the public CUDA samples the recorder's GPU tests record (tests/gpu/record_gpu_test.cpp), from their sources:
# cuda-samples' asyncAPI, simpleStreams and simpleMultiCopy (Samples/0_Introduction/… and their Common/ headers) and
# the overlap sample async.cu of NVIDIA's developer blog (code-samples/series/cuda-cpp/overlap-data-transfers).
# Also three long variants for the recorder's overhead (tests/gpu/record_overhead.sh): simpleStreams_long repeats each
# experiment 1000 times instead of 100 (its nreps); asyncAPI_long and async_long run the sample's main REPEAT times in
# one process (asyncAPI's main returns its result instead of calling exit()). And default_stream_app.cu, beside this
# script, twice: default_stream (the legacy default stream) and default_stream_per_thread.
# Usage: tests/gpu/build_samples.sh SOURCE_DIR OUT_DIR [ARCH]
#   SOURCE_DIR holds asyncAPI.cu, simpleStreams.cu, simpleMultiCopy.cu, async.cu and the Common headers
#   (helper_cuda.h, helper_functions.h, …); ARCH defaults to the GPU's own (native), and is nvcc's (sm_90, native)
#   or CMake's number (90, for sm_90). A source that is missing is skipped, saying so.
#   Then: ASYNCSCOPE_SAMPLES=OUT_DIR asyncscope_gpu_tests --gtest_filter='RecordGpu.*'
set -u
src=${1:?SOURCE_DIR}
out=${2:?OUT_DIR}
arch=${3:-native}
case $arch in [0-9]*) arch=sm_$arch ;; esac
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$out"
status=0
build() {  # NAME SOURCE [nvcc arguments…]
    local name=$1 source=$2
    shift 2
    if [ ! -f "$source" ]; then
        echo "build_samples: $source is missing: $name not built"
        return
    fi
    if "$nvcc" -O2 -arch="$arch" -I"$src" "$@" -o "$out/$name" "$source"; then
        echo "build_samples: built $out/$name"
    else
        echo "build_samples: $name did not build"
        return 1
    fi
}
here=$(cd "$(dirname "$0")" && pwd)
pids=()
build default_stream "$here/default_stream_app.cu" & pids+=($!)
build default_stream_per_thread "$here/default_stream_app.cu" --default-stream per-thread & pids+=($!)
for name in asyncAPI simpleStreams simpleMultiCopy async; do
    build "$name" "$src/$name.cu" & pids+=($!)
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -f "$src/simpleStreams.cu" ]; then
    sed 's/nreps = 100;/nreps = 1000;/' "$src/simpleStreams.cu" > "$work/simpleStreams_long.cu"
    grep -q 'nreps = 1000;' "$work/simpleStreams_long.cu" || echo "build_samples: simpleStreams.cu has no 'nreps = 100;' to raise"
fi
cat > "$work/repeat_main.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
int sample_main(int argc, char **argv);
int main(int argc, char **argv)
{
    const char *text = std::getenv("REPEAT");
    const int repeat = text != nullptr ? std::atoi(text) : 334;
    for (int i = 0; i < repeat; ++i)
        if (sample_main(argc, argv) != 0)
            return 1;
    return 0;
}
CU
if [ -f "$src/async.cu" ]; then
    sed 's/^int main(/int sample_main(/' "$src/async.cu" > "$work/async_body.cu"
    build async_long "$work/async_body.cu" "$work/repeat_main.cu" & pids+=($!)
fi
if [ -f "$src/asyncAPI.cu" ]; then
    sed -e 's/^int main(/int sample_main(/' \
        -e 's/exit(bFinalResults ? EXIT_SUCCESS : EXIT_FAILURE);/return bFinalResults ? EXIT_SUCCESS : EXIT_FAILURE;/' \
        "$src/asyncAPI.cu" > "$work/asyncAPI_body.cu"
    if grep -q 'return bFinalResults' "$work/asyncAPI_body.cu"; then
        build asyncAPI_long "$work/asyncAPI_body.cu" "$work/repeat_main.cu" & pids+=($!)
    else
        echo "build_samples: asyncAPI.cu's main does not end in the exit() expected: asyncAPI_long not built"
    fi
fi
if [ -f "$work/simpleStreams_long.cu" ]; then
    build simpleStreams_long "$work/simpleStreams_long.cu" & pids+=($!)
fi
for pid in "${pids[@]}"; do
    wait "$pid" || status=1
done
exit $status
