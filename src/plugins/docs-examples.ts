import type { FastifyInstance, FastifySchema } from 'fastify';

/** Request examples shown in /docs: one shell and one JavaScript example per operation. */
interface Example {
  curl: string;
  js: string;
}

// $BASE is where the server runs (e.g. http://127.0.0.1:8080); $KEY is an API key (cin_…).
const EXAMPLES: Record<string, Example> = {
  capture: {
    curl: `curl -X POST "$BASE/api/v1/capture" \\
  -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -d '{"text": "Call the dentist tomorrow at 10\\nAsk about the bill", "client_id": "'"$(uuidgen)"'"}'`,
    js: `const res = await fetch(\`\${base}/api/v1/capture\`, {
  method: 'POST',
  headers: { Authorization: \`Bearer \${key}\`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ text: 'Call the dentist tomorrow at 10', client_id: crypto.randomUUID() }),
});
const item = await res.json(); // 201 created, 200 when client_id was seen before`,
  },
  searchItems: {
    curl: `curl -G "$BASE/api/v1/items/search" -H "Authorization: Bearer $KEY" \\
  --data-urlencode "q=dentist" --data-urlencode "limit=20"`,
    js: `const url = new URL('/api/v1/items/search', base);
url.searchParams.set('q', 'dentist');
const page = await (await fetch(url, { headers: { Authorization: \`Bearer \${key}\` } })).json();
// page.next_cursor: pass it back as ?cursor= for the next page`,
  },
  startPairing: {
    curl: `STATE=$(head -c 24 /dev/urandom | base64 | tr '+/' '-_')
curl -X POST "$BASE/api/v1/connect/start" -H "Content-Type: application/json" \\
  -d '{"state": "'"$STATE"'", "label": "my script"}'
echo "Open $BASE/connect/agent?state=$STATE and approve, then exchange the state for a key."`,
    js: `const state = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))
  .replaceAll('+', '-').replaceAll('/', '_');
await fetch(\`\${base}/api/v1/connect/start\`, {
  method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ state, label: 'my script' }),
});
console.log(\`Approve at \${base}/connect/agent?state=\${state}\`);`,
  },
  exchangePairing: {
    curl: `# Every 2 seconds until 200 (425 not_approved means: not yet)
curl -X POST "$BASE/api/v1/connect/exchange" -H "Content-Type: application/json" \\
  -d '{"state": "'"$STATE"'"}'`,
    js: `for (let i = 0; i < 150; i += 1) {
  const res = await fetch(\`\${base}/api/v1/connect/exchange\`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ state }),
  });
  if (res.status === 200) { const { token } = await res.json(); break; } // token is your API key
  if (res.status !== 425) throw new Error(\`pairing failed: \${res.status}\`);
  await new Promise((r) => setTimeout(r, 2000));
}`,
  },
};

const block = (lang: string, code: string): string => `\`\`\`${lang}\n${code}\n\`\`\``;

/**
 * Adds the examples to their operations' descriptions (every renderer shows Markdown there) and as
 * `x-codeSamples` (Redoc and Scalar show those as tabs). Must be installed before the routes.
 */
export function installDocsExamples(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as ({ operationId?: string; description?: string } & Record<string, unknown>) | undefined;
    const example = schema?.operationId ? EXAMPLES[schema.operationId] : undefined;
    if (!schema || !example) return;
    const examples = `**Examples**\n\n${block('sh', example.curl)}\n\n${block('js', example.js)}`;
    const withSamples: FastifySchema & Record<string, unknown> = {
      ...schema,
      description: schema.description ? `${schema.description}\n\n${examples}` : examples,
      'x-codeSamples': [
        { lang: 'Shell', label: 'curl', source: example.curl },
        { lang: 'JavaScript', label: 'fetch', source: example.js },
      ],
    };
    route.schema = withSamples;
  });
}
