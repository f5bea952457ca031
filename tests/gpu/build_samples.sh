#!/usr/bin/env bash
# Builds the public CUDA samples the recorder's GPU tests record (tests/gpu/record_gpu_test.cpp), from their sources:
# cuda-samples' asyncAPI, simpleStreams and simpleMultiCopy (Samples/0_Introduction/… and their Common/ headers) and
# the overlap sample async.cu of NVIDIA's developer blog (code-samples/series/cuda-cpp/overlap-data-transfers).
# Usage: tests/gpu/build_samples.sh SOURCE_DIR OUT_DIR [ARCH]
#   SOURCE_DIR holds asyncAPI.cu, simpleStreams.cu, simpleMultiCopy.cu, async.cu and the Common headers
#   (helper_cuda.h, helper_functions.h, …); ARCH defaults to the GPU's own (native). A source that is missing is
#   skipped, saying so. Then: ASYNCSCOPE_SAMPLES=OUT_DIR asyncscope_gpu_tests --gtest_filter='RecordGpu.*'
set -u
src=${1:?SOURCE_DIR}
out=${2:?OUT_DIR}
arch=${3:-native}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$out"
status=0
for name in asyncAPI simpleStreams simpleMultiCopy async; do
    if [ ! -f "$src/$name.cu" ]; then
        echo "build_samples: $src/$name.cu is missing: $name not built"
        continue
    fi
    if "$nvcc" -O2 -arch="$arch" -I"$src" -o "$out/$name" "$src/$name.cu"; then
        echo "build_samples: built $out/$name"
    else
        echo "build_samples: $name did not build"
        status=1
    fi
done
exit $status
