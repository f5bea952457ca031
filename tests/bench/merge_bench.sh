#!/usr/bin/env bash
# Benchmark, not a test: how long `asyncscope-cli --merge` takes for many small host records, as a fleet or a Slurm
# job of many nodes leaves them. Writes N copies of RECORD (its host name made unique in each) into a temporary
# folder, merges them twice (the first warms the page cache) and prints the second merge's wall, user and system
# seconds and the time per record.
# Usage: tests/bench/merge_bench.sh CLI [N [RECORD]]
# (10000 records of tests/data/h200/h200-host-record.host.json, as asyncscope-cli --output wrote it on an H200, by
# default)
set -euo pipefail
cli=${1:?usage: merge_bench.sh CLI [N [RECORD]]}
count=${2:-10000}
record=${3:-$(dirname "$0")/../data/h200/h200-host-record.host.json}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

text=$(<"$record")
host=$(grep -m 1 -o '"host": *"[^"]*"' "$record")
for ((i = 0; i < count; ++i)); do
    printf '%s\n' "${text//"$host"/\"host\": \"node$i\"}" >"$dir/node$i.host.json"
done
echo "$count records of $(wc -c <"$record") bytes each in $dir"

"$cli" --merge "$dir"/*.host.json --format csv >/dev/null
TIMEFORMAT='%R s wall, %U s user, %S s system'
{ time "$cli" --merge "$dir"/*.host.json --format csv >"$dir/merged.csv"; } 2>"$dir/time.txt"
cat "$dir/time.txt"
awk -v n="$count" '{ printf "%.1f µs wall per record\n", $1 * 1e6 / n }' "$dir/time.txt"
echo "$(($(wc -l <"$dir/merged.csv") - 1)) rows merged"
