#!/usr/bin/env node
// Launcher for wright: finds the native binary in the per-platform package
// npm installed beside this one (an optional dependency whose `os`/`cpu`
// fields match this machine) and runs it with this process's stdio,
// arguments and environment, passing its exit code and signals through.
"use strict";

const { spawn } = require("child_process");
const path = require("path");

const PLATFORMS = {
  "linux-x64": "wright-cli-linux-x64",
  "linux-arm64": "wright-cli-linux-arm64",
  "darwin-x64": "wright-cli-darwin-x64",
  "darwin-arm64": "wright-cli-darwin-arm64",
  "win32-x64": "wright-cli-win32-x64",
};

function binaryPath() {
  if (process.env.WRIGHT_BINARY) {
    return process.env.WRIGHT_BINARY;
  }
  const key = `${process.platform}-${process.arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    fail(
      `wright has no prebuilt binary for ${key}. ` +
        "Build it from source: cargo install --locked --path crates/cli"
    );
  }
  const exe = process.platform === "win32" ? "wright.exe" : "wright";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (_) {
    // Resolve beside this package too (a global install without hoisting).
    try {
      return require.resolve(`${pkg}/bin/${exe}`, {
        paths: [path.join(__dirname, "..", "node_modules")],
      });
    } catch (_) {
      fail(
        `the package ${pkg} (wright's binary for ${key}) is not installed. ` +
          "Reinstall without skipping optional dependencies: npm i -g wright-cli " +
          "(not --omit=optional / --no-optional), or set WRIGHT_BINARY to a wright binary."
      );
    }
  }
}

function fail(message) {
  process.stderr.write(`wright: ${message}\n`);
  process.exit(2);
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit" });

// Signals sent to the launcher go to wright, which decides how to stop
// (Ctrl-C at a terminal reaches both through the process group).
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
for (const signal of forwarded) {
  try {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
      }
    });
  } catch (_) {
    // A signal this platform cannot listen for (Windows).
  }
}

child.on("error", (err) => {
  fail(`cannot run ${child.spawnfile}: ${err.message}`);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal so the caller sees what wright saw.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
