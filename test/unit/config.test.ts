import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('applies the defaults of operations.md', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      databaseUrl: 'sqlite:./data/inbox.db',
      logLevel: 'info',
    });
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://inbox.example.com/' }).publicUrl).toBe('https://inbox.example.com');
  });

  it('lists every invalid setting in one error', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT.*DATABASE_URL.*LOG_LEVEL/s);
  });
});
