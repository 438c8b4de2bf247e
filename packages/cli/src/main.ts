import { run } from './run.js';

// Ctrl-C aborts whatever is waiting (the login's polling above all) and the command ends cleanly;
// a second Ctrl-C ends the process at once.
const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort(new Error('interrupted'));
  process.once('SIGINT', () => process.exit(130));
});

// `cin ls | head -1`: the reader left; that is the end of the output, not a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
process.exitCode = code;
