"""Shared pytest set-up: make the repo root (lib/, numbered stages) and tests/ importable."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from scripted_llm_server import scripted_llm  # noqa: E402,F401  (the fixture, for every test module)
