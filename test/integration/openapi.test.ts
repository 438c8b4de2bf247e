import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';
it('dump', async () => {
  const t = await createTestApp('sqlite');
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  writeFileSync('/tmp/scratch/openapi.json', JSON.stringify(JSON.parse(res.body), null, 2));
  await t.close();
});
