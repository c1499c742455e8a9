"""lib/mcp_server.py with the official SDK's own client: tools and schemas, reads, writes, tool errors, one
episode per session (isolation), named episodes on the stateless protocol, and the stdio and HTTP entry points."""
import json
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

from lib import example_env  # noqa: E402
from lib.envs import Env  # noqa: E402
from lib.mcp_server import EPISODE_META, make_server  # noqa: E402

ROOT = __file__.rsplit("/tests/", 1)[0]
ORDER = {"customer_id": "c001", "book_id": "b0001", "quantity": 2}


@pytest.fixture(scope="module")
def env_dir(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("mcp") / "bookshop")
    example_env.build(d)
    Env(d)  # derive and cache tools.json once, so server processes start without transformers
    return d


def text(result):
    """The one text block of a tool result, parsed."""
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


def test_tools_reads_writes_errors_and_session_isolation(env_dir):
    env = Env(env_dir)
    server = make_server(env)
    book = env.episode().call("get_book", {"book_id": "b0001"})  # the initial row, straight from the runtime

    async def main():
        async with Client(server, mode="legacy") as a, Client(server, mode="legacy") as b:
            listed = (await a.list_tools()).tools
            assert [t.name for t in listed] == ["get_book", "search_books", "place_order", "cancel_order"]
            assert [t.input_schema for t in listed] == [s["function"]["parameters"] for s in env.schemas]
            assert listed[2].input_schema["required"] == ["customer_id", "book_id"]
            r = await a.call_tool("get_book", {"book_id": "b0001"})
            assert not r.is_error and text(r) == book
            r = await a.call_tool("place_order", ORDER)
            order = text(r)
            assert not r.is_error and order["quantity"] == 2 and order["total"] == round(2 * book["price"], 2)
            assert order["created_at"] == "2025-06-02T09:00:02Z"  # the episode clock: second call of session A
            assert text(await a.call_tool("get_book", {"book_id": "b0001"}))["stock"] == book["stock"] - 2
            # session B is its own episode: A's write is invisible there, and B's first call is at tick 1
            assert text(await b.call_tool("get_book", {"book_id": "b0001"})) == book
            r = await b.call_tool("cancel_order", {"order_id": order["id"]})
            assert r.is_error and text(r) == {"error": "tool_error",
                                               "message": f"ValueError: no order with id '{order['id']}'"}
            r = await b.call_tool("get_book", {"book_id": 5})
            assert r.is_error and text(r)["error"] == "invalid_arguments"
            r = await b.call_tool("no_such_tool", {})
            assert r.is_error and text(r)["error"] == "unknown_tool"
            assert server.episodes.opened == 2
        async with Client(server, mode="legacy") as c:  # a new session starts from the initial state again
            assert text(await c.call_tool("get_book", {"book_id": "b0001"})) == book
    anyio.run(main)


def test_stateless_protocol_uses_named_episodes(env_dir):
    server = make_server(Env(env_dir), max_named=1)

    async def main():
        async with Client(server) as c:  # mode "auto" in-process: the stateless 2026-07-28 protocol
            assert c.protocol_version == "2026-07-28"
            r = await c.call_tool("get_book", {"book_id": "b0001"})
            assert r.is_error and text(r)["error"] == "no_episode"
            a, b = {EPISODE_META: "A"}, {EPISODE_META: "B"}
            stock = text(await c.call_tool("get_book", {"book_id": "b0001"}, meta=a))["stock"]
            assert not (await c.call_tool("place_order", ORDER, meta=a)).is_error
            assert text(await c.call_tool("get_book", {"book_id": "b0001"}, meta=a))["stock"] == stock - 2
            assert text(await c.call_tool("get_book", {"book_id": "b0001"}, meta=b))["stock"] == stock
            # max_named=1: opening B dropped A, so A starts again from the initial state
            assert text(await c.call_tool("get_book", {"book_id": "b0001"}, meta=a))["stock"] == stock
    anyio.run(main)


def test_stdio_entry_point(env_dir):
    params = StdioServerParameters(command=sys.executable, args=["-m", "lib.mcp_server", env_dir], cwd=ROOT)

    async def main():
        async with Client(params) as c:  # stateless protocol, but stdio is one client per process: one episode
            assert c.protocol_version == "2026-07-28"
            stock = text(await c.call_tool("get_book", {"book_id": "b0002"}))["stock"]
            assert not (await c.call_tool("place_order", {**ORDER, "book_id": "b0002", "quantity": 1})).is_error
            assert text(await c.call_tool("get_book", {"book_id": "b0002"}))["stock"] == stock - 1
    anyio.run(main)


def test_http_entry_point_one_server_many_sessions(env_dir):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "lib.mcp_server", env_dir, "--transport", "http",
                             "--port", str(port)], cwd=ROOT, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}/mcp"

        async def main():
            async with Client(url, mode="legacy") as a, Client(url, mode="legacy") as b:
                stock = text(await a.call_tool("get_book", {"book_id": "b0003"}))["stock"]
                assert not (await a.call_tool("place_order", {**ORDER, "book_id": "b0003", "quantity": 1})).is_error
                assert text(await a.call_tool("get_book", {"book_id": "b0003"}))["stock"] == stock - 1
                assert text(await b.call_tool("get_book", {"book_id": "b0003"}))["stock"] == stock
                assert len((await b.list_tools()).tools) == 4
        anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
