/**
 * @ledgerport/mcp: an MCP server over a running Ledgerport API (packages/mcp/README.md).
 */
export { createLedgerportMcpServer, SERVER_NAME, SERVER_VERSION, type AuditEntry, type ServerOptions } from './server.ts';
export { CONFIRMATION_TTL_MS, Confirmations, canonicalJson, type WriteRequest } from './confirm.ts';
export { LedgerportGateway, ToolInputError, operationsOf, type ApiOptions } from './api.ts';
export { MCP_USAGE, McpConfigError, apiOptionsFrom, mcpEntry, runMcp, startHttpServer } from './main.ts';
