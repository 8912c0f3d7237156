// Manual interop check (not run by cargo): the official TypeScript ACP client
// (@agentclientprotocol/sdk, which validates every message against the schema)
// drives `wright acp` against a `wright-mock --scenario read-write` server:
//   npm install @agentclientprotocol/sdk@2.4.0
//   wright-mock --provider anthropic --scenario read-write   # prints URL
//   node ts-sdk-check.mjs path/to/wright URL /tmp/project [fs]  # with input.txt in it
// With `fs` the client offers fs/read_text_file (answered with an "unsaved
// buffer") and fs/write_text_file (saved to disk, as Zed does): wright reads
// the buffer after its own open, and its write goes through the editor.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { writeFileSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";

const [wright, url, project, fsMode] = process.argv.slice(2);
const fs = fsMode === "fs";
const child = spawn(wright, ["--provider", "anthropic", "--model", "m", "--base-url", url, "acp"], {
  cwd: project,
  stdio: ["pipe", "pipe", "inherit"],
  env: { ...process.env, ANTHROPIC_API_KEY: "sk-test-FAKE", WRIGHT_LOCAL_SERVER_PORTS: "", WRIGHT_MAX_RETRIES: "0" },
});
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const updates = [];
const asked = [];
const reads = [];
const writes = [];
const result = await acp
  .client({ name: "ts-check" })
  .onRequest(acp.methods.client.session.requestPermission, (ctx) => {
    asked.push(ctx.params);
    return { outcome: { outcome: "selected", optionId: ctx.params.options[0].optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, (ctx) => {
    reads.push(ctx.params.path);
    return { content: "UNSAVED EDITOR TEXT\n" };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, (ctx) => {
    writes.push(ctx.params.path);
    writeFileSync(ctx.params.path, ctx.params.content);
    return {};
  })
  .onNotification(acp.methods.client.session.update, (ctx) => {
    updates.push(ctx.params.update);
  })
  .connectWith(stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
    });
    const session = await ctx.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
    const prompt = await ctx.request(acp.methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "copy input.txt to output.txt" }],
    });
    const mode = await ctx.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: "plan" });
    const opt = session.configOptions[0];
    const model = await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId: session.sessionId, configId: opt.id, value: opt.options[1].value });
    return { init, session, prompt, mode, model };
  });
child.stdin.end();
console.log(JSON.stringify({
  agent: result.init.agentInfo,
  modes: result.session.modes.availableModes.map((m) => m.id),
  stopReason: result.prompt.stopReason,
  modelOption: { before: result.session.configOptions[0].currentValue, offered: result.session.configOptions[0].options.length, after: result.model.configOptions[0].currentValue },
  editorReads: reads,
  editorWrites: writes,
  permissionAskedFor: asked.map((a) => a.toolCall.title),
  updateKinds: updates.map((u) => u.sessionUpdate + (u.status ? ":" + u.status : "") + (u.kind ? ":" + u.kind : "")),
}, null, 1));
