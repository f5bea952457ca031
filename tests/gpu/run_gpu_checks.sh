#!/usr/bin/env bash
# Runs the GPU test suite and the CLI checks on a machine with an NVIDIA GPU and its driver.
# Usage: tests/gpu/run_gpu_checks.sh BUILD_DIR LOG_DIR
#   BUILD_DIR is a build tree (cli/asyncscope-cli, tests/asyncscope_gpu_tests) or a folder holding both binaries;
#   they link the CUDA runtime statically, so only the driver is needed. LOG_DIR receives one log per step.
#   A table of exit codes is printed last.
set -u
build=${1:?BUILD_DIR}
logs=${2:?LOG_DIR}
mkdir -p "$logs"
find_binary() { for f in "$build/$1/$2" "$build/$2"; do [ -x "$f" ] && { echo "$f"; return; }; done; echo "missing-$2"; }
cli=$(find_binary cli asyncscope-cli)
tests=$(find_binary tests asyncscope_gpu_tests)
bench=$(find_binary tests asyncscope_bench_overhead)
overlap_bench=$(find_binary tests asyncscope_bench_overlap)
register_bench=$(find_binary tests asyncscope_bench_host_register)
here=$(cd "$(dirname "$0")" && pwd)
batch_bench=$(find_binary tests asyncscope_bench_batch_submit)
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
step list-devices 0 "$cli" --list-devices
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
echo "== gpu-tests"; grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran|^graph |^pageable graph|^64 MiB| not run: |^registered 2 x' "$logs/gpu-tests.log"
for name in compare-submit-64x4 bench-batch-submit; do
    echo "== $name"; grep -vE '^(time spent|CPU executed|stages|run [0-9])' "$logs/$name.log"
done
for log in "$logs"/*check-7x3-batch.log; do
    [ -f "$log" ] && echo "== $(basename "$log" .log): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|error' "$log" | tail -2)"
done
printf '%s\n' "${summary[@]}"
