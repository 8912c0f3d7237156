#!/usr/bin/env python3
"""Measures wright's start-up and the shell-command scenario against wright-mock.

Each run is a fresh process. Wall time is measured around spawn and wait.
Peak RSS comes from GNU time's %M in the same runs: wait4() from Python would
count the forked interpreter's pages before exec. Time to first request is the
mock's receive timestamp minus the spawn time (time's own start-up included, so
it slightly overstates).
"""
import os, statistics, subprocess, sys, tempfile, time

RUNS = int(os.environ.get("BENCH_RUNS", "30"))
WRIGHT = os.path.abspath("target/release/wright")
MOCK = os.path.abspath("target/release/wright-mock")


def run_once(argv, cwd, env):
    with tempfile.NamedTemporaryFile("r") as rss_file:
        start = time.time_ns()
        status = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + argv,
                                 cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        end = time.time_ns()
        if status != 0:
            sys.exit(f"run failed: {argv}")
        peak_kb = int(rss_file.read().split()[-1])
    return start, (end - start) / 1e6, peak_kb / 1024


def report(name, walls, rss, firsts=None):
    walls.sort()
    line = (f"{name:<34} wall median {statistics.median(walls):7.2f} ms  "
            f"p90 {walls[int(len(walls) * 0.9) - 1]:7.2f} ms  peak RSS max {max(rss):5.1f} MB")
    if firsts:
        line += f"  first request median {statistics.median(firsts):6.2f} ms"
    print(line)


def bench_version():
    walls, rss = [], []
    for _ in range(RUNS):
        _, wall, peak = run_once([WRIGHT, "--version"], ".", dict(os.environ))
        walls.append(wall); rss.append(peak)
    report("wright --version", walls, rss)


def bench_scenario(provider, scenario="echo-hello", prompt=None):
    requests_per_run = 2 if scenario == "echo-hello" else 1
    mock = subprocess.Popen([MOCK, "--provider", provider, "--scenario", scenario, "--loop",
                             "--timestamps"], stdout=subprocess.PIPE, text=True)
    url = mock.stdout.readline().strip()
    base = url if provider == "anthropic" else url + "/v1"
    home = tempfile.mkdtemp()
    env = {"PATH": os.environ["PATH"], "HOME": home, "NO_COLOR": "1",
           "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
           "ANTHROPIC_API_KEY": "bench", "OPENAI_API_KEY": "bench"}
    walls, rss, firsts = [], [], []
    try:
        for _ in range(RUNS):
            project = tempfile.mkdtemp()
            start, wall, peak = run_once(
                [WRIGHT, "-p", prompt or "run `echo hello > out.txt && cat out.txt` and tell me what the file says",
                 "--provider", provider, "--model", "bench-model", "--base-url", base, "--permission-mode", "bypass"],
                project, env)
            walls.append(wall); rss.append(peak)
            stamps = [int(mock.stdout.readline().split()[2]) for _ in range(requests_per_run)]
            firsts.append((stamps[0] - start) / 1e6)
            if scenario == "echo-hello":
                with open(os.path.join(project, "out.txt")) as f:
                    assert f.read() == "hello\n"
    finally:
        mock.kill()
    report(f"scenario {scenario} ({provider})", walls, rss, firsts)
    return statistics.median(walls), statistics.median(firsts)


if __name__ == "__main__":
    print(f"{RUNS} runs each, {os.cpu_count()} cores")
    bench_version()
    for p in ("anthropic", "openai-chat"):
        bench_scenario(p)
        # One request and no tool: wall minus time to the request is what a
        # request costs wright itself (stream parsing, events, output, exit).
        wall, first = bench_scenario(p, "text", "say hello")
        print(f"{'per-request overhead (' + p + ')':<34} ~{wall - first:.2f} ms (text scenario wall - time to first request)")
