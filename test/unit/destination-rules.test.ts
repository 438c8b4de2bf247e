import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, classifyAddress } from '../../src/modules/deliveries/transports/destination-rules.js';

const strict = { allowPrivateTargets: false };
const lenient = { allowPrivateTargets: true };

describe('checkWebhookUrl', () => {
  // Each rejected class of the spec and the contract, with the rule its message must name.
  const rejected: Array<[string, RegExp]> = [
    ['http://example.com/hook', /https/],
    ['ftp://example.com/', /https/],
    ['not a url', /absolute https/],
    ['/relative/path', /absolute https/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
    ['https://localhost/', /localhost/],
    ['https://LOCALHOST./', /localhost/],
    ['https://api.localhost/', /localhost/],
    ['https://printer.local/', /\.local host/],
    ['https://foo.internal/', /\.internal host/],
    ['https://foo.internal./', /\.internal host/],
    ['https://metadata.google.internal/', /\.internal host/],
    ['https://intranet/', /fully qualified/],
    ['https://127.0.0.1/', /loopback/],
    ['https://0x7f.1/', /loopback/],
    ['https://2130706433/', /loopback/],
    ['https://017700000001/', /loopback/],
    ['https://0177.0.0.1/', /loopback/],
    ['https://127.1/', /loopback/],
    ['https://[::1]/', /loopback/],
    ['https://[::ffff:127.0.0.1]/', /loopback/],
    ['https://[::ffff:10.0.0.1]/', /private/],
    ['https://[::ffff:a00:1]/', /private/],
    ['https://10.1.2.3/', /private/],
    ['https://0xa.0x1.0x2.0x3/', /private/],
    ['https://167772161/', /private/],
    ['https://172.16.0.1/', /private/],
    ['https://172.31.255.255/', /private/],
    ['https://192.168.1.1/', /private/],
    ['https://100.64.0.1/', /carrier-grade NAT/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://0/', /unspecified/],
    ['https://224.0.0.1/', /multicast/],
    ['https://255.255.255.255/', /broadcast/],
    ['https://240.0.0.1/', /reserved/],
    ['https://192.0.2.1/', /reserved/],
    ['https://[::]/', /unspecified/],
    ['https://[fc00::1]/', /unique-local/],
    ['https://[fd12:3456::1]/', /unique-local/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[ff02::1]/', /multicast/],
    ['https://[64:ff9b::a00:1]/', /NAT64/],
    ['https://[::ffff:0:a00:1]/', /translated/],
    ['https://[2002:a00:1::]/', /6to4/],
    ['https://[2001:db8::1]/', /reserved/],
    ['https://[::a00:1]/', /non-global/],
  ];

  it.each(rejected)('rejects %s', (url, rule) => {
    expect(() => checkWebhookUrl(url, strict)).toThrow(rule);
  });

  it.each([
    'https://example.com/hook',
    'https://hooks.example.com:8443/a/b?c=d',
    'https://8.8.8.8/hook',
    'https://[2001:4860:4860::8888]/hook',
    'https://[::ffff:8.8.8.8]/',
    'https://example.com./',
    'https://bücher.example/',
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url, strict).protocol).toBe('https:');
  });

  it('with private targets allowed, lifts only the address rule', () => {
    for (const url of ['https://127.0.0.1:8443/', 'https://0x7f.1/', 'https://[::1]/', 'https://10.0.0.1/', 'https://[::ffff:10.0.0.1]/']) {
      expect(() => checkWebhookUrl(url, lenient)).not.toThrow();
    }
    for (const [url, rule] of [
      ['http://127.0.0.1/', /https/],
      ['https://localhost/', /localhost/],
      ['https://svc.internal/', /\.internal/],
      ['https://box.local/', /\.local/],
      ['https://a:b@127.0.0.1/', /credentials/],
    ] as const) {
      expect(() => checkWebhookUrl(url, lenient)).toThrow(rule);
    }
  });
});

describe('classifyAddress (what a resolved address may be)', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public unicast %s', (ip) => {
    expect(classifyAddress(ip)).toEqual({ blocked: false });
  });

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '100.64.0.1',
    '169.254.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.251',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::1',
    '::127.0.0.1',
    'not-an-ip',
  ])('blocks %s', (ip) => {
    expect(classifyAddress(ip).blocked).toBe(true);
  });
});
