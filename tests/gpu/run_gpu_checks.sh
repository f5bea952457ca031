#!/usr/bin/env bash
# Runs the GPU test suite and the CLI checks on a machine with an NVIDIA GPU and its driver.
# Usage: tests/gpu/run_gpu_checks.sh BUILD_DIR LOG_DIR [SAMPLE_SOURCES]
#   BUILD_DIR is a build tree (cli/asyncscope-cli, tests/asyncscope_gpu_tests) or a folder holding both binaries;
#   they link the CUDA runtime statically, so only the driver is needed. The recorder's test programs (record-*,
#   tests/gpu/programs) and the CUPTI floor library (libasyncscope-cupti-floor.so) are looked for beside
#   asyncscope_gpu_tests. LOG_DIR receives one log per step. SAMPLE_SOURCES (or ASYNCSCOPE_SAMPLE_SOURCES) is a
#   folder of the public samples' sources (tests/gpu/build_samples.sh says which): they are built into LOG_DIR/samples
#   for the GPU's own architecture (or ASYNCSCOPE_SAMPLE_ARCH's), and ASYNCSCOPE_SAMPLES names that folder for the
#   GPU tests and the recorder's overhead; without it, an ASYNCSCOPE_SAMPLES already set is used as it is. A table of
#   exit codes is printed last. ASYNCSCOPE_GPU_CHECKS=record runs the recorder's checks alone: the samples built, every
#   RecordGpu test (ASYNCSCOPE_KEEP_RECORDINGS, where set, keeps their recordings), each test program recorded by the
#   CLI and the launch-bound overhead against the CUPTI floor.
set -u
build=${1:?BUILD_DIR}
logs=${2:?LOG_DIR}
sample_sources=${3:-${ASYNCSCOPE_SAMPLE_SOURCES:-}}
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)
find_binary() { for f in "$build/$1/$2" "$build/$2"; do [ -x "$f" ] && { echo "$f"; return; }; done; echo "missing-$2"; }
cli=$(find_binary cli asyncscope-cli)
tests=$(find_binary tests asyncscope_gpu_tests)
bench=$(find_binary tests asyncscope_bench_overhead)
overlap_bench=$(find_binary tests asyncscope_bench_overlap)
register_bench=$(find_binary tests asyncscope_bench_host_register)
here=$(cd "$(dirname "$0")" && pwd)
batch_bench=$(find_binary tests asyncscope_bench_batch_submit)
programs=$build/tests  # the recorder's test programs and the CUPTI floor, beside asyncscope_gpu_tests
[ -x "$programs/asyncscope_gpu_tests" ] || programs=$build
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
summary=()

step() {  # step NAME EXPECTED_EXIT COMMAND...
    local name=$1 expected=$2
    shift 2
    "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    local verdict=ok
    [ "$rc" = "$expected" ] || verdict=UNEXPECTED
    summary+=("$(printf '%-28s exit %3s (expected %s) %s' "$name" "$rc" "$expected" "$verdict")")
}

nvidia-smi -L >"$logs/nvidia-smi.log" 2>&1
if [ -n "$sample_sources" ]; then
    step build-samples 0 "$here/build_samples.sh" "$sample_sources" "$logs/samples" "${ASYNCSCOPE_SAMPLE_ARCH:-native}"
    export ASYNCSCOPE_SAMPLES=$logs/samples
fi
step list-devices 0 "$cli" --list-devices
if [ "${ASYNCSCOPE_GPU_CHECKS:-all}" = record ]; then
    step gpu-tests 0 "$tests" --gtest_color=no --gtest_filter='RecordGpu.*'
else
step gpu-tests 0 "$tests" --gtest_color=no
step default-20 0 "$cli" --runs 20
step pageable-20 0 "$cli" --runs 20 --host-memory pageable
step no-stages-20 0 "$cli" --runs 20 --no-stages
step blocking-20 0 "$cli" --runs 20 --wait blocking
step serial-check-20 0 "$cli" --runs 20 --check serial
step json-20 0 "$cli" --runs 20 --format json --output "$logs/default-20.json"
step csv-20 0 "$cli" --runs 20 --format csv --output "$logs/default-20.csv"
step bad-size-0 2 "$cli" --size 0
step bad-size-negative 2 "$cli" --size -5
step bad-size-abc 2 "$cli" --size abc
step bad-runs-0 2 "$cli" --runs 0
step bad-device-99 2 "$cli" --device 99
step bad-size-too-large 2 "$cli" --size 4096GiB
step noise-stop 0 "$cli" --stop noise
step compare-host-memory 0 "$cli" --compare host-memory --runs 20
step compare-wait 0 "$cli" --compare wait --runs 20
step compare-size 0 "$cli" --compare size --runs 10 --format csv --output "$logs/sweep.csv"
# Variants that cannot fit (two host buffers of 80 GiB) are reported as not run, with the limit, and exit 2.
step compare-too-large 2 "$cli" --size 80GiB --compare host-memory
step sweep-partly-too-large 0 "$cli" --compare size --sweep-min 16GiB --sweep-max 512GiB --runs 1 --warmup 0
step bench-overhead 0 "$bench" 1000
# The overlap lab: chunks over streams, both submissions, the comparisons, a usage error, the benchmark.
step overlap-16x4 0 "$cli" --runs 100 --chunks 16 --streams 4
step overlap-16x4-graph 0 "$cli" --runs 100 --chunks 16 --streams 4 --submit graph
step overlap-16x4-stage 0 "$cli" --runs 100 --chunks 16 --streams 4 --order stage
step compare-overlap 0 "$cli" --compare overlap --runs 100
step compare-overlap-json 0 "$cli" --compare overlap --runs 20 --format json --output "$logs/overlap.json"
step compare-submit 0 "$cli" --compare submit --chunks 16 --streams 4 --runs 200
step bad-chunks-above-size 2 "$cli" --size 3 --chunks 4
step bench-overlap 0 "$overlap_bench" 200
# The memory lab: registration alone against a registered series, and every host memory kind under the sanitizers.
step bench-host-register 0 "$register_bench" 64MiB 20 5 20
if [ -x "$sanitizer" ]; then
    step memcheck 0 "$sanitizer" --tool memcheck --error-exitcode 9 "$cli" --runs 2 --size 1000003
    for tool in memcheck racecheck synccheck; do
        step "$tool-16x4-graph" 0 "$sanitizer" --tool "$tool" --error-exitcode 9 "$cli" --runs 2 --chunks 16 \
            --streams 4 --submit graph
    done
    step sanitize-memory-kinds 0 "$here/sanitize_memory_kinds.sh" "$cli" "$logs/sanitize-memory-kinds"
fi
# Batch submission: the submit comparison at the lab's shape, the awkward shape under the sanitizers, the benchmark.
step compare-submit-64x4 0 "$cli" --compare submit --chunks 64 --streams 4 --runs 200
step bench-batch-submit 0 "$batch_bench" 200
if [ -x "$sanitizer" ]; then
    for tool in memcheck racecheck synccheck; do
        step "$tool-7x3-batch" 0 "$sanitizer" --tool "$tool" --error-exitcode 9 "$cli" --runs 2 --size 1000003 \
            --chunks 7 --streams 3 --submit batch
    done
fi
fi
# The recorder on the test programs (tests/gpu/programs), each recorded whole with its report kept: threads, processes
# (fork, two ranks), synchronous copies, the driver API, a graph, a launch-bound loop; a program that crashes or exits
# 3 is the program's failure (exit status 4), with the iterations it completed still reported.
for name in threads fork sync-copy driver-api graph launch-bound; do
    step "record-$name" 0 "$cli" record --output "$logs/record-$name.json" -- "$programs/record-$name"
done
step record-ranks 0 "$cli" record --output "$logs/record-ranks.json" -- "$programs/record-ranks.sh"
step record-crash 4 "$cli" record --output "$logs/record-crash.json" -- "$programs/record-crash"
step record-exit3 4 "$cli" record --output "$logs/record-exit3.json" -- "$programs/record-exit3"
# What recording costs a launch-bound program: plain, under the CUPTI floor alone and under the recorder, in
# alternating triples (tests/gpu/record_overhead.sh finds CUPTI and the floor library).
step record-overhead-launch-bound 0 env ASYNCSCOPE_RECORD_PROGRAMS="$programs" "$here/record_overhead.sh" \
    "${ASYNCSCOPE_SAMPLES:-$logs/samples}" "$cli" 5 launch-bound

if [ "${ASYNCSCOPE_GPU_CHECKS:-all}" != record ]; then
for name in list-devices default-20 pageable-20 no-stages-20 blocking-20 serial-check-20 noise-stop \
    compare-host-memory compare-wait bench-overhead overlap-16x4 overlap-16x4-graph overlap-16x4-stage \
    compare-overlap compare-submit bench-overlap bench-host-register sanitize-memory-kinds; do
    echo "== $name"; grep -vE '^(time spent|CPU executed|stages|run [0-9])' "$logs/$name.log"
done
for name in bad-size-0 bad-size-negative bad-size-abc bad-runs-0 bad-device-99 bad-size-too-large compare-too-large \
    sweep-partly-too-large bad-chunks-above-size; do
    echo "== $name: $(cat "$logs/$name.log")"
done
echo "== compare-size (CSV)"; cat "$logs/sweep.csv"
for log in "$logs"/*check-16x4-graph.log "$logs"/memcheck.log; do
    [ -f "$log" ] && echo "== $(basename "$log" .log): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|error' "$log" | tail -2)"
done
for name in compare-submit-64x4 bench-batch-submit; do
    echo "== $name"; grep -vE '^(time spent|CPU executed|stages|run [0-9])' "$logs/$name.log"
done
for log in "$logs"/*check-7x3-batch.log; do
    [ -f "$log" ] && echo "== $(basename "$log" .log): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|error' "$log" | tail -2)"
done
fi
echo "== gpu-tests"; grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran|^graph |^pageable graph|^64 MiB| not run: |^registered 2 x' "$logs/gpu-tests.log"
[ -f "$logs/build-samples.log" ] && { echo "== build-samples"; cat "$logs/build-samples.log"; }
for name in threads fork ranks sync-copy driver-api graph launch-bound crash exit3; do
    log=$logs/record-$name.log
    [ -f "$log" ] || continue
    echo "== record-$name ($(grep -cE 'iteration [0-9]+: [0-9.]+ ms' "$log") iterations printed by the program)"
    grep -vE 'iteration [0-9]+: [0-9.]+ ms' "$log" | head -40
done
echo "== record-overhead-launch-bound"; cat "$logs/record-overhead-launch-bound.log"
printf '%s\n' "${summary[@]}"
