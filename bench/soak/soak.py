#!/usr/bin/env python3
"""Soak bench: one wright process, TURNS user turns over
`--input-format stream-json` against bench/soak/mock.py (a tool call of
every kind per cycle, large outputs, compaction on a small window).

Reports RSS (from /proc/PID/status) and per-turn latency at turns
10/100/1000, peak RSS, compactions, the session file's size, and the
`--continue` load cost (a `--continue` run minus a fresh run, medians).
"""
import glob, json, os, shutil, statistics, subprocess, sys, tempfile, time

TURNS = int(os.environ.get("SOAK_TURNS", "1000"))
MARKS = [m for m in (10, 100, 1000) if m <= TURNS]
HERE = os.path.dirname(os.path.abspath(__file__))
WRIGHT = os.path.abspath(os.environ.get("WRIGHT", os.path.join(HERE, "../../target/release/wright")))
WINDOW = int(os.environ.get("SOAK_WINDOW", "16384"))


def rss_kb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def setup(root):
    home, project = os.path.join(root, "home"), os.path.join(root, "project")
    os.makedirs(os.path.join(home, ".config", "wright"))
    os.makedirs(os.path.join(project, "out"))
    os.makedirs(os.path.join(project, ".git"))
    with open(os.path.join(home, ".config", "wright", "config.toml"), "w") as f:
        f.write(f'[models."soak-model"]\ncontext_window = {WINDOW}\nmax_output = 1024\n'
                '[context]\nkeep_recent_tokens = 2000\n')
    with open(os.path.join(project, "big.txt"), "w") as f:
        f.write("".join(f"line {i} of a large file\n" for i in range(20000)))
    with open(os.path.join(project, "small.txt"), "w") as f:
        f.write("a small file\n")
    with open(os.path.join(project, "edit.txt"), "w") as f:
        f.write("value v0.\n")
    env = {"PATH": os.environ["PATH"], "HOME": home, "NO_COLOR": "1",
           "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
           "ANTHROPIC_API_KEY": "sk-ant-soak-bench-not-a-key", "WRIGHT_MAX_RETRIES": "0"}
    return home, project, env


def flags(url):
    return ["--provider", "anthropic", "--base-url", url, "--model", "soak-model",
            "--permission-mode", "bypass", "--sandbox", "full"]


def soak(url, project, env):
    proc = subprocess.Popen([WRIGHT, "--input-format", "stream-json", "--output-format", "stream-json"]
                            + flags(url), cwd=project, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    rows, latencies, compactions, errors = {}, [], 0, 0
    for turn in range(1, TURNS + 1):
        line = {"type": "user", "message": {"role": "user", "content": f"soak turn {turn}: next step"}}
        start = time.perf_counter()
        proc.stdin.write(json.dumps(line) + "\n")
        proc.stdin.flush()
        while True:
            out = proc.stdout.readline()
            if not out:
                sys.exit(f"wright exited at turn {turn}")
            if "compact" in out and '"system"' in out:
                compactions += 1
            if out.startswith('{"type":"result"') or '"type":"result"' in out[:40]:
                if json.loads(out).get("is_error"):
                    errors += 1
                break
        latencies.append((time.perf_counter() - start) * 1000)
        if turn in MARKS:
            window = latencies[max(0, turn - 10):turn]
            rows[turn] = (rss_kb(proc.pid) / 1024, statistics.median(window))
    peak = rss_kb(proc.pid, "VmHWM") / 1024
    proc.stdin.close()
    proc.wait(timeout=60)
    return rows, peak, compactions, errors


def timed_run(url, project, env, extra):
    start = time.perf_counter()
    subprocess.run([WRIGHT, "-p", "soak turn: one more"] + flags(url) + extra, cwd=project, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000


def main():
    root = tempfile.mkdtemp(prefix="wright-soak-")
    mock = subprocess.Popen([sys.executable, os.path.join(HERE, "mock.py")], stdout=subprocess.PIPE, text=True)
    try:
        url = mock.stdout.readline().strip()
        home, project, env = setup(root)
        began = time.perf_counter()
        rows, peak, compactions, errors = soak(url, project, env)
        total = time.perf_counter() - began
        files = glob.glob(os.path.join(env["XDG_DATA_HOME"], "wright", "sessions", "*", "*.jsonl"))
        session = max(files, key=os.path.getsize)
        size = os.path.getsize(session)
        # --continue grows the session by a turn each run; copy it back so
        # every run loads the same 1,000-turn file.
        saved = session + ".soak"
        shutil.copy(session, saved)
        cont, fresh = [], []
        for _ in range(5):
            shutil.copy(saved, session)
            cont.append(timed_run(url, project, env, ["--continue"]))
            fresh.append(timed_run(url, project, env, ["--no-session-persistence"]
                                   if os.environ.get("SOAK_NO_PERSIST") else []))
        print(f"{TURNS} turns in {total:.1f} s against the mock (window {WINDOW} tokens), "
              f"{compactions} system lines about compaction, {errors} error results")
        print(f"{'turn':>6} {'RSS MB':>8} {'turn latency ms (median of last 10)':>38}")
        for turn, (rss, lat) in rows.items():
            print(f"{turn:>6} {rss:>8.1f} {lat:>38.1f}")
        print(f"peak RSS {peak:.1f} MB")
        if 100 in rows and 1000 in rows:
            print(f"RSS at 1000 vs 100: {100 * (rows[1000][0] / rows[100][0] - 1):+.1f}% (target within ±20%)")
        print(f"session file {size / 1e6:.2f} MB ({session})")
        print(f"--continue run {statistics.median(cont):.1f} ms, fresh run {statistics.median(fresh):.1f} ms, "
              f"load cost ≈ {statistics.median(cont) - statistics.median(fresh):.1f} ms (target < 50 ms)")
    finally:
        mock.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
