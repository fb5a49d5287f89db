/**
 * `coverage mcp --help`'s text after the options: the tools, and the configuration each common
 * client expects (docs/mcp.md shows the same; a test holds them together).
 */
export const MCP_CLIENT_CONFIG = `
Tools: search_policies, get_policy, lookup_code, coverage_matrix, policy_versions,
diff_policy_versions, recent_updates, check_claim, list_payers, list_lobs. Each answers with what the
matching command gives with --json (structuredContent) and a short text naming the data source
and its date. The backend is the CLI's: the live API when one is configured (the key from
\`coverage config set api-key\` or COVERAGE_API_KEY, never a tool's input), else the local
engine over the bundled data, --data FILE or a snapshot (--data medicare). stdout carries the
protocol only; logs go to stderr. Ready in well under a second; stops when the client closes
stdin.

Claude Desktop (claude_desktop_config.json):
  {
    "mcpServers": {
      "coverage": { "command": "coverage", "args": ["--data", "medicare", "mcp"] }
    }
  }

Claude Code (.mcp.json in the project, or: claude mcp add coverage -- coverage mcp):
  {
    "mcpServers": {
      "coverage": { "command": "coverage", "args": ["mcp"] }
    }
  }

VS Code (.vscode/mcp.json):
  {
    "servers": {
      "coverage": { "type": "stdio", "command": "coverage", "args": ["mcp"] }
    }
  }

Cursor (~/.cursor/mcp.json, or .cursor/mcp.json in the project):
  {
    "mcpServers": {
      "coverage": { "command": "coverage", "args": ["mcp"] }
    }
  }

A client started from a desktop may not have your PATH: give the full path of coverage
(\`command -v coverage\`) or run it with "command": "npx", "args": ["coverage", "mcp"].

Examples:
  $ coverage mcp
  $ coverage --data medicare mcp
  $ coverage --api-url https://api.example.com mcp
`;
