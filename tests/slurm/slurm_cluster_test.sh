#!/usr/bin/env bash
# Runs packaging/asyncscope-slurm.sbatch on a real Slurm: a three-node cluster (munged, slurmctld and three slurmd
# from Debian's slurm-wlm and munge, whose slurmd is built for several on one host) started here, with its key,
# configuration, state, logs and ports of its own under a temporary folder, so that it cannot meet a Slurm the machine
# already runs. Each node's slurmd runs in a UTS namespace of its own, so the node's processes see its name as their
# host name, as on separate machines. The job runs the given asyncscope-cli on every node; where no GPU answers, each
# node's record must carry the CUDA error the CLI reports here, and the merged table must show it for the node.
# Then one node is crashed (every process in its namespace killed) while the job runs, its real asyncscope-cli held
# (strace stops it with SIGSTOP) just as it writes its record: the others' records must be merged, the lost node must
# have its row and leave no file under a record's name, and the job must end with exit status 1. The daemons are
# stopped by their pid files and the folder removed on every exit.
#
# Usage: tests/slurm/slurm_cluster_test.sh CLI BATCH_SCRIPT
# Needs root, the Slurm and munge binaries and strace; exits 77 ("skipped") with the reason otherwise.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
slurmd_timeout=5
nodes=(n1 n2 n3)
declare -A slurmd_pids=()
cli=$(realpath "${1:?CLI}")
h200_record=$(realpath "$(dirname "$0")/../data/h200/h200-host-record.host.json")
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
command -v strace >/dev/null || skip "no strace: install strace (packaging/install-build-deps.sh does)"
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
    for node in "${nodes[@]}"; do
        stop_daemon "slurmd $node" "$tmp/slurmd-$node.pid" "${slurmd_pids[$node]:-}"
    done
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
    timeout 60 "$@" &
    waiting_pid=$!
    local status=0
    wait "$waiting_pid" || status=$?
    waiting_pid=
    return $status
}

# Four free TCP ports in a row (slurmctld's, then a slurmd's per node) in a range no Slurm uses by default (6817/6818).
port_free() {
    local hex
    hex=$(printf '%04X' "$1")
    ! awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
for _ in $(seq 50); do
    ctld_port=$((20000 + RANDOM % 30000))
    port_free "$ctld_port" && port_free $((ctld_port + 1)) && port_free $((ctld_port + 2)) &&
        port_free $((ctld_port + 3)) && break
done

echo "== munged"
mungekey --create --keyfile="$tmp/munge/munge.key" --bits=1024
chmod 400 "$tmp/munge/munge.key"
socket="$tmp/munge/munge.socket"
munged --socket="$socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed"

echo "== slurm.conf for ${nodes[*]} on $host, ports $ctld_port to $((ctld_port + 3))"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=asyncscopetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
# A node that stops answering is DOWN after this (the controller pings every third of it).
SlurmdTimeout=$slurmd_timeout
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
$(for i in 1 2 3; do
    echo "NodeName=n$i NodeHostname=n$i NodeAddr=127.0.0.1 Port=$((ctld_port + i)) CPUs=$(nproc) RealMemory=100 State=UNKNOWN"
done)
PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=INFINITE State=UP
CONF

echo "== slurmctld and a slurmd per node, each in a UTS namespace named after its node"
slurmctld -D -f "$SLURM_CONF" </dev/null >"$tmp/log/slurmctld.out" 2>&1 &
ctld_pid=$!
start_node() {
    local node=$1
    mkdir -p "$tmp/spool/$node"
    # unshare and sh exec: the pid started is slurmd's.
    unshare --uts sh -c "hostname $node && exec slurmd -D -N $node -f '$SLURM_CONF'" </dev/null \
        >"$tmp/log/slurmd-$node.out" 2>&1 &
    slurmd_pids[$node]=$!
}
for node in "${nodes[@]}"; do
    start_node "$node"
done
# Waits until every node is idle (up to 30 s).
wait_idle() {
    local states=
    for _ in $(seq 60); do
        kill -0 "$ctld_pid" 2>/dev/null || { echo "slurm test: slurmctld stopped" >&2; exit 1; }
        states=$(sinfo -h -N -o '%N=%t' 2>/dev/null | sort -u | tr '\n' ' ' || true)
        [ "$states" = "n1=idle n2=idle n3=idle " ] && return 0
        sleep 0.5
    done
    echo "slurm test: the nodes are not idle after 30 s: ${states:-no answer}" >&2
    exit 1
}
wait_idle
sinfo
echo "cluster up after $((SECONDS - started)) s"

echo "== the batch script, with sbatch --wait"
cd "$tmp/job"
mkdir results
# A record an earlier job left: the merge must not take it.
echo '{"stale": true}' >results/oldhost-0.json
touch -d '1 hour ago' results/oldhost-0.json
job_status=0
bounded env ASYNCSCOPE_CLI="$cli" ASYNCSCOPE_ARGS="--runs 3" sbatch -N 3 --wait "$batch" --warmup 0 >sbatch.out 2>&1 ||
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

check "the job ran on the three nodes" grep -q "on 3 node(s) (n\[1-3\])" job.out
check "ASYNCSCOPE_ARGS and the script's arguments reached the CLI" grep -q -- "--runs 3 --warmup 0\$" job.out
if [ -n "$expected_error" ]; then
    # Device discovery failed: the CLI names each node's one record HOST-NODE-tTASK-none.json and writes the host,
    # its Slurm task and the error into it.
    check "the job failed as the nodes' runs did (exit status 1, was $job_status)" test "$job_status" -eq 1
    for node in "${nodes[@]}"; do
        record=$(compgen -G "results/$node-$node-t[0-9]*-none.json" | head -n 1 || true)
        check "$node left its record (results/$node-$node-tN-none.json)" test -s "$record"
        check "$node's record names its host" grep -Eq "\"host\": *\"$node\"" "$record"
        check "$node's record names its Slurm node and job" \
            grep -Eq "\"job\": *\"$job_id\", *\"node\": *\"$node\"" <(tr -d '\n' <"$record")
        check "$node's record carries $expected_error" grep -Eq "\"code_name\": *\"$expected_error\"" "$record"
        check "the merged table has a row for $node with the error" grep -q "^$node .*$expected_error" job.out
        check "results/merged.csv has a row for $node with $expected_error" \
            grep -q "^$node,.*$expected_error" results/merged.csv
    done
    check "results/merged.json has three rows" test "$(grep -Ec '"host": *"n[1-3]"' results/merged.json)" -eq 3
else
    check "the job succeeded (exit status 0, was $job_status)" test "$job_status" -eq 0
    for node in "${nodes[@]}"; do
        check "$node left a record per GPU" compgen -G "results/$node-$node-t[0-9]*-[0-9]*.json"
        check "the merged table has a row for $node" grep -q "^$node " job.out
    done
fi
check "no node was reported lost" lacks job.out "no record"
check "the record an earlier job left is not merged" lacks job.out oldhost
check "merged.json leaves the earlier record out" lacks results/merged.json oldhost
check "the job's state is what its exit status says" \
    grep -q "JobState=$([ "$job_status" -eq 0 ] && echo COMPLETED || echo FAILED)" <(scontrol show job "$job_id")

echo "== a node crashed while the job runs: n2's CLI held as it writes its record until all of n2 is killed"
# The CLI the job runs here. On n2 it is the real one, stopped (SIGSTOP, from strace) as it enters its first write
# (where no GPU answers, that of its record; the record was opened before anything ran): the write does not happen
# (strace answers it with EINTR, which the CLI never sees), so n2 dies with its record open and empty, as a node lost
# in the middle of a measurement does. n1 and n3 write the record a GPU node writes (the H200 host record kept in
# tests/data, under their own host names), so that the survivors succeed as GPU nodes do and only the lost node can
# fail the job; the merge is the real CLI's.
hold_at_first_write="strace -f -o /dev/null -e trace=write -e inject=write:error=EINTR:signal=SIGSTOP:when=1"
cat >slow-on-n2.sh <<SLOW
#!/usr/bin/env bash
case " \$* " in *" --merge "*) exec "$cli" "\$@" ;; esac
if [ "\${SLURMD_NODENAME:-}" = n2 ]; then
    touch "$tmp/job/n2-began"
    exec $hold_at_first_write "$cli" "\$@"
fi
out=
while [ \$# -gt 0 ]; do
    [ "\$1" = --output ] && out=\$2
    shift
done
out=\${out//%h/\$(hostname -s)}
out=\${out//%d/0}
sed "s/\"host\": *\"vm\"/\"host\": \"\$(hostname -s)\"/" "$h200_record" >"\${out//%%/%}"
SLOW
chmod +x slow-on-n2.sh
crash_id=$(env ASYNCSCOPE_CLI="$tmp/job/slow-on-n2.sh" ASYNCSCOPE_RESULTS=results-crash ASYNCSCOPE_ARGS="--runs 3" \
    sbatch --parsable -N 3 --output=job-crash.out "$batch" | cut -d';' -f1)
echo "Submitted batch job $crash_id"
# n2's CLI, stopped: a process named asyncscope-cli in n2's UTS namespace, in state T (stopped) or t (tracing stop).
n2_uts=$(readlink "/proc/${slurmd_pids[n2]}/ns/uts")
n2_cli_stopped() {
    local p
    for p in $(pgrep -x asyncscope-cli); do
        [ "/proc/$p/ns/uts" -ef "/proc/${slurmd_pids[n2]}/ns/uts" ] &&
            grep -Eq '^State:[[:space:]]+[Tt]' "/proc/$p/status" 2>/dev/null && return 0
    done
    return 1
}
for _ in $(seq 150); do
    n2_cli_stopped && break
    sleep 0.2
done
check "n2's task began" test -e n2-began
check "n2's CLI stands still as it writes its record" n2_cli_stopped
echo "n2's record, open: $(cd results-crash && find . -maxdepth 1 -name '*n2-n2-t*' -printf '%f (%s bytes) ')"
check "n2's CLI has its record open" test -n "$(find results-crash -maxdepth 1 -name '*n2-n2-t*')"
# A crash: every process whose UTS namespace is n2's, its slurmd, slurmstepd and the task, killed at once.
crashed_at=$SECONDS
for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/uts" 2>/dev/null)" = "$n2_uts" ] && kill -KILL "${p#/proc/}" 2>/dev/null
done
echo "n2 crashed (every process in UTS namespace $n2_uts killed)"
# The job's end, polled more often than sbatch --wait does (it waits ever longer between looks).
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o "$2=[^ ]*" | cut -d= -f2; }
for _ in $(seq 600); do
    case $(job_state "$crash_id" JobState) in
    PENDING | CONFIGURING | RUNNING | COMPLETING | "") sleep 0.2 ;;
    *) break ;;
    esac
done
crash_status=$(job_state "$crash_id" ExitCode | cut -d: -f1)
echo "the job ended $((SECONDS - crashed_at)) s after the crash: $(job_state "$crash_id" JobState), exit status $crash_status"
sleep 0.5 # the job's output is complete when slurmstepd has closed it
cat job-crash.out || true
echo "---- results-crash: $(ls -A results-crash)"
check "the job ended with exit status 1 (was $crash_status)" test "$crash_status" -eq 1
check "n2 left no file under a record's name" test -z "$(compgen -G 'results-crash/n2-*' || true)"
check "n2's unfinished record stays under its hidden temporary name" \
    test -n "$(compgen -G 'results-crash/.n2-n2-t[0-9]*-none.json.partial-*' || true)"
check "the job's output names n2 as lost" grep -q "n2 left no record" job-crash.out
check "the merge did not fail" lacks job-crash.out "the merge failed"
check "srun itself said nothing failed (the script's status comes from the records)" \
    lacks job-crash.out "a node's run failed"
check "the merged table has the row for n2" grep -q "^n2 .*no record: node failed (or was lost before writing)" job-crash.out
for node in n1 n3; do
    check "the merged table has $node's row of figures" grep -q "^$node  *0  *NVIDIA H200 .* 2\.5[0-9]*" job-crash.out
    check "results-crash/merged.csv has $node's row" grep -q "^$node," results-crash/merged.csv
done
check "results-crash/merged.csv has n2's row" grep -q "^n2,.*no record: node failed" results-crash/merged.csv
check "results-crash/merged.json has n2's row" grep -q "no record: node failed" results-crash/merged.json
check "the job was not requeued" grep -q "Requeue=0" <(scontrol show job "${crash_id:-0}")
# n2 back for what follows.
start_node n2
scontrol update NodeName=n2 State=RESUME >/dev/null 2>&1 || true
wait_idle

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
