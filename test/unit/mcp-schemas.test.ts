import { describe, expect, it } from 'vitest';
import { DateTimeInput } from '../../packages/mcp/src/schemas.js';

describe("DateTimeInput (the tools' due, due_at and since)", () => {
  it.each(['2026-11-28T09:00:00+01:00', '2026-11-28T08:00:00Z', '2026-11-28T08:00:00.123z', '2026-11-28T09:00:00-05:30'])('accepts %s', (value) => {
    expect(DateTimeInput.safeParse(value).success).toBe(true);
  });

  it.each(['2026-11-28T09:00:00', '2026-11-28T09:00+01:00', '2026-11-28', 'next friday', '2026-13-01T10:00:00Z', '2026-11-28 09:00:00Z', ''])(
    'refuses %j',
    (value) => {
      const result = DateTimeInput.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/ISO 8601 date-time with an offset/);
    },
  );
});
