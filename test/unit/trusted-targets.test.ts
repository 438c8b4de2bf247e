import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { checkWebhookUrl } from '../../src/modules/deliveries/transports/destination-rules.js';
import { isTrustedAddress, isTrustedHost, parseTrustedTargets, trustedResolution } from '../../src/lib/trusted-targets.js';

/** operations.md, PRIVATE_TARGETS_ALLOW. */
describe('trusted targets', () => {
  const trusted = parseTrustedTargets(' 192.168.1.20, ntfy.lan., 10.0.0.0/8 , [fd00::1], Home-Box ');

  it('reads host names, addresses (IPv6 in brackets too) and CIDR ranges, case and trailing dots aside', () => {
    expect([...trusted.names]).toEqual(['ntfy.lan', 'home-box']);
    expect(trusted.ranges.map(([a, bits]) => `${a.toString()}/${bits}`)).toEqual(['192.168.1.20/32', '10.0.0.0/8', 'fd00::1/128']);
    expect(parseTrustedTargets('').names.size + parseTrustedTargets(' , ').ranges.length).toBe(0);
  });

  it('refuses an entry that is none of the three, naming it', () => {
    expect(() => parseTrustedTargets('ntfy.lan, http://x.lan')).toThrow(/http:\/\/x\.lan/);
    expect(() => parseTrustedTargets('10.0.0.0/33')).toThrow(/CIDR/);
    expect(() => parseTrustedTargets('bad_name!')).toThrow(/bad_name!/);
    expect(() => loadConfig({ PRIVATE_TARGETS_ALLOW: '10.0.0.0/99' })).toThrow(/PRIVATE_TARGETS_ALLOW has an entry/);
    expect(loadConfig({ PRIVATE_TARGETS_ALLOW: 'ntfy.lan' }).webhooks.trustedTargets?.names.has('ntfy.lan')).toBe(true);
    expect(loadConfig({}).webhooks.trustedTargets).toBeUndefined();
  });

  it('matches addresses by range, IPv4-mapped IPv6 as its IPv4, and hosts by name or address', () => {
    expect(isTrustedAddress('10.200.3.4', trusted)).toBe(true);
    expect(isTrustedAddress('::ffff:192.168.1.20', trusted)).toBe(true);
    expect(isTrustedAddress('192.168.1.21', trusted)).toBe(false);
    expect(isTrustedAddress('fd00::1', trusted)).toBe(true);
    expect(isTrustedHost('NTFY.LAN.', trusted)).toBe(true);
    expect(isTrustedHost('ntfy.lan.evil.com', trusted)).toBe(false);
  });

  it('lets a trusted name resolve into LAN ranges only, and a listed address whatever the name', () => {
    expect(trustedResolution('ntfy.lan', '192.168.7.7', trusted)).toBe(true);
    expect(trustedResolution('ntfy.lan', '100.64.1.1', trusted)).toBe(true);
    expect(trustedResolution('ntfy.lan', 'fd12::5', trusted)).toBe(true);
    for (const address of ['127.0.0.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', '224.0.0.1']) {
      expect(trustedResolution('ntfy.lan', address, trusted)).toBe(false);
    }
    expect(trustedResolution('anything.example', '10.1.1.1', trusted)).toBe(true);
    expect(trustedResolution('anything.example', '172.16.0.1', trusted)).toBe(false);
  });

  it('opens plain http, private addresses and LAN names for trusted hosts only', () => {
    const policy = { allowPrivateTargets: false, trustedTargets: trusted };
    expect(checkWebhookUrl('http://ntfy.lan:8080/topic', policy).host).toBe('ntfy.lan:8080');
    expect(checkWebhookUrl('http://home-box/t', policy).hostname).toBe('home-box');
    expect(checkWebhookUrl('http://10.9.9.9/t', policy).hostname).toBe('10.9.9.9');
    expect(checkWebhookUrl('https://[fd00::1]/t', policy).hostname).toBe('[fd00::1]');
    for (const url of [
      'http://ntfy.sh/t',
      'http://other.lan/t',
      'https://192.168.1.21/t',
      'https://localhost/t',
      'ftp://ntfy.lan/t',
      'http://u:p@ntfy.lan/t',
    ]) {
      expect(() => checkWebhookUrl(url, policy), url).toThrow();
    }
    expect(() => checkWebhookUrl('http://ntfy.lan/t', { allowPrivateTargets: false })).toThrow(/https/);
  });
});
