#!/usr/bin/env python3
"""Generates the search benchmark's tree: 10,000 source-like files in a git
repository (so rg and wright apply the same .gitignore), deterministic.

usage: gen_tree.py DIR [FILES]

Words: `quasar_flux` is in 1 file in 100 (about 100 files: under every
cap, so results are comparable with rg's); `return` is nearly everywhere
(a broad query that hits the tools' cap). An ignored `build/` directory
and a hidden `.cache/` hold files that must not be found.
"""
import os, random, subprocess, sys

root = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
rng = random.Random(18)
words = ("alpha beta gamma delta value index buffer result return struct impl "
         "fn let mut self match some none ok err vec string parse write read").split()
exts = [".rs", ".py", ".ts", ".go", ".md", ".txt", ".json", ".c"]

os.makedirs(root, exist_ok=True)
for i in range(count):
    d = os.path.join(root, f"pkg{i % 40:02d}", f"mod{(i // 40) % 25:02d}")
    os.makedirs(d, exist_ok=True)
    lines = []
    for n in range(rng.randint(20, 200)):
        lines.append(" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))))
    if i % 100 == 7:
        lines.insert(rng.randrange(len(lines)), "let quasar_flux = compute();")
    with open(os.path.join(d, f"file{i:05d}{exts[i % len(exts)]}"), "w") as f:
        f.write("\n".join(lines) + "\n")
for ignored in ("build", ".cache"):
    d = os.path.join(root, ignored)
    os.makedirs(d, exist_ok=True)
    for i in range(50):
        with open(os.path.join(d, f"gen{i}.rs"), "w") as f:
            f.write("let quasar_flux = generated();\n")
with open(os.path.join(root, ".gitignore"), "w") as f:
    f.write("build/\n")
subprocess.run(["git", "init", "-q", root], check=True)
