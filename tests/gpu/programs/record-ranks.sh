#!/usr/bin/env bash
# Starts two ranks of record-rank (beside this script) as a launcher does: both at once in the background, RANK,
# LOCAL_RANK and WORLD_SIZE in each one's environment, then waits for both. Exits 0 when both did, else 1.
here=$(cd "$(dirname "$0")" && pwd)
pids=()
for rank in 0 1; do
    RANK=$rank LOCAL_RANK=$rank WORLD_SIZE=2 "$here/record-rank" &
    pids+=($!)
done
status=0
for rank in 0 1; do
    wait "${pids[$rank]}" || { echo "record-ranks: rank $rank failed" >&2; status=1; }
done
exit $status
