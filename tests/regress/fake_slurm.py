#!/usr/bin/env python3
"""Minimal sbatch / squeue / scancel stand-ins (picked by the name this file is
linked as) so the runner's SLURM path can be unit-tested without daemons.
State lives in $FAKE_SLURM_DIR. sbatch runs the array's tasks one after the
other in a detached process, as a real node would, with SLURM_ARRAY_TASK_ID
set and stdout in the --output file; FAKE_SLURM_LOSE=3,7 makes those tasks
vanish without running (a lost node)."""

import os
import re
import signal
import subprocess
import sys

STATE = os.environ.get("FAKE_SLURM_DIR", "/tmp/fake-slurm")


def sbatch(argv):
    opts, rest = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and not rest:
            key, _, val = a[2:].partition("=")
            opts[key] = val
        else:
            rest.append(a)
        i += 1
    m = re.fullmatch(r"(\d+)-(\d+)(?:%(\d+))?", opts.get("array", ""))
    if not m or not rest:
        print("sbatch: error: fake sbatch needs --array=A-B and a script", file=sys.stderr)
        return 1
    os.makedirs(STATE, exist_ok=True)
    counter = os.path.join(STATE, "next_id")
    job = int(open(counter).read()) if os.path.exists(counter) else 1000
    with open(counter, "w") as f:
        f.write(str(job + 1))
    lose = {int(x) for x in re.findall(r"\d+", os.environ.get("FAKE_SLURM_LOSE", ""))}
    tasks = [t for t in range(int(m.group(1)), int(m.group(2)) + 1) if t not in lose]
    running = os.path.join(STATE, f"job-{job}.running")
    # The "node": runs each task, then marks the job finished.
    node = ("import os,subprocess,sys\n"
            "job,running,out,cwd=sys.argv[1:5]; script=sys.argv[5:]; tasks=os.environ['FAKE_TASKS'].split()\n"
            "for t in tasks:\n"
            "    env=dict(os.environ,SLURM_ARRAY_TASK_ID=t,SLURM_ARRAY_JOB_ID=job)\n"
            "    with open(out.replace('%a',t),'w') as log:\n"
            "        subprocess.call(['bash']+script,stdout=log,stderr=subprocess.STDOUT,cwd=cwd,env=env)\n"
            "os.remove(running)\n")
    env = dict(os.environ, FAKE_TASKS=" ".join(map(str, tasks)))
    proc = subprocess.Popen([sys.executable, "-c", node, str(job), running, opts.get("output", "/dev/null"),
                             opts.get("chdir", os.getcwd())] + rest, env=env, start_new_session=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(running, "w") as f:
        f.write(str(proc.pid))
    with open(os.path.join(STATE, f"job-{job}.known"), "w") as f:
        f.write(" ".join(argv))
    print(job if "parsable" in opts else f"Submitted batch job {job}")
    return 0


def squeue(argv):
    job = argv[argv.index("-j") + 1]
    if not os.path.exists(os.path.join(STATE, f"job-{job}.known")):
        print("slurm_load_jobs error: Invalid job id specified", file=sys.stderr)
        return 1
    if os.path.exists(os.path.join(STATE, f"job-{job}.running")):
        print(f"{job}_[0-99] RUNNING")
    return 0


def scancel(argv):
    running = os.path.join(STATE, f"job-{argv[0]}.running")
    try:
        pid = int(open(running).read())
        os.killpg(pid, signal.SIGTERM)
        os.remove(running)
    except (OSError, ValueError):
        pass
    return 0


if __name__ == "__main__":
    tool = os.path.basename(sys.argv[0])
    sys.exit({"sbatch": sbatch, "squeue": squeue, "scancel": scancel}[tool](sys.argv[1:]))
