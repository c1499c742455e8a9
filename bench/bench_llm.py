"""Benchmark: OpenAIClient.chat_many concurrency against the scripted test-double server.

Every request waits a fixed delay on the server, so the ideal wall time is requests * delay / workers;
efficiency = ideal / measured (target >= 90%). The cache is off, so every request goes over HTTP.
    python bench/bench_llm.py                                   # 200 requests, 16 workers, 100 ms each
    python bench/bench_llm.py --requests 400 --workers 32 --json
"""

import argparse
import json
import os
import platform
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from lib.llm import OpenAIClient  # noqa: E402
from scripted_llm_server import ScriptedLLMServer  # noqa: E402


def run(requests, workers, delay):
    """Send `requests` distinct chats through chat_many; returns the measured numbers."""
    script = lambda req: {"delay": delay, "content": "echo " + req["messages"][0]["content"]}  # noqa: E731
    with ScriptedLLMServer(script) as server:
        client = OpenAIClient(base_url=server.base_url, model="bench", api_key="", workers=workers,
                              retries=0, cache_dir=None, sampling={"temperature": 0.0, "max_tokens": 8})
        batch = [[{"role": "user", "content": f"request {i}"}] for i in range(requests)]
        client.chat_many(batch[:workers])  # warm the connection pool, not timed
        start = time.perf_counter()
        out = client.chat_many(batch)
        seconds = time.perf_counter() - start
    errors = sum("error" in o for o in out)
    ideal = requests * delay / workers
    return {"requests": requests, "workers": workers, "delay_s": delay, "errors": errors,
            "wall_s": round(seconds, 3), "ideal_s": round(ideal, 3), "efficiency": round(ideal / seconds, 3),
            "requests_per_s": round(requests / seconds, 1), "cpus": os.cpu_count(), "python": platform.python_version()}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="number of chat requests")
    parser.add_argument("--workers", type=int, default=16, help="client threads (OpenAIClient workers)")
    parser.add_argument("--delay", type=float, default=0.1, help="server delay per request, seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a markdown row")
    args = parser.parse_args()

    r = run(args.requests, args.workers, args.delay)
    if args.json:
        print(json.dumps(r))
    else:
        print("| benchmark | requests | workers | delay | wall | ideal | efficiency | errors |")
        print("|---|---|---|---|---|---|---|---|")
        print(f"| llm chat_many (scripted server) | {r['requests']} | {r['workers']} | {r['delay_s'] * 1000:.0f} ms "
              f"| {r['wall_s']:.2f} s | {r['ideal_s']:.2f} s | {r['efficiency']:.1%} | {r['errors']} |")
