export { createInboxMcpServer, SERVER_NAME, SERVER_VERSION, TOOL_NAMES, type InboxMcpServerOptions } from './server.js';
export { runStdioServer, type StdioOptions } from './stdio.js';
export { createInboxApi, inboxApiFromSdk, type InboxApiOptions } from './sdk-inbox-api.js';
export { InboxApiError, type InboxApi } from './inbox-api.js';
export type { ToolCache } from './tool-context.js';
export { answerMcpRequest } from './http.js';
