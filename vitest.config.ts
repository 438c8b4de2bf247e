import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Files run in parallel processes; each builds its own app on its own database or schema.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
