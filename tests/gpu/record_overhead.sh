#!/usr/bin/env bash
# What recording costs: each app's wall time run plainly and under 'asyncscope-cli record', in alternating pairs
# (so clocks, caches and the GPU's state drift alike for both), and the median of each as a table.
# Usage: tests/gpu/record_overhead.sh SAMPLES_DIR ASYNCSCOPE_CLI [PAIRS [APP…]]
#   SAMPLES_DIR as built by tests/gpu/build_samples.sh (asyncAPI, asyncAPI_long, simpleStreams_long, async_long); the
#   built-in pipeline (asyncscope-cli --runs 1000) is the asyncAPI pipeline run 1000 times in one process. PAIRS
#   defaults to 3; ASYNCAPI_REPEAT (1000) sets how many times asyncAPI_long runs its main. APPs pick rows by name
#   (asyncAPI asyncAPI_long pipeline simpleStreams async; all of them by default), so that a long one can have a
#   time limit of its own.
set -u
samples=${1:?SAMPLES_DIR}
cli=$(realpath "${2:?ASYNCSCOPE_CLI}")
pairs=${3:-3}
shift $(($# < 3 ? $# : 3))
apps=" ${*:-asyncAPI asyncAPI_long pipeline simpleStreams async} "
for app in $apps; do
    case $app in
        asyncAPI | asyncAPI_long | pipeline | simpleStreams | async) ;;
        *) echo "record_overhead: no app '$app' (asyncAPI asyncAPI_long pipeline simpleStreams async)" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
measure() {  # APP LABEL COMMAND…
    [[ $apps == *" $1 "* ]] || return 0
    local label=$2
    shift 2
    local plain=() recorded=() iterations=0 t0 t1 i
    for ((i = 0; i < pairs; ++i)); do
        t0=$(now); "$@" > /dev/null 2>&1; t1=$(now); plain+=($(( (t1 - t0) / 1000 )))
        t0=$(now); "$cli" record -- "$@" > "$work/out.txt" 2> "$work/err.txt"; t1=$(now)
        recorded+=($(( (t1 - t0) / 1000 )))
        iterations=$(sed -n 's/^Recorded .*: \([0-9]*\) run(s).*/\1/p' "$work/out.txt" | head -1)
    done
    local p r
    p=$(median "${plain[@]}"); r=$(median "${recorded[@]}")
    awk -v l="$label" -v n="${iterations:-?}" -v p="$p" -v r="$r" \
        'BEGIN {printf "%-48s %10s %12.3f %12.3f %+9.2f %%\n", l, n, p / 1e6, r / 1e6, (r - p) * 100 / p}'
    echo "    plain µs: ${plain[*]}; recorded µs: ${recorded[*]}" >&2
    grep -E 'exited|ended|stopped' "$work/err.txt" >&2
}
printf '%-48s %10s %12s %12s %11s\n' app iterations "plain s" "recorded s" overhead
measure asyncAPI "asyncAPI (one iteration a process)" "$samples/asyncAPI"
asyncapi_repeat=${ASYNCAPI_REPEAT:-1000}  # asyncAPI allocates and checks 64 MiB an iteration: ~0.1 s each
measure asyncAPI_long "asyncAPI, main run $asyncapi_repeat times" env REPEAT=$asyncapi_repeat "$samples/asyncAPI_long"
measure pipeline "asyncAPI pipeline (asyncscope-cli --runs 1000)" "$cli" --runs 1000
measure simpleStreams "simpleStreams, nreps 1000" "$samples/simpleStreams_long"
measure async "async.cu, main run 334 times" env REPEAT=334 "$samples/async_long"
