#!/usr/bin/env bash
# What recording costs: each app's wall time run plainly and under 'asyncscope-cli record', in alternating pairs
# (so clocks, caches and the GPU's state drift alike for both), and the median of each as a table. For the
# launch-bound program a third run in each round is under the CUPTI floor alone (tests/bench/cupti_floor.cpp: the
# recorder's CUPTI subscription, records counted and nothing more), so that what CUPTI costs any tool and what the
# recorder adds are told apart: its rows fill the floor column and the ratio recorded / floor.
# Usage: tests/gpu/record_overhead.sh SAMPLES_DIR ASYNCSCOPE_CLI [PAIRS [APP…]]
#   SAMPLES_DIR as built by tests/gpu/build_samples.sh (asyncAPI, asyncAPI_long, simpleStreams_long, async_long); the
#   built-in pipeline (asyncscope-cli --runs 1000) is the asyncAPI pipeline run 1000 times in one process. PAIRS
#   defaults to 3; ASYNCAPI_REPEAT (1000) sets how many times asyncAPI_long runs its main. APPs pick rows by name
#   (asyncAPI asyncAPI_long pipeline simpleStreams async launch-bound; all of them by default), so that a long one
#   can have a time limit of its own.
#   launch-bound is record-launch-bound (tests/gpu/programs: LAUNCH_BOUND_ITERATIONS iterations, 2000 by default, of
#   100 empty kernels and a stream synchronisation) with libasyncscope-cupti-floor.so, both from the folder
#   ASYNCSCOPE_RECORD_PROGRAMS names (by default the build's tests folder beside the CLI's); CUPTI is the library
#   ASYNCSCOPE_RECORD_CUPTI names, else the first of the toolkit's libcupti.so.13 found. Its second row is the
#   program's own time for its launch loop (CUDA's start and exit left out), and below it how soon the recorder's
#   report was ready after the program's exit (its last line). The exit status is 1 when a run of it
#   failed or the floor did not count.
set -u
samples=${1:?SAMPLES_DIR}
cli=$(realpath "${2:?ASYNCSCOPE_CLI}")
pairs=${3:-3}
shift $(($# < 3 ? $# : 3))
apps=" ${*:-asyncAPI asyncAPI_long pipeline simpleStreams async launch-bound} "
for app in $apps; do
    case $app in
        asyncAPI | asyncAPI_long | pipeline | simpleStreams | async | launch-bound) ;;
        *) echo "record_overhead: no app '$app' (asyncAPI asyncAPI_long pipeline simpleStreams async launch-bound)" >&2
           exit 2 ;;
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
    row "$label" "${iterations:-?}" "$p" - "$r"
    echo "    plain µs: ${plain[*]}; recorded µs: ${recorded[*]}" >&2
    grep -E 'exited|ended|stopped' "$work/err.txt" >&2
}
row() {  # LABEL ITERATIONS PLAIN FLOOR RECORDED (µs; the floor '-' where it was not measured)
    awk -v l="$1" -v n="$2" -v p="$3" -v f="$4" -v r="$5" 'BEGIN {
        floor = f == "-" ? sprintf("%12s", "-") : sprintf("%12.3f", f / 1e6)
        ratio = f == "-" ? sprintf("%10s", "-") : sprintf("%10.3f", r / f)
        printf "%-48s %10s %12.3f %s %12.3f %+9.2f %% %s\n", l, n, p / 1e6, floor, r / 1e6, (r - p) * 100 / p, ratio
    }'
}
failures=0
# The launch-bound program's three runs a round: plain, under the CUPTI floor, under the recorder (the last two in
# turns first), the wall time of each and the program's own time for its launch loop.
measure_floor() {  # APP LABEL PROGRAM ARGUMENTS…
    [[ $apps == *" $1 "* ]] || return 0
    local label=$2
    shift 2
    if [ ! -x "$1" ] || [ ! -f "$floor_library" ] || [ -z "$cupti" ]; then
        echo "record_overhead: $label not measured: ${1} or ${floor_library} or CUPTI (${cupti:-not found}) missing" >&2
        failures=$((failures + 1))
        return 0
    fi
    local plain=() floor=() recorded=() loop_plain=() loop_floor=() loop_recorded=() ready=() iterations=0 records="" i kind
    for ((i = 0; i < pairs; ++i)); do
        for kind in plain $([ $((i % 2)) = 0 ] && echo floor recorded || echo recorded floor); do
            local t0 t1 status
            t0=$(now)
            case $kind in
                plain) "$@" > "$work/out.txt" 2> "$work/err.txt" ;;
                floor) env CUDA_INJECTION64_PATH="$floor_library" ASYNCSCOPE_RECORD_CUPTI="$cupti" "$@" \
                    > "$work/out.txt" 2> "$work/err.txt" ;;
                recorded) "$cli" record -- "$@" > "$work/out.txt" 2> "$work/err.txt" ;;
            esac
            status=$?
            t1=$(now)
            if [ "$status" != 0 ]; then
                echo "record_overhead: $label, $kind run $((i + 1)) exited $status" >&2
                cat "$work/err.txt" >&2
                failures=$((failures + 1))
            fi
            local wall=$(( (t1 - t0) / 1000 )) loop
            loop=$(sed -n 's/.*: \([0-9.]*\) s by the host.*/\1/p' "$work/out.txt" | head -1)
            loop=$(awk -v s="${loop:-0}" 'BEGIN {printf "%d", s * 1e6}')
            case $kind in
                plain) plain+=("$wall"); loop_plain+=("$loop") ;;
                floor) floor+=("$wall"); loop_floor+=("$loop")
                    records=$(sed -n 's/^cupti-floor: \([0-9]*\) records$/\1/p' "$work/err.txt" | head -1)
                    if [ -z "$records" ]; then
                        echo "record_overhead: the CUPTI floor counted nothing:" >&2
                        cat "$work/err.txt" >&2
                        failures=$((failures + 1))
                    fi ;;
                recorded) recorded+=("$wall"); loop_recorded+=("$loop")
                    iterations=$(sed -n 's/^Recorded .*: \([0-9]*\) run(s).*/\1/p' "$work/out.txt" | head -1)
                    ready+=("$(sed -n 's/.*report ready \([0-9.]*\) s after.*/\1/p' "$work/err.txt" | awk '{printf "%d", $1 * 1e6}')") ;;
            esac
        done
    done
    row "$label" "${iterations:-?}" "$(median "${plain[@]}")" "$(median "${floor[@]}")" "$(median "${recorded[@]}")"
    row "  its launch loop alone (the program's clock)" "${iterations:-?}" "$(median "${loop_plain[@]}")" \
        "$(median "${loop_floor[@]}")" "$(median "${loop_recorded[@]}")"
    echo "    plain µs: ${plain[*]}; floor µs: ${floor[*]}; recorded µs: ${recorded[*]}" >&2
    echo "    launch loop µs: plain ${loop_plain[*]}; floor ${loop_floor[*]}; recorded ${loop_recorded[*]}" >&2
    echo "    the recorder's report ready after the program's exit, µs: ${ready[*]} (median $(median "${ready[@]:-0}"))" >&2
    echo "    CUPTI: $cupti; the floor's last count: ${records:-none} records" >&2
}
programs=${ASYNCSCOPE_RECORD_PROGRAMS:-}
if [ -z "$programs" ]; then
    for programs in "$(dirname "$cli")/../tests" "$(dirname "$cli")"; do
        [ -x "$programs/record-launch-bound" ] && break
    done
fi
floor_library=$programs/libasyncscope-cupti-floor.so
floor_library=$(realpath "$floor_library" 2> /dev/null || echo "$floor_library")  # the driver wants a full path
cupti=${ASYNCSCOPE_RECORD_CUPTI:-}
if [ -z "$cupti" ]; then
    for candidate in /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13 /usr/local/cuda/lib64/libcupti.so.13 \
        /usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13; do
        [ -f "$candidate" ] && { cupti=$candidate; break; }
    done
fi

printf '%-48s %10s %12s %12s %12s %11s %10s\n' app iterations "plain s" "floor s" "recorded s" overhead "rec/floor"
measure asyncAPI "asyncAPI (one iteration a process)" "$samples/asyncAPI"
asyncapi_repeat=${ASYNCAPI_REPEAT:-1000}  # asyncAPI allocates and checks 64 MiB an iteration: ~0.1 s each
measure asyncAPI_long "asyncAPI, main run $asyncapi_repeat times" env REPEAT=$asyncapi_repeat "$samples/asyncAPI_long"
measure pipeline "asyncAPI pipeline (asyncscope-cli --runs 1000)" "$cli" --runs 1000
measure simpleStreams "simpleStreams, nreps 1000" "$samples/simpleStreams_long"
measure async "async.cu, main run 334 times" env REPEAT=334 "$samples/async_long"
measure_floor launch-bound "launch-bound (${LAUNCH_BOUND_ITERATIONS:-2000} x 100 empty kernels)" \
    "$programs/record-launch-bound" "${LAUNCH_BOUND_ITERATIONS:-2000}"
[ "$failures" = 0 ]
