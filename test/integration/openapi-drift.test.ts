import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateOpenApi } from '../../src/cli/openapi.js';

describe('docs/openapi.json', () => {
  it('is the document the code generates (run `npm run openapi` after changing a route schema)', async () => {
    expect(readFileSync('docs/openapi.json', 'utf8')).toBe(await generateOpenApi());
  });
});
