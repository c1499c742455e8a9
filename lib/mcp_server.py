"""Serve one environment over MCP (official `mcp` SDK, an optional extra): each client session is its own episode.

    python -m lib.mcp_server runs/tiny/03_filter/envs/<id> --transport stdio
    python -m lib.mcp_server runs/tiny/03_filter/envs/<id> --transport http --port 8765   # http://127.0.0.1:8765/mcp

Tools are the environment's tools (env.schemas: name, description, parameters -> inputSchema). A result comes
back as one text block holding json.dumps(result), the same text the agent sees in training; a structured
error from Episode.call ({"error", "message"}) comes back as an MCP tool error (isError: true) with that JSON.
Which episode a call runs in:
  - handshake-era connections (stdio, HTTP with an Mcp-Session-Id, in-process mode="legacy"): one episode per
    connection, opened on its first call and closed with it;
  - stateless 2026-07-28 requests: the episode named by `_meta["agent-world-mini/episode"]` (any string; at
    most --max-episodes kept, least recently used dropped); without a name, the process-wide episode under
    stdio (one client per process) and an error elsewhere.
"""
import argparse
import json
from collections import OrderedDict

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from lib.envs import Env, error

EPISODE_META = "agent-world-mini/episode"


def mcp_tools(env):
    """The environment's OpenAI-style schemas as MCP tools (parameters become inputSchema)."""
    return [types.Tool(name=s["function"]["name"], description=s["function"].get("description", ""),
                       input_schema=s["function"].get("parameters") or {"type": "object", "properties": {}})
            for s in env.schemas]


def tool_result(result):
    """An Episode.call result as a CallToolResult; a structured error becomes an MCP tool error."""
    failed = isinstance(result, dict) and set(result) == {"error", "message"}
    text = json.dumps(result, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=failed)


class Episodes:
    """Which episode a request runs in: per connection, per client-chosen name, or one per process (stdio)."""

    def __init__(self, env, seed=0, process_default=False, max_named=1000):
        self.env, self.seed, self.process_default, self.max_named = env, seed, process_default, max_named
        self.named = OrderedDict()  # name -> (episode, lock), least recently used first
        self.opened = 0

    def _open(self):
        self.opened += 1
        return self.env.episode(self.seed), anyio.Lock()

    def for_request(self, ctx):
        """(episode, lock) for this request, or an error dict when it names none."""
        # The SDK hands lowlevel handlers the per-connection Connection only through the session's private
        # field; Connection.state is its documented per-connection scratch space and exit_stack its teardown.
        conn = getattr(ctx.session, "_connection", None)
        name = (ctx.meta or {}).get(EPISODE_META)  # RequestParamsMeta is a TypedDict
        if name is None and conn is not None and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            if "episode" not in conn.state:
                conn.state["episode"] = self._open()
                conn.exit_stack.callback(conn.state["episode"][0].close)
            return conn.state["episode"]
        if name is None and self.process_default:
            name = ""
        if name is None:
            return error("no_episode", f"a stateless request must name its episode in _meta[{EPISODE_META!r}] "
                                       "(or connect with the initialize handshake: one episode per session)")
        if name not in self.named:
            self.named[name] = self._open()
            while len(self.named) > self.max_named:
                self.named.popitem(last=False)[1][0].close()
        self.named.move_to_end(name)
        return self.named[name]


def make_server(env, seed=0, process_default=False, max_named=1000):
    """An MCP lowlevel Server for a loaded Env; its Episodes object is server.episodes (for tests)."""
    episodes = Episodes(env, seed, process_default, max_named)
    tools = mcp_tools(env)

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params):
        got = episodes.for_request(ctx)
        if isinstance(got, dict):
            return tool_result(got)
        episode, lock = got
        async with lock:  # calls on one episode are one transaction each, in arrival order
            if env.sandbox:  # a sandbox worker blocks on a pipe: keep the event loop free
                result = await anyio.to_thread.run_sync(episode.call, params.name, params.arguments or {})
            else:
                result = episode.call(params.name, params.arguments or {})
        return tool_result(result)

    server = Server(f"agent-world-mini/{env.id}", version="1",
                    instructions=env.meta.get("description"), on_list_tools=list_tools, on_call_tool=call_tool)
    server.episodes = episodes
    return server


async def serve_stdio(server):
    """Serve one client over stdin/stdout until it disconnects."""
    from mcp.server.stdio import stdio_server
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def serve_http(server, host, port):
    """Serve many clients over streamable HTTP at http://host:port/mcp (one episode per Mcp-Session-Id)."""
    import uvicorn
    app = server.streamable_http_app(host=host)
    uvicorn.run(app, host=host, port=port, log_level="warning")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    p.add_argument("env_dir", help="environment folder (env.json, db.sqlite, tools.py)")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio", help="stdio: one client; http: many")
    p.add_argument("--host", default="127.0.0.1", help="HTTP bind address")
    p.add_argument("--port", type=int, default=8765, help="HTTP port")
    # Runtime
    p.add_argument("--seed", type=int, default=0, help="episode seed (ids from db.new_id, the same in every episode)")
    p.add_argument("--sandbox", action="store_true", help="run tools in lib.sandbox workers (untrusted tools.py)")
    p.add_argument("--max-episodes", type=int, default=1000, help="named (stateless) episodes kept, LRU")
    args = p.parse_args()
    env = Env(args.env_dir, sandbox=args.sandbox)
    server = make_server(env, args.seed, process_default=args.transport == "stdio", max_named=args.max_episodes)
    if args.transport == "stdio":
        anyio.run(serve_stdio, server)
    else:
        import sys
        print(f"mcp_server: {env.id}, {len(env.schemas)} tools, http://{args.host}:{args.port}/mcp", file=sys.stderr)
        serve_http(server, args.host, args.port)
