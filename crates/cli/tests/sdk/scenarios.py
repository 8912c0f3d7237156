"""Scenarios of the real Claude Agent SDK (Python) driving wright.

Run by crates/cli/tests/suite/sdk_python.rs: `python scenarios.py NAME`,
with WRIGHT (the binary) and the provider variables pointing at the
loopback mock in the environment, and the working directory set to the
test's project. Each scenario asserts what a program written for Claude
Code would see; any failure is an exception and a non-zero exit.
"""

import json
import os
import sys

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
    create_sdk_mcp_server,
    query,
    tool,
)

WRIGHT = os.environ["WRIGHT"]
CWD = os.getcwd()


def options(**kw):
    return ClaudeAgentOptions(cli_path=WRIGHT, cwd=CWD, **kw)


def report(name, value):
    print(json.dumps({name: value}), flush=True)


def tool_results(messages):
    return [
        b
        for m in messages
        if isinstance(m, UserMessage) and isinstance(m.content, list)
        for b in m.content
        if isinstance(b, ToolResultBlock)
    ]


async def collect(client):
    out = []
    async for m in client.receive_response():
        out.append(m)
    return out


async def query_bash():
    seen = []
    opts = options(permission_mode="acceptEdits", allowed_tools=["Bash"])
    async for m in query(prompt="run echo", options=opts):
        seen.append(m)
    init = seen[0]
    assert isinstance(init, SystemMessage) and init.subtype == "init", init
    assert init.data["permissionMode"] == "acceptEdits", init.data
    assert "Bash" in init.data["tools"], init.data
    uses = [b for m in seen if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ToolUseBlock)]
    assert uses and uses[0].name == "Bash", seen
    results = tool_results(seen)
    assert results and "hello-from-bash" in str(results[0].content) and not results[0].is_error, results
    texts = [b.text for m in seen if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, TextBlock)]
    assert texts == ["The command printed hello."], texts
    result = seen[-1]
    assert isinstance(result, ResultMessage) and result.subtype == "success" and not result.is_error, result
    assert result.result == "The command printed hello.", result
    assert result.num_turns == 2 and result.usage["input_tokens"] > 0, result
    assert result.total_cost_usd is not None and result.model_usage, result
    report("session_id", result.session_id)


async def multi_turn():
    async with ClaudeSDKClient(options(permission_mode="acceptEdits")) as client:
        await client.query("first question")
        first = await collect(client)
        await client.query("second question")
        second = await collect(client)
    assert isinstance(first[-1], ResultMessage) and first[-1].result == "answer one", first
    assert isinstance(second[-1], ResultMessage) and second[-1].result == "answer two", second
    assert first[-1].session_id == second[-1].session_id


async def can_use_tool():
    asked = []

    async def decide(tool, tool_input, context):
        asked.append(tool)
        assert context.tool_use_id in ("c1", "c2"), context.tool_use_id
        if tool == "Write":
            return PermissionResultAllow(updated_input=tool_input)
        return PermissionResultDeny(message="not on my machine")

    async with ClaudeSDKClient(options(can_use_tool=decide)) as client:
        await client.query("write and run")
        seen = await collect(client)
    assert asked == ["Write", "Bash"], asked
    results = tool_results(seen)
    assert not results[0].is_error, results
    assert results[1].is_error and "not on my machine" in str(results[1].content), results
    assert os.path.exists(os.path.join(CWD, "allowed.txt"))
    assert not os.path.exists(os.path.join(CWD, "denied.txt"))
    assert isinstance(seen[-1], ResultMessage) and seen[-1].permission_denials, seen[-1]


async def hook_blocks():
    calls = []

    async def no_bash(hook_input, tool_use_id, context):
        calls.append(hook_input)
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no bash today",
            }
        }

    hooks = {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[no_bash])]}
    async with ClaudeSDKClient(options(permission_mode="bypassPermissions", hooks=hooks)) as client:
        await client.query("touch it")
        seen = await collect(client)
    assert len(calls) == 1 and calls[0]["tool_name"] == "Bash", calls
    assert calls[0]["tool_input"]["command"] == "touch hooked.txt", calls
    assert calls[0]["hook_event_name"] == "PreToolUse", calls
    results = tool_results(seen)
    assert results[0].is_error and "no bash today" in str(results[0].content), results
    assert not os.path.exists(os.path.join(CWD, "hooked.txt"))


async def interrupt():
    async with ClaudeSDKClient(options(permission_mode="bypassPermissions")) as client:
        await client.query("sleep")
        seen = []
        async for m in client.receive_response():
            seen.append(m)
            if isinstance(m, AssistantMessage) and any(isinstance(b, ToolUseBlock) for b in m.content):
                with anyio.fail_after(10):
                    await client.interrupt()
        assert isinstance(seen[-1], ResultMessage) and seen[-1].is_error, seen[-1]
        await client.query("after the interrupt")
        after = await collect(client)
    assert isinstance(after[-1], ResultMessage) and after[-1].result == "still here", after


async def permission_mode():
    async with ClaudeSDKClient(options()) as client:
        await client.query("touch once")
        first = await collect(client)
        await client.set_permission_mode("acceptEdits")
        await client.query("write now")
        second = await collect(client)
    assert tool_results(first)[0].is_error, first
    assert not os.path.exists(os.path.join(CWD, "first.txt"))
    assert not tool_results(second)[0].is_error, second
    assert os.path.exists(os.path.join(CWD, "second.txt"))


async def partial_messages():
    events = []
    async for m in query(prompt="stream", options=options(include_partial_messages=True)):
        if isinstance(m, StreamEvent):
            events.append(m.event["type"])
            assert m.uuid and m.session_id, m
    assert "content_block_delta" in events and "content_block_stop" in events, events


async def resume():
    first_id = None
    async for m in query(prompt="remember the word kumquat", options=options()):
        if isinstance(m, ResultMessage):
            first_id = m.session_id
    assert first_id
    async for m in query(prompt="which word?", options=options(resume=first_id)):
        if isinstance(m, ResultMessage):
            assert m.session_id == first_id, (m.session_id, first_id)
            assert m.result == "kumquat", m


async def rewind_files():
    opts = options(permission_mode="acceptEdits", enable_file_checkpointing=True, extra_args={"replay-user-messages": None})
    path = os.path.join(CWD, "notes.txt")
    async with ClaudeSDKClient(opts) as client:
        await client.query("write one")
        first = await collect(client)
        await client.query("write two")
        second = await collect(client)
        replays = [m for m in second if isinstance(m, UserMessage) and isinstance(m.content, str)]
        assert replays and replays[0].uuid, second
        assert open(path).read() == "two\n"
        await client.rewind_files(replays[0].uuid)
        # Answered once done: the file is back when the await returns.
        assert open(path).read() == "one\n", open(path).read()
        await client.query("after")
        await collect(client)
    assert open(path).read() == "one\n", open(path).read()
    assert first


async def rewind_after_resume():
    opts = {"permission_mode": "acceptEdits", "enable_file_checkpointing": True, "extra_args": {"replay-user-messages": None}}
    path = os.path.join(CWD, "notes.txt")
    async with ClaudeSDKClient(options(**opts)) as client:
        await client.query("write one")
        first = await collect(client)
    replays = [m for m in first if isinstance(m, UserMessage) and isinstance(m.content, str)]
    assert replays and replays[0].uuid, first
    assert isinstance(first[-1], ResultMessage), first
    assert open(path).read() == "one\n"
    # A later process resumes the session: the first process's message
    # is still a rewind point, behind this process's own edit.
    async with ClaudeSDKClient(options(resume=first[-1].session_id, **opts)) as client:
        await client.query("write two")
        await collect(client)
        assert open(path).read() == "two\n"
        await client.rewind_files(replays[0].uuid)
        assert not os.path.exists(path), "notes.txt did not exist before the first message"
        try:
            await client.rewind_files("00000000-0000-4000-8000-000000000000")
            raise AssertionError("an unknown message must be an error")
        except AssertionError:
            raise
        except Exception as e:
            assert "00000000-0000-4000-8000-000000000000" in str(e), e


async def thinking_and_commands():
    from claude_agent_sdk import ThinkingBlock

    async with ClaudeSDKClient(options(include_partial_messages=True)) as client:
        info = await client.get_server_info()
        await client.query("think")
        seen = await collect(client)
    commands = {c["name"]: c for c in info["commands"]}
    assert commands["review"]["description"] == "Review a pull request", info
    assert commands["review"]["argumentHint"] == "[pr-number]", info
    assert commands["compact"]["description"], info
    thinking = [b for m in seen if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, ThinkingBlock)]
    assert thinking and thinking[0].signature == "EqQBCgIYAhIMsig", thinking
    deltas = [m.event["delta"]["type"] for m in seen if isinstance(m, StreamEvent) and m.event["type"] == "content_block_delta"]
    assert "signature_delta" in deltas, deltas


async def sdk_mcp():
    @tool("add", "Adds a and b", {"a": float, "b": float})
    async def add(args):
        return {"content": [{"type": "text", "text": f"sum={args['a'] + args['b']}"}]}

    @tool("fail", "Always fails", {})
    async def fail(args):
        raise RuntimeError("calculator on fire")

    calc = create_sdk_mcp_server(name="calc", version="1.0.0", tools=[add, fail])
    opts = options(mcp_servers={"calc": calc}, permission_mode="bypassPermissions")
    async with ClaudeSDKClient(opts) as client:
        await client.query("add two and three")
        seen = await collect(client)
        status = await client.get_mcp_status()
    init = seen[0]
    assert isinstance(init, SystemMessage) and init.subtype == "init", init
    assert {"name": "calc", "status": "connected"} in init.data["mcp_servers"], init.data
    assert "mcp__calc__add" in init.data["tools"], init.data
    results = tool_results(seen)
    assert len(results) == 2, results
    assert not results[0].is_error and "sum=5" in str(results[0].content), results
    assert results[1].is_error and "calculator on fire" in str(results[1].content), results
    assert isinstance(seen[-1], ResultMessage) and seen[-1].result == "five", seen[-1]
    assert any(s["name"] == "calc" and s["status"] == "connected" for s in status["mcpServers"]), status


async def model_and_agents():
    from claude_agent_sdk import AgentDefinition

    agents = {"reviewer": AgentDefinition(description="Reviews diffs for bugs", prompt="You review.", tools=["Read"])}
    async with ClaudeSDKClient(options(agents=agents)) as client:
        await client.query("first")
        first = await collect(client)
        await client.set_model("other-model")
        await client.query("second")
        await collect(client)
    init = [m for m in first if isinstance(m, SystemMessage) and m.subtype == "init"]
    assert init and "reviewer" in init[0].data["agents"], init


async def image_prompt():
    async def message():
        yield {
            "type": "user",
            "session_id": "",
            "parent_tool_use_id": None,
            "message": {"role": "user", "content": [
                {"type": "text", "text": "what is this?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            ]},
        }

    async with ClaudeSDKClient(options()) as client:
        await client.query(message())
        seen = await collect(client)
    assert isinstance(seen[-1], ResultMessage) and seen[-1].result == "A tiny PNG.", seen[-1]


async def rewritten_input():
    from claude_agent_sdk.types import PermissionRuleValue, PermissionUpdate

    async def sanitize(tool, tool_input, context):
        rule = PermissionUpdate(type="addRules", rules=[PermissionRuleValue(tool_name="Bash", rule_content="ls:*")], behavior="allow", destination="session")
        return PermissionResultAllow(updated_input={"command": "echo SANITIZED"}, updated_permissions=[rule])

    async with ClaudeSDKClient(options(can_use_tool=sanitize)) as client:
        await client.query("list")
        seen = await collect(client)
    results = tool_results(seen)
    assert "SANITIZED" in str(results[0].content), results


async def interrupt_while_asking():
    asked = anyio.Event()
    withdrawn = anyio.Event()

    async def slow(tool, tool_input, context):
        asked.set()
        try:
            await anyio.sleep(30)
        except anyio.get_cancelled_exc_class():
            withdrawn.set()
            raise
        return PermissionResultAllow()

    async with ClaudeSDKClient(options(can_use_tool=slow)) as client:
        await client.query("touch it")
        with anyio.fail_after(20):
            await asked.wait()
            await client.interrupt()
            seen = await collect(client)
            # The question is withdrawn (control_cancel_request), not left open.
            await withdrawn.wait()
    assert isinstance(seen[-1], ResultMessage) and seen[-1].is_error, seen[-1]
    assert not os.path.exists(os.path.join(CWD, "asked.txt"))


async def session_controls():
    servers = {"t": {"command": os.environ["MCP_TEST_SERVER"], "args": []}}
    opts = options(mcp_servers=servers, permission_mode="bypassPermissions")
    async with ClaudeSDKClient(opts) as client:
        await client.query("hello")
        await collect(client)
        usage = await client.get_context_usage()
        assert usage["maxTokens"] > 0 and usage["totalTokens"] > 0, usage
        assert [c["name"] for c in usage["categories"]][0] == "System prompt", usage
        assert 0 < usage["percentage"] <= 100, usage
        await client.toggle_mcp_server("t", False)
        status = await client.get_mcp_status()
        assert {"name": "t", "status": "disabled"} in status["mcpServers"], status
        await client.toggle_mcp_server("t", True)
        await client.reconnect_mcp_server("t")
        status = await client.get_mcp_status()
        assert {"name": "t", "status": "connected"} in status["mcpServers"], status
        try:
            await client.reconnect_mcp_server("nope")
            raise AssertionError("an unknown server must be an error")
        except AssertionError:
            raise
        except Exception as e:
            assert "nope" in str(e), e
        try:
            await client.stop_task("bg-42")
            raise AssertionError("an unknown task must be an error")
        except AssertionError:
            raise
        except Exception as e:
            assert "bg-42" in str(e), e
        await client.query("again")
        await collect(client)


SCENARIOS = {f.__name__: f for f in [session_controls, interrupt_while_asking, rewritten_input, image_prompt, model_and_agents, sdk_mcp, thinking_and_commands, rewind_files, rewind_after_resume, query_bash, multi_turn, can_use_tool, hook_blocks, interrupt, permission_mode, partial_messages, resume]}

if __name__ == "__main__":
    anyio.run(SCENARIOS[sys.argv[1]])
    print("OK", flush=True)
