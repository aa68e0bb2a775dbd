#!/usr/bin/env bash
# Self-test of `scripts/regress --slurm` on a REAL single-node SLURM cluster
# started here on localhost: munged with a generated key, slurmctld and slurmd
# with a generated slurm.conf, all state in a temporary folder, private ports.
# Runs a sweep of N seeds of scenarios/selftest_vadd.yaml as a job array,
# checks that the merged JUnit has N passing testcases; then a network run
# split over its inputs as a job array (`cosim run scenarios/resnet8.yaml
# --set inputs=4 --slurm --jobs 2`), whose merged report.json must equal the
# same run in one process (--jobs 1) but for host timing; and shuts
# everything down (trap), also on failure or Ctrl-C.
#
#   scripts/slurm/selftest.sh            (make slurm-selftest)
#   TASKS=20  number of seeds / array tasks (default 20)
#   BUILD=build, COSIM=BUILD/tb/cosim/cosim   the binary under test; when it
#             does not exist the fake cosim of tests/regress is used (said so)
#   FAKE=1    force the fake cosim;  KEEP=1  keep the temp folder
#
# Installs munge, slurmctld, slurmd, slurm-client from Debian when missing
# (needs root or password-less sudo). Every wait is bounded; a daemon that
# does not come up fails the test with the tail of its log.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
TASKS=${TASKS:-20}
BUILD=${BUILD:-$REPO/build}
COSIM=${COSIM:-$BUILD/tb/cosim/cosim}
PACKAGES=(munge slurmctld slurmd slurm-client)

say() { echo "slurm-selftest: $*"; }
TMP=""
FAILED=1
PIDS=()  # daemons we started, killed in reverse order

show_log() {  # name file
  echo "---- last lines of $1 ($2) ----" >&2
  tail -n 25 "$2" >&2 2>/dev/null || echo "(no log)" >&2
  echo "----" >&2
}

# A daemon that died stays a zombie until reaped, so kill -0 is not enough.
alive() {
  local st
  st=$(cat "/proc/$1/status" 2>/dev/null) || return 1
  ! grep -q '^State:[[:space:]]*Z' <<<"$st"
}

die() {
  echo "slurm-selftest: FAIL: $*" >&2
  exit 1
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ ${#PIDS[@]} -ge 2 ] && alive "${PIDS[1]}"; then
    # Jobs first, so no slurmstepd outlives its slurmd.
    local jobs
    jobs=$(timeout 10 squeue -h -o %A 2>/dev/null | sort -u)
    if [ -n "$jobs" ]; then
      say "cancelling leftover jobs: $(echo $jobs)"
      timeout 10 scancel $jobs 2>/dev/null
      for _ in $(seq 20); do
        [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
        sleep 0.5
      done
    fi
  fi
  local i pid
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    pid=${PIDS[i]}
    alive "$pid" || { wait "$pid" 2>/dev/null; continue; }
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do alive "$pid" || break; sleep 0.2; done
    if alive "$pid"; then
      say "pid $pid ignored SIGTERM, killing"
      kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
  done
  [ ${#PIDS[@]} -gt 0 ] && say "daemons stopped"
  if [ -n "$TMP" ]; then
    if [ "$FAILED" -eq 0 ] && [ -z "${KEEP:-}" ]; then
      rm -rf "$TMP"
    else
      say "kept $TMP (logs in $TMP/log)"
    fi
  fi
  exit "$rc"
}
trap cleanup EXIT
RPID=""
on_signal() {
  say "interrupted"
  if [ -n "$RPID" ]; then
    kill -TERM "$RPID" 2>/dev/null
    wait "$RPID" 2>/dev/null
  fi
  exit 130
}
trap on_signal INT TERM

# ---- tools ------------------------------------------------------------------
missing=()
for tool in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "missing ${missing[*]}; installing Debian packages ${PACKAGES[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""
  elif sudo -n true 2>/dev/null; then SUDO="sudo"
  else die "not root: run  sudo apt-get install -y ${PACKAGES[*]}  and retry"; fi
  export DEBIAN_FRONTEND=noninteractive
  timeout 900 $SUDO apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null ||
    { timeout 600 $SUDO apt-get update -qq && \
      timeout 900 $SUDO apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null; } ||
    die "apt-get install ${PACKAGES[*]} failed"
fi
# The daemons run as root here (SlurmUser=root): fine for a throw-away cluster.
[ "$(id -u)" -eq 0 ] || die "the daemons need root (SlurmUser=root in the generated slurm.conf)"

if [ -n "${FAKE:-}" ] || [ ! -x "$COSIM" ]; then
  [ -z "${FAKE:-}" ] && say "NOTE: $COSIM not built; using the FAKE cosim (tests/regress/fake_cosim.py)"
  COSIM=$REPO/tests/regress/fake_cosim.py
  WHICH="fake cosim"
else
  WHICH="real cosim ($COSIM)"
fi

TMP=$(mktemp -d /tmp/cosim-slurm.XXXXXX) || die "mktemp failed"
mkdir -p "$TMP/munge" "$TMP/state" "$TMP/spool" "$TMP/log"
chmod 755 "$TMP" "$TMP/munge"
export SLURM_CONF=$TMP/slurm.conf
# Keep an enclosing job's environment out of our private cluster.
unset SLURM_JOB_ID SLURM_JOBID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID

# ---- munge ------------------------------------------------------------------
KEY=$TMP/munge/munge.key
SOCK=$TMP/munge/munge.sock
if command -v mungekey >/dev/null 2>&1; then
  mungekey --create --keyfile="$KEY" || die "mungekey failed"
else
  dd if=/dev/urandom of="$KEY" bs=1024 count=1 status=none || die "cannot write $KEY"
fi
chmod 600 "$KEY"
munged -F --force --socket="$SOCK" --key-file="$KEY" --pid-file="$TMP/munge/munged.pid" \
  --seed-file="$TMP/munge/munged.seed" >"$TMP/log/munged.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do
  alive "${PIDS[0]}" || break
  timeout 5 munge -S "$SOCK" -n 2>/dev/null | timeout 5 unmunge -S "$SOCK" >/dev/null 2>&1 && break
  sleep 0.2
done
timeout 5 munge -S "$SOCK" -n 2>/dev/null | timeout 5 unmunge -S "$SOCK" >/dev/null 2>&1 ||
  { show_log munged "$TMP/log/munged.log"; die "munged did not come up within 10 s"; }
say "munged up (pid ${PIDS[0]}, socket $SOCK)"

# ---- slurm.conf -------------------------------------------------------------
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
CPUS=$(nproc); [ "$CPUS" -gt 2 ] && CPUS=2
cat >"$SLURM_CONF" <<EOF
# Generated by scripts/slurm/selftest.sh: a throw-away single-node cluster.
ClusterName=cosimselftest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
say "slurm.conf in $SLURM_CONF (slurmctld port $CTLD_PORT, slurmd port $SLURMD_PORT, $CPUS CPUs)"

# ---- slurmctld, slurmd --------------------------------------------------------
slurmctld -D -c -i -f "$SLURM_CONF" >"$TMP/log/slurmctld.out" 2>&1 &
PIDS+=($!)
up=0
for _ in $(seq 60); do
  alive "${PIDS[1]}" || break
  timeout 5 scontrol ping 2>/dev/null | grep -q "is UP" && { up=1; break; }
  sleep 0.5
done
[ $up -eq 1 ] || { show_log slurmctld "$TMP/log/slurmctld.log"; show_log "slurmctld stderr" "$TMP/log/slurmctld.out"
                   alive "${PIDS[1]}" && die "slurmctld did not answer within 30 s"
                   die "slurmctld exited at start"; }
say "slurmctld up (pid ${PIDS[1]})"

slurmd -D -N localhost -f "$SLURM_CONF" >"$TMP/log/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for i in $(seq 60); do
  alive "${PIDS[2]}" || break
  state=$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null)
  [ "$state" = "idle" ] && break
  # A node remembered as down (ReturnToService covers most cases) is resumed once.
  if [ "$i" -eq 20 ] && [ -n "$state" ]; then
    timeout 5 scontrol update nodename=localhost state=resume 2>/dev/null
  fi
  sleep 0.5
done
if [ "$state" != "idle" ]; then
  show_log slurmd "$TMP/log/slurmd.log"; show_log "slurmd stderr" "$TMP/log/slurmd.out"
  timeout 5 sinfo -R >&2 2>/dev/null
  alive "${PIDS[2]}" || die "slurmd exited at start"
  die "slurmd: node localhost not idle within 30 s (state '${state:-none}')"
fi
say "slurmd up (pid ${PIDS[2]}), node localhost idle"
timeout 10 sinfo

# ---- the sweep ---------------------------------------------------------------
say "sweep: $TASKS seeds of selftest_vadd as a SLURM job array, $WHICH"
cd "$REPO" || die "cannot cd $REPO"
JUNIT=$TMP/out/junit.xml
t0=$(date +%s)
# In the background so that a signal reaches our trap at once (bash defers
# traps while a foreground child runs); SIGTERM makes regress scancel the array.
# regress bounds itself: --slurm-wait, and a time limit on every squeue call.
python3 "$REPO/scripts/regress" --slurm --cosim "$COSIM" --filter '^selftest_vadd$' \
  --seeds "$TASKS" --out "$TMP/out" --junit "$JUNIT" --timeout 120 --slurm-wait 480 --slurm-poll 1 &
RPID=$!
wait "$RPID"
rc=$?
RPID=""
t1=$(date +%s)
[ $rc -eq 0 ] || { show_log slurmctld "$TMP/log/slurmctld.log"; die "regress --slurm exited $rc"; }

# ---- checks ---------------------------------------------------------------------
python3 - "$JUNIT" "$TASKS" "$TMP/out/slurm" <<'EOF' || die "merged JUnit check failed"
import os, sys, xml.etree.ElementTree as ET
junit, tasks, logs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
root = ET.parse(junit).getroot()
cases = list(root.iter("testcase"))
names = sorted(int(c.get("name").split("-")[1]) for c in cases)
bad = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
ran = [f for f in os.listdir(logs) if f.startswith("task-") and "task " in open(os.path.join(logs, f)).read()]
print(f"slurm-selftest: merged JUnit: {len(cases)} testcases (want {tasks}), failing {len(bad)}, "
      f"seeds {names[0] if names else '-'}..{names[-1] if names else '-'}; {len(ran)} task logs from SLURM")
ok = len(cases) == tasks and names == list(range(1, tasks + 1)) and not bad and len(ran) == tasks
sys.exit(0 if ok else 1)
EOF
say "sweep: $TASKS array tasks in $((t1 - t0)) s"

# ---- a network run split over its inputs -------------------------------------------
NET="split network run skipped (fake cosim)"
if [ "$WHICH" != "fake cosim" ]; then
  if [ ! -f "$REPO/../shared/models/resnet8_int8.tflite" ]; then
    NET="split network run skipped: no ../shared/models/resnet8_int8.tflite"
    say "NOTE: $NET"
  else
    say "network: scenarios/resnet8.yaml, 4 inputs as a 2-task SLURM job array, against one process"
    t2=$(date +%s)
    "$COSIM" run scenarios/resnet8.yaml --set inputs=4 --jobs 1 --out "$TMP/net/single" >"$TMP/net_single.txt" 2>&1
    rc1=$?
    # In the background, like the sweep: cosim scancels its array on SIGTERM.
    timeout 600 "$COSIM" run scenarios/resnet8.yaml --set inputs=4 --slurm --jobs 2 --out "$TMP/net/slurm" \
      >"$TMP/net_slurm.txt" 2>&1 &
    RPID=$!
    wait "$RPID"
    rc2=$?
    RPID=""
    t3=$(date +%s)
    sed 's/^/  | /' "$TMP/net_slurm.txt" | head -8
    [ "$rc1" -eq "$rc2" ] || die "split network run: exit status $rc2 under SLURM, $rc1 in one process"
    grep -q "split over 2 processes (a SLURM job array)" "$TMP/net_slurm.txt" || die "the --slurm run did not split"
    grep -q "SLURM job [0-9]*: 2 tasks done" "$TMP/net_slurm.txt" || die "the --slurm run named no SLURM job"
    python3 - "$REPO" "$TMP/net" <<'EOF' || die "split network run: report.json differs from one process's"
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "input_slices"))
from test_input_slices import diff, strip
net = sys.argv[2]
one = json.load(open(os.path.join(net, "single", "report.json")))
arr = json.load(open(os.path.join(net, "slurm", "report.json")))
problems = diff(strip(one), strip(arr))
for p in problems[:20]:
    print("slurm-selftest:   " + p)
print(f"slurm-selftest: merged report.json vs one process: {len(problems)} differences; status {arr.get('status')}, "
      f"cycles {arr.get('cycles')}")
sys.exit(1 if problems or one.get("status") != "pass" else 0)
EOF
    NET="a network over 4 inputs as a 2-task array in $((t3 - t2)) s, same report as one process"
  fi
fi
FAILED=0
say "PASS: $TASKS array tasks on a real single-node SLURM in $((t1 - t0)) s; $NET; $WHICH"
