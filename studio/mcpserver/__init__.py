"""The studio's spec tools as an MCP server (`proto-studio mcp`): other agents author a library
prototype through the validated tools; every write lands in a draft the designer reviews in the
studio (`drafts.py` keeps it in the library, `server.py` serves the tools, `cli.py` the command).
"""
