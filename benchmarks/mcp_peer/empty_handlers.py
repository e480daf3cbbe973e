"""An empty handler namespace: benchmarks/mcp_server.py serves the bundled catalog with --lenient
to time start-up and tools/list, which need no handler."""
