import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startLocalServer } from './mcp-eval/local-server.js';
import { formatReport, runEval } from './mcp-eval/runner.js';
import type { TaskSet } from './mcp-eval/tasks.js';

/**
 * `npm run eval:mcp -- --model NAME`: each task of eval/mcp/tasks.json on a fresh, seeded account
 * of a throwaway local service, through its /mcp tools, driven by any OpenAI-compatible chat
 * endpoint (OPENAI_BASE_URL, default https://api.openai.com/v1, and OPENAI_API_KEY), then judged
 * on the account's end state. Prints each task and the score; --json prints the report as JSON.
 * --task NAME runs the tasks whose name contains NAME. Exit 0 when every task passed, 1 otherwise,
 * 2 on wrong use. docs/mcp.md says what a good score is.
 */
const USAGE = 'usage: npm run eval:mcp -- --model NAME [--task NAME] [--json] [--tasks FILE]';

const { values } = parseArgs({
  options: { model: { type: 'string' }, task: { type: 'string' }, json: { type: 'boolean' }, tasks: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help || !values.model) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}
const apiKey = process.env.OPENAI_API_KEY ?? '';
const baseUrl = process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
const file = values.tasks ?? new URL('../../eval/mcp/tasks.json', import.meta.url);
const set = JSON.parse(await readFile(file, 'utf8')) as TaskSet;
const server = await startLocalServer();
try {
  const only = values.task;
  const report = await runEval(server, set, { baseUrl, apiKey, model: values.model, timeoutMs: 120_000 }, only ? (t) => t.name.includes(only) : undefined);
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  process.exitCode = report.passed === report.total ? 0 : 1;
} finally {
  await server.close();
}
