#!/usr/bin/env python3
"""The terminal UI's speed from outside, in a pseudo-terminal (100x30):

1. start-up to a ready composer: from spawning `wright` to its first frame
   (the status line) arriving on the terminal, over RUNS runs;
2. a keypress to the screen while idle: a key written to the terminal
   until its character comes back drawn;
3. streaming at 200 tokens/s: a paced Anthropic-shaped mock (this script)
   streams a long markdown answer in ~1-token deltas every 5 ms; reports the
   CPU the UI thread (named `wright-tui`) and the whole process use over the
   stream, and keypress latency while it streams.

The script answers the terminal queries a real terminal would (cursor
position, device attributes). Nothing here is a test: numbers only.

usage: bench/tui_pty.py WRIGHT_BINARY [RUNS]
"""

import http.server
import json
import os
import pty
import select
import signal
import statistics
import struct
import sys
import tempfile
import threading
import time
import fcntl
import termios

ROWS, COLS = 30, 100
DELTA_EVERY = 0.005  # 200 tokens/s


def answer_text():
    section = (
        "## Step\n\nThe **parser** reads `tokens` one at a time and keeps a *stack* of "
        "open blocks; see [the docs](https://example.com) for more. 日本語 and emoji 🎉.\n\n"
        "- first item with some words\n- second item with `code`\n  1. nested\n\n"
        "```rust\nfn main() {\n    let v: Vec<u32> = (0..10).map(|i| i * 2).collect();\n"
        "    println!(\"{v:?}\");\n}\n```\n\n| name | value |\n|---|---:|\n| a | 1 |\n"
        "| b | 22 |\n\n> a quote to finish\n\n"
    )
    code = "```rust\n" + "".join(
        f"    let value_{i} = compute(\"item {i}\", &table[{i}..]).unwrap_or_default(); // step {i}\n"
        for i in range(58)
    ) + "```\n\n"
    return "".join(section + (code if i % 2 == 0 else "") for i in range(12))


class Mock(http.server.BaseHTTPRequestHandler):
    """POST /v1/messages: one text answer, paced."""

    protocol_version = "HTTP/1.1"
    stream_start = None
    stream_end = None

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        self.rfile.read(length)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()

        def send(name, data):
            body = f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(body), body))
            self.wfile.flush()

        send("message_start", {"type": "message_start", "message": {
            "id": "msg_bench", "type": "message", "role": "assistant", "model": "m",
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}})
        send("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}})
        text = answer_text()
        pieces = [text[i:i + 4] for i in range(0, len(text), 4)]
        Mock.stream_start = time.monotonic()
        due = Mock.stream_start
        for p in pieces:
            due += DELTA_EVERY
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            send("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": p}})
        Mock.stream_end = time.monotonic()
        send("content_block_stop", {"type": "content_block_stop", "index": 0})
        send("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                               "usage": {"output_tokens": len(pieces)}})
        send("message_stop", {"type": "message_stop"})
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class Term:
    """wright in a pty; output collected with arrival times."""

    def __init__(self, binary, url, home, project):
        self.t_spawn = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.chdir(project)
            env = {
                "PATH": os.environ.get("PATH", ""),
                "HOME": home,
                "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                "XDG_DATA_HOME": os.path.join(home, ".local/share"),
                "TERM": "xterm-256color",
                "WRIGHT_LOCAL_SERVER_PORTS": "",
                "WRIGHT_MAX_RETRIES": "0",
                "ANTHROPIC_API_KEY": "sk-ant-bench-not-a-key",
            }
            os.execve(binary, [binary, "--provider", "anthropic", "--model", "m",
                               "--base-url", url], env)
        self.pid, self.fd = pid, fd
        self.out = bytearray()
        self.events = []  # (time, offset after the chunk)
        self.lock = threading.Lock()
        self.alive = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while self.alive:
            try:
                r, _, _ = select.select([self.fd], [], [], 0.5)
                if not r:
                    continue
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            now = time.monotonic()
            with self.lock:
                self.out += chunk
                self.events.append((now, len(self.out)))
            if b"\x1b[6n" in chunk:
                os.write(self.fd, b"\x1b[1;1R")
            if b"\x1b[c" in chunk:
                os.write(self.fd, b"\x1b[?62c")

    def wait_for(self, needle, since=0, timeout=60.0):
        """When `needle` first arrived after offset `since`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                i = self.out.find(needle, since)
                if i >= 0:
                    for t, off in self.events:
                        if off >= i + len(needle):
                            return t
            time.sleep(0.0005)
        raise TimeoutError(f"no {needle!r} on the terminal")

    def offset(self):
        with self.lock:
            return len(self.out)

    def send(self, data):
        os.write(self.fd, data)

    def close(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        self.alive = False
        os.close(self.fd)


def ui_thread_cpu(pid):
    """CPU seconds of the `wright-tui` thread and of the whole process."""
    ui = 0.0
    total = 0.0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
        except OSError:
            continue
        total += ns / 1e9
        if name == "wright-tui":
            ui += ns / 1e9
    return ui, total


def key_latency(term, samples, pause):
    out = []
    for _ in range(samples):
        since = term.offset()
        t0 = time.monotonic()
        term.send("¤".encode())
        t1 = term.wait_for("¤".encode(), since, timeout=10)
        out.append((t1 - t0) * 1000)
        time.sleep(pause)
        term.send(b"\x7f")
        time.sleep(pause)
    return out


def summary(ms):
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"median {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms (n {len(ms)})"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    binary = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Mock)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        project = os.path.join(tmp, "project")
        os.makedirs(home)
        os.makedirs(project)
        # 1. Start-up.
        starts = []
        for _ in range(runs):
            term = Term(binary, url, home, project)
            ready = term.wait_for(b"default")
            starts.append((ready - term.t_spawn) * 1000)
            term.close()
        print(f"start-up to a ready composer: {summary(starts)}")
        # 2 and 3 in one session.
        term = Term(binary, url, home, project)
        term.wait_for(b"default")
        time.sleep(0.5)
        print(f"keypress to screen, idle: {summary(key_latency(term, 30, 0.05))}")
        term.send(b"go\r")
        while Mock.stream_start is None:
            time.sleep(0.001)
        time.sleep(0.3)
        ui0, all0 = ui_thread_cpu(term.pid)
        t0 = time.monotonic()
        during = key_latency(term, 20, 0.1)
        while Mock.stream_end is None:
            time.sleep(0.01)
        ui1, all1 = ui_thread_cpu(term.pid)
        wall = time.monotonic() - t0
        print(f"keypress to screen, while streaming: {summary(during)}")
        print(f"streaming at 200 tokens/s for {wall:.1f} s: UI thread {100 * (ui1 - ui0) / wall:.1f}% "
              f"of one core, whole process {100 * (all1 - all0) / wall:.1f}%")
        term.close()
    server.shutdown()


if __name__ == "__main__":
    main()
