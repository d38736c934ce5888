"""errata for coding agents: the MCP server (stdio and streamable HTTP)."""
