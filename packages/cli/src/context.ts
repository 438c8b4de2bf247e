import { createClient, serverRoot, type CaptureInbox } from '@capture-inbox/sdk';
import { NotLoggedIn, UsageError, type Command } from './command.js';
import { configPath, loginFor, readConfig, type SavedConfig, type SavedLogin } from './config-file.js';
import { displayOf, PLAIN, type Display } from './display.js';

export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface Credentials {
  server: string;
  token: string;
}

/** What a command gets: its parsed flags, the terminal, and the server and key to use. */
export class Context {
  readonly json: boolean;
  readonly configPath: string;
  private saved: Promise<SavedConfig> | undefined;

  constructor(
    readonly command: Command,
    readonly values: Values,
    readonly positionals: string[],
    readonly io: Io,
  ) {
    this.json = values.json === true;
    this.configPath = configPath(io.env);
  }

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  strings(name: string): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];
  }

  /** Colour and width for human output; --json output is never coloured or cut. */
  get display(): Display {
    return this.json ? PLAIN : displayOf(this.io);
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  savedConfig(): Promise<SavedConfig> {
    this.saved ??= readConfig(this.configPath);
    return this.saved;
  }

  /** The server named by --server, else CAPTURE_INBOX_URL; undefined when neither is given. */
  namedServer(): string | undefined {
    const named = this.string('server') ?? this.io.env.CAPTURE_INBOX_URL;
    if (!named) return undefined;
    try {
      return serverRoot(named);
    } catch {
      throw new UsageError(`the server must be an address like http://localhost:8080 or https://inbox.example.com, not ${JSON.stringify(named)}`);
    }
  }

  /** --server, else CAPTURE_INBOX_URL, else the default saved login's server (the last logged in). */
  async server(): Promise<string | undefined> {
    return this.namedServer() ?? (await this.savedConfig()).current?.server;
  }

  /** The saved login for the server in use: the default one, or the one saved for --server. */
  async savedLogin(): Promise<SavedLogin | undefined> {
    const server = await this.server();
    return server === undefined ? undefined : loginFor(await this.savedConfig(), server);
  }

  /**
   * CAPTURE_INBOX_TOKEN, else the key saved for that very server: a key is never sent to another
   * host, and each server saved (cin login --server) answers with its own key.
   */
  async credentials(): Promise<Credentials> {
    const server = await this.server();
    if (!server) throw new NotLoggedIn();
    const envToken = this.io.env.CAPTURE_INBOX_TOKEN;
    if (envToken) return { server, token: envToken };
    const saved = await this.savedLogin();
    if (!saved) throw new NotLoggedIn();
    return { server, token: saved.token };
  }

  async client(): Promise<CaptureInbox> {
    const { server, token } = await this.credentials();
    return createClient({ baseUrl: server, token, headers: { 'user-agent': 'cin (@capture-inbox/cli)' } });
  }

  /** A line on stdout (the command's answer). */
  print(line: string): void {
    this.io.stdout.write(`${line}\n`);
  }

  /** A line on stderr (progress and hints, never part of the answer). */
  note(line: string): void {
    this.io.stderr.write(`${line}\n`);
  }

  /**
   * A list in the output the flags ask for: --json one array, --ndjson one object a line, --quiet
   * the full ids one a line. Answers false when none was asked for (the command prints for people).
   */
  printList(entries: ReadonlyArray<{ id: string }>): boolean {
    if (this.flag('ndjson')) for (const entry of entries) this.io.stdout.write(`${JSON.stringify(entry)}\n`);
    else if (this.flag('quiet')) for (const entry of entries) this.io.stdout.write(`${entry.id}\n`);
    else if (this.json) this.printJson(entries);
    else return false;
    return true;
  }

  /** The one JSON document of --json. */
  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
}
