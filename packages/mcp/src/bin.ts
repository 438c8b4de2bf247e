#!/usr/bin/env node
import { runStdioServer } from './stdio.js';

/*
 * `capture-inbox-mcp`: the stdio server on its own, configured by the environment only, for
 * agents that start it with `npx @capture-inbox/mcp`. `cin mcp` runs the same server with the
 * CLI's saved key.
 */
const baseUrl = process.env.CAPTURE_INBOX_URL;
const token = process.env.CAPTURE_INBOX_TOKEN;
if (!baseUrl || !token) {
  process.stderr.write('capture-inbox-mcp: set CAPTURE_INBOX_URL (e.g. https://inbox.example.com) and CAPTURE_INBOX_TOKEN (an API key, cin_…)\n');
  process.exit(3);
}
await runStdioServer({ baseUrl, token });
