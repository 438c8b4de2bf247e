import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/*
 * A small HTTP client for the scenario scripts (capture-organize, account): node:http over one
 * keep-alive agent, with a time limit per request and the answer's body either kept as text or
 * only counted (an export of 100,000 items is read as it streams and dropped). node:http rather
 * than fetch: undici's fetch gives up on an answer's headers after 300 s, and an import of a whole
 * account on a loaded machine may take longer than that.
 */

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text, or '' when it was only counted. */
  text: string;
  bytes: number;
  /** Milliseconds from sending to the last byte of the answer. */
  ms: number;
  /** Milliseconds from sending to the answer's headers. */
  firstByteMs: number;
}

export interface HttpCall {
  /** PATCH, PROPFIND and REPORT for bench:caldav (the DAV methods and the API's edits). */
  method: 'GET' | 'POST' | 'PATCH' | 'PROPFIND' | 'REPORT';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Count the body's bytes without keeping it. */
  discardBody?: boolean;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpClient {
  call(c: HttpCall): Promise<HttpAnswer>;
  close(): void;
}

export function createHttpClient(baseUrl: string): HttpClient {
  const base = new URL(baseUrl);
  if (base.hostname !== '127.0.0.1' && base.hostname !== '[::1]') throw new Error(`the bench talks to loopback only, not ${base.hostname}`);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  return {
    call(c) {
      const started = performance.now();
      const body = c.body === undefined ? undefined : typeof c.body === 'string' ? Buffer.from(c.body) : c.body;
      return new Promise<HttpAnswer>((resolve, reject) => {
        const req = httpRequest(
          {
            agent,
            host: base.hostname.replace(/^\[|\]$/g, ''),
            port: base.port,
            method: c.method,
            path: c.path,
            headers: { ...(c.headers ?? {}), ...(body ? { 'content-length': String(body.length) } : {}) },
          },
          (res) => {
            const firstByteMs = performance.now() - started;
            const chunks: Buffer[] = [];
            let bytes = 0;
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              if (!c.discardBody) chunks.push(chunk);
            });
            res.once('error', reject);
            res.once('end', () => {
              clearTimeout(timer);
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                text: c.discardBody ? '' : Buffer.concat(chunks).toString('utf8'),
                bytes,
                ms: performance.now() - started,
                firstByteMs,
              });
            });
          },
        );
        const timeoutMs = c.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        const timer = setTimeout(() => req.destroy(new Error(`${c.method} ${c.path}: no full answer within ${timeoutMs / 1000} s`)), timeoutMs);
        req.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** A browser's session: cookies kept from answer to answer, forms posted url-encoded. */
export class WebSession {
  private readonly jar = new Map<string, string>();

  constructor(private readonly http: HttpClient) {}

  private remember(answer: HttpAnswer): void {
    const set = answer.headers['set-cookie'] ?? [];
    for (const line of set) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      if (eq > 0) this.jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }

  /** The session's cookies as a `Cookie` header's value. */
  cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private cookieHeader(): Record<string, string> {
    return this.jar.size === 0 ? {} : { cookie: this.cookie() };
  }

  async get(path: string, timeoutMs?: number): Promise<HttpAnswer> {
    const answer = await this.http.call({
      method: 'GET',
      path,
      headers: { accept: 'text/html', 'accept-language': 'en-GB', ...this.cookieHeader() },
      ...(timeoutMs ? { timeoutMs } : {}),
    });
    this.remember(answer);
    return answer;
  }

  async post(path: string, form: Record<string, string>): Promise<HttpAnswer> {
    const answer = await this.http.call({
      method: 'POST',
      path,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader() },
      body: new URLSearchParams(form).toString(),
    });
    this.remember(answer);
    return answer;
  }

  /** Signs in through the login form (its CSRF token from the page); throws unless the server answers with a redirect. */
  async signIn(email: string, password: string): Promise<void> {
    const page = await this.get('/login');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
    if (!csrf) throw new Error(`/login answered ${page.status} without a CSRF field`);
    const answer = await this.post('/login', { _csrf: csrf, email, password, next: '/' });
    if (answer.status !== 303 && answer.status !== 302) throw new Error(`signing in answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
}
