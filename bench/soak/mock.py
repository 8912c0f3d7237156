#!/usr/bin/env python3
"""A loopback Anthropic Messages mock for the soak bench.

Answers every request from its last message, so one server drives any
number of turns: a new user prompt gets one tool call (cycling through
Bash, Read, Write, Edit, Glob, Grep and LS, some with large outputs), a
tool result gets a short text answer that ends the turn, and a
compaction request (its prompt asks for a summary) gets a summary.
Reported input tokens are the request's size / 4, so compaction
triggers as it would against a real server. Prints its URL on stdout.
"""
import http.server, itertools, json, sys

calls = itertools.count()
turn = itertools.count()
edits = itertools.count()


def tool_for(n):
    big = n % 10 == 0
    return [
        ("Bash", {"command": "seq 1 %d" % (20000 if big else 50)}),
        ("Read", {"file_path": "big.txt" if big else "small.txt"}),
        ("Write", {"file_path": "out/f%d.txt" % (n % 50), "content": "line\n" * (2000 if big else 5)}),
        None,
        ("Glob", {"pattern": "**/*.txt"}),
        ("Grep", {"pattern": "line", "output_mode": "content" if big else "files_with_matches"}),
        ("LS", {"path": "out"}),
    ][n % 7] or edit()


def edit():
    e = next(edits)
    return ("Edit", {"file_path": "edit.txt", "old_string": "v%d." % e, "new_string": "v%d." % (e + 1)})


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        req = json.loads(body)
        last = req["messages"][-1]
        content = last["content"]
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        text = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        is_result = any(b.get("type") == "tool_result" for b in blocks)
        system = json.dumps(req.get("system", ""))
        # A compaction request asks for a summary; the prompts of the soak never do.
        if "summar" in (text + system).lower() and not is_result and not text.startswith("soak turn"):
            step = ("text", "Summary: the user runs a soak test; files out/*.txt were written.")
        elif is_result:
            step = ("text", "Done with that step.")
        else:
            step = ("tool", tool_for(next(turn)))
        events = []

        def ev(t, d):
            events.append(f"event: {t}\ndata: {json.dumps(d)}\n\n")

        ev("message_start", {"type": "message_start", "message": {
            "id": "msg_soak", "type": "message", "role": "assistant", "model": "soak-model",
            "content": [], "stop_reason": None,
            "usage": {"input_tokens": len(body) // 4, "output_tokens": 1}}})
        if step[0] == "text":
            ev("content_block_start", {"type": "content_block_start", "index": 0,
                                       "content_block": {"type": "text", "text": ""}})
            ev("content_block_delta", {"type": "content_block_delta", "index": 0,
                                       "delta": {"type": "text_delta", "text": step[1]}})
            stop = "end_turn"
        else:
            name, args = step[1]
            ev("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
                "type": "tool_use", "id": "toolu_soak%08d" % next(calls), "name": name, "input": {}}})
            ev("content_block_delta", {"type": "content_block_delta", "index": 0,
                                       "delta": {"type": "input_json_delta", "partial_json": json.dumps(args)}})
            stop = "tool_use"
        ev("content_block_stop", {"type": "content_block_stop", "index": 0})
        ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop},
                             "usage": {"output_tokens": 20}})
        ev("message_stop", {"type": "message_stop"})
        out = "".join(events).encode()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
