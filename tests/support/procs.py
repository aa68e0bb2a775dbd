"""Processes as the fault tests watch them (from /proc): a process's
children, whether one still runs, and waiting for a condition. Shared by
tests/python/test_faults.py and tests/regress/test_regress.py."""

import os
import time


def children_of(pid):
    """Pids whose parent is pid (from /proc/*/stat)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


def alive(pid):
    """Running (a zombie waiting for a reaper is dead)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(cond, limit):
    """True once cond() holds, polling every 50 ms for at most `limit` s."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()
