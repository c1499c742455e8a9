"""Code shared by two or more stages (and the tests): run folders, environments, sandbox, LLM client."""
