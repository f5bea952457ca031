#!/usr/bin/env bash
# Runs packaging/asyncscope-slurm.sbatch on a real Slurm: a one-node cluster (munged, slurmctld, slurmd from Debian's
# slurm-wlm and munge) started here, with its key, configuration, state, logs and ports of its own under a temporary
# folder, so that it cannot meet a Slurm the machine already runs. The job runs the given asyncscope-cli on the node;
# where no GPU answers, the node's record must carry the CUDA error the CLI reports here, and the merged table must
# show it for the node. The daemons are stopped by their pid files and the folder removed on every exit.
#
# Usage: tests/slurm/slurm_cluster_test.sh CLI BATCH_SCRIPT
# Needs root and the Slurm and munge binaries; exits 77 ("skipped") with the reason otherwise.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
cli=$(realpath "${1:?CLI}")
batch=$(realpath "${2:?BATCH_SCRIPT}")
started=$SECONDS

skip() {
    echo "slurm test: skipped, $*"
    exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root to start munged, slurmctld and slurmd"
for b in mungekey munged slurmctld slurmd srun sbatch sinfo squeue scancel scontrol; do
    command -v "$b" >/dev/null || skip "no $b: install slurm-wlm and munge (packaging/install-build-deps.sh does)"
done
[ -x "$cli" ] || { echo "slurm test: $cli is not an executable" >&2; exit 1; }
host=$(hostname -s)

# What this machine's CUDA runtime answers: a GPU, or an error the records must carry (cudaErrorInsufficientDriver
# without a driver, cudaErrorNoDevice without a GPU).
if devices=$("$cli" --list-devices 2>&1); then
    expected_error=
    echo "slurm test: devices here:"
    echo "$devices"
else
    expected_error=$(grep -o 'cudaError[A-Za-z]*' <<<"$devices" | head -n 1 || true)
    if [ -z "$expected_error" ]; then
        echo "slurm test: $cli --list-devices failed without a CUDA error: $devices" >&2
        exit 1
    fi
    echo "slurm test: no GPU answers here ($expected_error): every record must carry that error"
fi

# Everything of the cluster lives here; mode 755 because munged wants its socket's folders searchable by all.
tmp=$(mktemp -d /tmp/asyncscope-slurm-test.XXXXXX)
chmod 755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/job"
chmod 755 "$tmp/munge"

# Stops a daemon by its pid file (or, before it wrote one, by the pid it was started as): TERM, then KILL after 10 s.
stop_daemon() {
    local name=$1 pid_file=$2 pid=${3:-}
    [ -s "$pid_file" ] && pid=$(cat "$pid_file")
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    echo "slurm test: $name (pid $pid) did not stop in 10 s: killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
}
cleanup() {
    local status=$?
    set +e
    [ -n "${waiting_pid:-}" ] && kill -TERM "$waiting_pid" 2>/dev/null
    if [ -n "${ctld_pid:-}" ] && kill -0 "$ctld_pid" 2>/dev/null; then
        # Jobs first, so that no slurmstepd outlives its slurmd.
        mapfile -t jobs < <(squeue -h -o %i 2>/dev/null)
        if [ ${#jobs[@]} -gt 0 ]; then
            echo "slurm test: cancelling the jobs still queued or running:"
            squeue -o '%.8i %.12j %.10T %.20r' 2>/dev/null
            scancel "${jobs[@]}" 2>/dev/null
            for _ in $(seq 50); do
                [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
                sleep 0.2
            done
        fi
    fi
    stop_daemon slurmd "$tmp/slurmd.pid" "${slurmd_pid:-}"
    stop_daemon slurmctld "$tmp/slurmctld.pid" "${ctld_pid:-}"
    stop_daemon munged "$tmp/munge/munged.pid"
    wait 2>/dev/null
    if [ $status -ne 0 ]; then
        for log in "$tmp"/log/*; do
            [ -s "$log" ] || continue
            echo "---- last lines of $(basename "$log")"
            tail -n 20 "$log"
        done
    fi
    rm -rf "$tmp"
    echo "slurm test: cluster stopped, $tmp removed ($((SECONDS - started)) s in all)"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Runs a command for at most 45 s, in the background so that a signal to this script is handled at once (bash runs
# traps only between foreground commands), and returns its exit status.
bounded() {
    timeout 45 "$@" &
    waiting_pid=$!
    local status=0
    wait "$waiting_pid" || status=$?
    waiting_pid=
    return $status
}

# Two free TCP ports in a range no Slurm uses by default (6817/6818).
port_free() {
    local hex
    hex=$(printf '%04X' "$1")
    ! awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
for _ in $(seq 50); do
    ctld_port=$((20000 + RANDOM % 30000))
    slurmd_port=$((ctld_port + 1))
    port_free "$ctld_port" && port_free "$slurmd_port" && break
done

echo "== munged"
mungekey --create --keyfile="$tmp/munge/munge.key" --bits=1024
chmod 400 "$tmp/munge/munge.key"
socket="$tmp/munge/munge.socket"
munged --socket="$socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed"

echo "== slurm.conf for $host, ports $ctld_port and $slurmd_port"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=asyncscopetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
# No cgroups and no accounting: the cluster needs nothing beyond its folder.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

echo "== slurmctld and slurmd"
slurmctld -D -f "$SLURM_CONF" </dev/null >"$tmp/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$SLURM_CONF" </dev/null >"$tmp/log/slurmd.out" 2>&1 &
slurmd_pid=$!
state=
for _ in $(seq 60); do
    kill -0 "$ctld_pid" 2>/dev/null || { echo "slurm test: slurmctld stopped" >&2; exit 1; }
    kill -0 "$slurmd_pid" 2>/dev/null || { echo "slurm test: slurmd stopped" >&2; exit 1; }
    state=$(sinfo -h -N -n "$host" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || { echo "slurm test: $host is not idle after 30 s (state: ${state:-none})" >&2; exit 1; }
sinfo
echo "cluster up after $((SECONDS - started)) s"

echo "== the batch script, with sbatch --wait"
cd "$tmp/job"
mkdir results
# A record an earlier job left: the merge must not take it.
echo '{"stale": true}' >results/oldhost-0.json
touch -d '1 hour ago' results/oldhost-0.json
job_status=0
bounded env ASYNCSCOPE_CLI="$cli" ASYNCSCOPE_ARGS="--runs 3" sbatch --wait "$batch" --warmup 0 >sbatch.out 2>&1 ||
    job_status=$?
cat sbatch.out
job_id=$(grep -o 'Submitted batch job [0-9]*' sbatch.out | grep -o '[0-9]*$' || true)
[ -n "$job_id" ] || { echo "slurm test: sbatch did not submit the job" >&2; exit 1; }
# The script's own #SBATCH --output names the job's output.
cp "asyncscope-$job_id.out" job.out || true
echo "---- job output (asyncscope-$job_id.out)"
cat job.out || true
echo "---- results: $(ls results)"

failures=0
check() {
    local what=$1
    shift
    if "$@"; then
        echo "ok: $what"
    else
        echo "FAILED: $what" >&2
        failures=$((failures + 1))
    fi
}
contains() { grep -q -- "$2" "$1" 2>/dev/null; }
lacks() { ! grep -q -- "$2" "$1" 2>/dev/null; }

check "the job ran on the one node" grep -q "on 1 node(s) ($host)" job.out
check "ASYNCSCOPE_ARGS and the script's arguments reached the CLI" grep -q -- "--runs 3 --warmup 0\$" job.out
if [ -n "$expected_error" ]; then
    # Device discovery failed: the CLI names the one record HOST-none.json and writes the host and the error into it.
    record="results/$host-none.json"
    check "the job failed as the node's run did (exit status 1, was $job_status)" test "$job_status" -eq 1
    check "the node left its record $record" test -s "$record"
    check "the record names the host" grep -Eq "\"host\": *\"$host\"" "$record"
    check "the record carries $expected_error" grep -Eq "\"code_name\": *\"$expected_error\"" "$record"
    check "the merged table in the job's output shows $expected_error" contains job.out "$expected_error"
    check "the merged table has a row for $host with the error" \
        grep -q "$host.*$expected_error\|$expected_error.*$host" job.out
    check "results/merged.csv has a row for $host with $expected_error" \
        grep -q "^$host,.*$expected_error" results/merged.csv
    check "results/merged.json has a row for $host" grep -Eq "\"host\": *\"$host\"" results/merged.json
    check "results/merged.json carries $expected_error" contains results/merged.json "$expected_error"
else
    check "the job succeeded (exit status 0, was $job_status)" test "$job_status" -eq 0
    check "the node left a record per GPU" compgen -G "results/$host-[0-9]*.json"
    check "the merged table has a row for $host" contains job.out "$host"
fi
check "the record an earlier job left is not merged" lacks job.out oldhost
check "merged.json leaves the earlier record out" lacks results/merged.json oldhost
check "the job's state is what its exit status says" \
    grep -q "JobState=$([ "$job_status" -eq 0 ] && echo COMPLETED || echo FAILED)" <(scontrol show job "$job_id")

echo "== the script submitting itself from a folder holding the CLI (as in the bundle), ASYNCSCOPE_EXCLUSIVE=1"
mkdir bundle
cp "$batch" bundle/asyncscope-slurm.sbatch
ln -s "$cli" bundle/asyncscope-cli
cd bundle
bounded env -u ASYNCSCOPE_CLI ASYNCSCOPE_NODES=1 ASYNCSCOPE_EXCLUSIVE=1 ASYNCSCOPE_SBATCH_ARGS="--wait" \
    ./asyncscope-slurm.sbatch >../sbatch-2.out 2>&1 || true
cd ..
cat sbatch-2.out
job2_id=$(grep -o 'Submitted batch job [0-9]*' sbatch-2.out | grep -o '[0-9]*$' || true)
check "the script submitted itself" test -n "$job2_id"
check "the job got the node to itself (OverSubscribe=NO)" \
    grep -q "OverSubscribe=NO" <(scontrol show job "${job2_id:-0}")
check "the job ran the CLI beside the script" grep -q "on each node: $tmp/job/bundle/asyncscope-cli " \
    "bundle/asyncscope-${job2_id:-0}.out"
check "its records went to bundle/results" test -s bundle/results/merged.json

echo "== a CLI that is not there: the job says so and ends with exit status 2"
job3_status=0
bounded env ASYNCSCOPE_CLI=no-such-asyncscope-cli ASYNCSCOPE_RESULTS=results-3 sbatch --wait --output=job-3.out \
    "$batch" >sbatch-3.out 2>&1 || job3_status=$?
cat sbatch-3.out job-3.out
check "the job ended with exit status 2 (was $job3_status)" test "$job3_status" -eq 2
check "the job's output names the CLI it could not find" grep -q "no no-such-asyncscope-cli in PATH" job-3.out

echo "slurm test: $failures check(s) failed, $((SECONDS - started)) s"
[ "$failures" -eq 0 ]
