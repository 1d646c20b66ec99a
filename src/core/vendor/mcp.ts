// The MCP SDK's server and stdio transport and zod (its schema language) as a bundle of their own (dist/vendor/mcp.js):
// loaded by load.ts when `rag-inspector mcp` starts (src/cli/mcp.ts), so no other command parses them.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';
