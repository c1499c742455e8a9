"""TEST DOUBLE: a real local HTTP server speaking OpenAI /v1/chat/completions that answers from a script.

    with ScriptedLLMServer(["hi", {"status": 500}, {"content": "", "tool_calls": [...]}]) as server:
        client = OpenAIClient(base_url=server.base_url, model="m")

The script is a list of response specs, answered in order (one per request; when it runs out the
server answers HTTP 500 "script exhausted"), or a callable (request_json) -> spec. A spec is
  "text"                            assistant content
  {"content", "tool_calls", "finish_reason", "usage"}   any subset; tool_calls are
                                    [{"name", "arguments": dict or raw JSON string}]
  {"delay": s, ...}                 wait s seconds, then answer the rest of the spec
  {"status": 500}                   an HTTP error (429, 503, 400, ...) with an OpenAI error body
  {"garbage": True}                 HTTP 200 whose body is not JSON
  {"truncate": True}                finish_reason "length" and the content cut in half
  {"hang": s}                       never answer (for s seconds, default 30; True = 30), then drop
  {"body": {...}}                   send this JSON body verbatim
Every request body is recorded in server.requests and its headers in server.headers, in arrival order.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


def completion(spec, request, model):
    """An OpenAI chat.completion body for a content/tool_calls/finish_reason/usage spec."""
    content = spec.get("content") or ""
    if spec.get("truncate"):
        content = content[: len(content) // 2]
    calls = [{"id": f"call_{i}", "type": "function",
              "function": {"name": c.get("name"), "arguments": c["arguments"] if isinstance(c.get("arguments"), str)
                           else json.dumps(c.get("arguments", {}))}}
             for i, c in enumerate(spec.get("tool_calls") or [])]
    finish = "length" if spec.get("truncate") else spec.get("finish_reason", "tool_calls" if calls else "stop")
    # default usage: whitespace words, so tests can hand-check numbers
    prompt_words = sum(len(str(m.get("content") or "").split()) for m in request.get("messages", []))
    usage = spec.get("usage", {"prompt_tokens": prompt_words, "completion_tokens": len(content.split())})
    usage = {**usage, "total_tokens": usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)}
    # like vLLM and OpenAI: content is null when the answer is only tool calls
    message = {"role": "assistant", "content": content or (None if calls else "")}
    if calls:
        message["tool_calls"] = calls
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}


class _HTTPServer(ThreadingHTTPServer):
    """ThreadingHTTPServer with a deeper listen backlog."""

    request_queue_size = 128  # read at bind time; the default 5 drops bursts from many workers


class ScriptedLLMServer:
    """A threaded HTTP server on 127.0.0.1:<free port> that answers chat completions from a script."""

    def __init__(self, script, model="scripted-model"):
        self.script, self.model = script, model
        self.requests, self.headers = [], []
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.httpd = _HTTPServer(("127.0.0.1", 0), _handler(self))
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = None

    def start(self):
        """Serve in a daemon thread; returns self."""
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()
        return self

    def close(self):
        """Stop serving, wake hanging handlers and free the port."""
        self.closed.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def next_spec(self, request, headers):
        """Record the request and pick its spec from the script."""
        with self.lock:
            index = len(self.requests)
            self.requests.append(request)
            self.headers.append(headers)
            if not callable(self.script):
                if index >= len(self.script):
                    return {"status": 500, "message": f"scripted server: script exhausted at request {index}"}
                return self.script[index]
        return self.script(request)  # outside the lock so a slow callable doesn't serialise requests


def _handler(server):
    """A request handler class bound to one ScriptedLLMServer."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, like a real inference server
        disable_nagle_algorithm = True  # headers and body go out as two writes: Nagle would add ~40 ms each

        def log_message(self, *args):
            pass  # keep pytest output clean

        def send(self, status, body, content_type="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout): nothing to answer

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                request = json.loads(raw)
            except ValueError:
                request = None
            if not self.path.endswith("/chat/completions") or not isinstance(request, dict):
                return self.send(404 if request is not None else 400, {"error": {"message": "bad path or body"}})
            try:
                spec = server.next_spec(request, dict(self.headers))
            except Exception as e:  # a broken test script should show up as a readable 500
                spec = {"status": 500, "message": f"scripted server: script raised {e!r}"}
            spec = {"content": spec} if isinstance(spec, str) else dict(spec)
            if spec.get("delay"):
                server.closed.wait(spec["delay"])
            if spec.get("hang"):
                server.closed.wait(30 if spec["hang"] is True else spec["hang"])
                self.close_connection = True
                return
            if "status" in spec:
                message = spec.get("message", f"scripted error {spec['status']}")
                return self.send(spec["status"], {"error": {"message": message, "code": spec["status"]}})
            if spec.get("garbage"):
                return self.send(200, b"<html>502 Bad Gateway</html> not json {", "application/json")
            if "body" in spec:
                return self.send(200, spec["body"])
            self.send(200, completion(spec, request, server.model))

    return Handler


@pytest.fixture
def scripted_llm():
    """Factory fixture: scripted_llm(script, **kw) -> a started ScriptedLLMServer, closed after the test."""
    servers = []

    def start(script, **kw):
        servers.append(ScriptedLLMServer(script, **kw).start())
        return servers[-1]

    yield start
    for s in servers:
        s.close()
