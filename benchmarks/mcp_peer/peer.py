"""The FastMCP peer of benchmarks/mcp_server.py: the fixture's ``lookup`` tool as a Python function.

FastMCP ships in the mcp SDK 2.x as ``mcp.server.mcpserver.MCPServer`` (renamed from FastMCP). The
function has the same parameters, bounds and structured output as tests/fixtures/mcp_specs'
``lookup`` with tests/mcp_handlers.py's handler, so both servers do the same work per call.
Run: ``python peer.py stdio`` or ``python peer.py http PORT``.
"""

from __future__ import annotations

import sys
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

app = MCPServer("peer")


class Population(BaseModel):
    city: str
    population: Annotated[int, Field(ge=0)]


@app.tool(title="Look up a city")
def lookup(
    city: Annotated[str, Field(min_length=2, description="The city's name.")],
    limit: Annotated[int | None, Field(ge=1, description="At most this many results.")] = None,
) -> Population:
    """Looks up a city and returns its population."""
    return Population(city=city, population=len(city) * 1000 + (limit or 0))


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        app.run("stdio")
    else:
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
