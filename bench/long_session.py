#!/usr/bin/env python3
"""Per-turn cost over a long session: one wright process in stream-json
mode, fed N user turns one at a time against wright-mock (echo-hello in a
loop: each turn is a Bash call and a final answer, two requests), so the
history grows by four messages a turn.

usage: long_session.py WRIGHT MOCK [TURNS]
       (BENCH_HOME=DIR keeps HOME and the project, and so the session, in DIR)

Prints, for windows of turns around 10, 100 and TURNS, the median wall time
of a turn (what a user waits; includes the mock's own work, which grows with
the request size) and wright's own CPU time per turn (the sum over its
threads of the kernel's per-thread run time, /proc/PID/task/*/schedstat:
the provider's and the command's time excluded).
"""
import json, os, statistics, subprocess, sys, tempfile, time

wright, mock_bin = sys.argv[1], sys.argv[2]
turns = int(sys.argv[3]) if len(sys.argv) > 3 else 300


def cpu_ns(pid):
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


mock = subprocess.Popen([mock_bin, "--provider", "anthropic", "--scenario", "echo-hello", "--loop"],
                        stdout=subprocess.PIPE, text=True)
url = mock.stdout.readline().strip()
# BENCH_HOME keeps the session (HOME and project inside it) for the
# --continue benchmark; otherwise both are fresh temporary directories.
home = os.environ.get("BENCH_HOME") or tempfile.mkdtemp()
project = os.path.join(home, "project")
os.makedirs(project, exist_ok=True)
env = {"PATH": os.environ["PATH"], "HOME": home, "NO_COLOR": "1",
       "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
       "ANTHROPIC_API_KEY": "bench"}
proc = subprocess.Popen([wright, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
                         "--verbose", "--provider", "anthropic", "--model", "bench-model", "--base-url", url,
                         "--permission-mode", "bypass", "--max-turns", "1000000"],
                        cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
walls, cpus = [], []
try:
    for n in range(turns):
        line = json.dumps({"type": "user", "message": {"role": "user", "content": f"turn {n}: run it"}})
        c0, t0 = cpu_ns(proc.pid), time.perf_counter_ns()
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        while True:
            out = proc.stdout.readline()
            if not out:
                sys.exit(f"wright ended at turn {n}")
            if '"type":"result"' in out.replace(" ", ""):
                break
        t1, c1 = time.perf_counter_ns(), cpu_ns(proc.pid)
        walls.append((t1 - t0) / 1e6)
        cpus.append(max(c1 - c0, 0) / 1e6)
finally:
    proc.stdin.close()
    proc.wait(timeout=30)
    mock.kill()

print(f"{turns} turns (4 messages each), medians over 9-turn windows")
print("| turn | wall per turn (ms) | wright CPU per turn (ms) |")
print("|---:|---:|---:|")
for at in sorted({10, 100, turns}):
    lo, hi = max(at - 5, 0), min(at + 4, turns)
    print(f"| {at} | {statistics.median(walls[lo:hi]):.2f} | {statistics.median(cpus[lo:hi]):.2f} |")
