#!/usr/bin/env bash
# compute-sanitizer's memcheck, racecheck and synccheck over the CLI for every kind of host memory at an awkward shape
# (n = 1000003 ints, K = 7 chunks over S = 3 streams): stream submission for every kind and copy mechanism, graph
# submission too, and batch submission where the kind has copies for the copy engines.
# Usage: tests/gpu/sanitize_memory_kinds.sh CLI [LOG_DIR]
#   CLI is the asyncscope-cli binary; LOG_DIR (a new temporary folder by default) receives one log per run.
#   COMPUTE_SANITIZER may name the sanitizer; STRICT=1 fails on a variant this machine does not run.
# Each variant runs once without the sanitizer first: one that this device or system cannot run (the CLI refuses it
# with its reason) is listed as not run, and pinned memory must always run. Exit 0 when every variant that runs is
# clean under all three tools, 1 otherwise, 2 on a usage error.
set -u
cli=${1:-}
if [ -z "$cli" ] || [ ! -x "$cli" ]; then
    echo "usage: $0 CLI [LOG_DIR] (CLI: the asyncscope-cli binary)" >&2
    exit 2
fi
logs=${2:-$(mktemp -d -t asyncscope-sanitize.XXXXXX)}
mkdir -p "$logs" || exit 2
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
if [ ! -x "$sanitizer" ]; then
    echo "compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2
    exit 2
fi
shape=(--size 1000003 --chunks 7 --streams 3 --runs 2)

# name|options, one variant a line.
variants=()
for memory in pinned pageable write-combined registered; do
    for submit in stream graph batch; do
        variants+=("$memory-ce-$submit|--host-memory $memory --copy ce --submit $submit")
    done
    for submit in stream graph; do
        variants+=("$memory-sm-$submit|--host-memory $memory --copy sm --submit $submit")
    done
done
for submit in stream graph; do
    variants+=("mapped-$submit|--host-memory mapped --submit $submit")
    for migration in prefetch on-demand; do
        variants+=("managed-$migration-$submit|--host-memory managed --managed-migration $migration --submit $submit")
    done
done

failures=0
not_run=0
declare -A pids
summary=()
for variant in "${variants[@]}"; do
    name=${variant%%|*}
    read -r -a options <<<"${variant#*|}"
    "$cli" "${shape[@]}" "${options[@]}" >"$logs/$name.plain.log" 2>&1
    rc=$?
    if [ "$rc" != 0 ]; then
        reason=$(grep -v '^$' "$logs/$name.plain.log" | tail -1)
        if [[ $name == pinned-* ]] || [ "${STRICT:-0}" = 1 ]; then
            summary+=("$(printf '%-32s FAILED without the sanitizer (exit %s): %s' "$name" "$rc" "$reason")")
            failures=$((failures + 1))
        else
            summary+=("$(printf '%-32s not run (exit %s): %s' "$name" "$rc" "$reason")")
            not_run=$((not_run + 1))
        fi
        continue
    fi
    # The three tools run side by side (each its own process and context); their verdicts are read in order.
    for tool in memcheck racecheck synccheck; do
        "$sanitizer" --tool "$tool" --error-exitcode 9 "$cli" "${shape[@]}" "${options[@]}" \
            >"$logs/$name.$tool.log" 2>&1 &
        pids[$tool]=$!
    done
    verdicts=()
    for tool in memcheck racecheck synccheck; do
        log="$logs/$name.$tool.log"
        wait "${pids[$tool]}"
        rc=$?
        # A clean run exits 0 and reports no errors or hazards in its summary.
        if [ "$rc" != 0 ] || grep -qE '(ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [1-9]|\([1-9][0-9]* errors)' "$log"; then
            verdicts+=("$tool FAILED (exit $rc: $(grep -E 'SUMMARY' "$log" | tail -1))")
            failures=$((failures + 1))
        else
            verdicts+=("$tool clean")
        fi
    done
    summary+=("$(printf '%-32s %s' "$name" "${verdicts[*]}")")
done

printf '%s\n' "${summary[@]}"
echo "logs in $logs; ${#variants[@]} variants, $not_run not run here, $failures failures"
[ "$failures" = 0 ]
