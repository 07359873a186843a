import { isDeployedStage } from '../../shared/settings/deployed-stage';
import {
  checkEndpointUrl,
  type HostResolver,
  nonPublicAddressKind,
  type UrlVerdict,
  urlRulesForStage,
} from '../../shared/webhooks/endpoint-url-rules';

/** A resolver that answers from a fixed table and records what it was asked; no DNS traffic. */
function stubResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = (async (host: string) => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as HostResolver & { asked: string[] };
  resolve.asked = asked;
  return resolve;
}

const resolver = stubResolver({
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.20.30.40'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.5'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-metadata.example.com': ['fd00:ec2::254'],
  'mapped.example.com': ['::ffff:10.0.0.7'],
  localhost: ['127.0.0.1', '::1'],
});
const deployed = { allowLoopback: false, resolve: resolver };
const local = { allowLoopback: true, resolve: resolver };

function refused(verdict: UrlVerdict, reason?: string): string {
  expect(verdict.allowed).toBe(false);
  if (verdict.allowed) return '';
  if (reason) expect(verdict.reason).toBe(reason);
  return verdict.message;
}

describe('deployed stage rules', () => {
  test.each([
    ['http://hooks.example.com/x', 'scheme_not_allowed'],
    ['http://93.184.215.14/x', 'scheme_not_allowed'],
    ['ftp://hooks.example.com/x', 'scheme_not_allowed'],
    ['https://127.0.0.1/x', 'address_not_allowed'],
    ['https://127.8.9.10:8443/x', 'address_not_allowed'],
    ['https://10.0.0.1/x', 'address_not_allowed'],
    ['https://172.16.0.1/x', 'address_not_allowed'],
    ['https://192.168.0.1/x', 'address_not_allowed'],
    ['https://169.254.169.254/latest/meta-data/', 'address_not_allowed'],
    ['https://169.254.1.1/', 'address_not_allowed'],
    ['https://100.64.0.1/', 'address_not_allowed'],
    ['https://0.0.0.0/', 'address_not_allowed'],
    ['https://[::1]/x', 'address_not_allowed'],
    ['https://[::]/x', 'address_not_allowed'],
    ['https://[fe80::1]/x', 'address_not_allowed'],
    ['https://[fd12:3456::1]/x', 'address_not_allowed'],
    ['https://[fd00:ec2::254]/', 'address_not_allowed'],
    ['https://[::ffff:127.0.0.1]/x', 'address_not_allowed'],
    ['https://[::ffff:a9fe:a9fe]/x', 'address_not_allowed'],
    ['https://2130706433/x', 'address_not_allowed'], // 127.0.0.1 written as one number
    ['https://0x7f.1/x', 'address_not_allowed'],
    ['https://localhost/x', 'address_not_allowed'],
    ['https://internal.example.com/x', 'address_not_allowed'],
    ['https://mixed.example.com/x', 'address_not_allowed'],
    ['https://metadata.example.com/x', 'address_not_allowed'],
    ['https://v6-metadata.example.com/x', 'address_not_allowed'],
    ['https://mapped.example.com/x', 'address_not_allowed'],
    ['https://nowhere.example.com/x', 'host_unresolvable'],
    ['https://user:secret@hooks.example.com/x', 'credentials_not_allowed'],
    ['https://user@hooks.example.com/x', 'credentials_not_allowed'],
    ['not a url', 'invalid_url'],
    ['/relative/path', 'invalid_url'],
  ])('refuses %s (%s); the message never repeats the URL', async (url, reason) => {
    const message = refused(await checkEndpointUrl(url, deployed), reason);
    expect(message.length).toBeGreaterThan(20);
    const host = /^[a-z]+:\/\/(?:[^@/]*@)?([^/]+)/.exec(url)?.[1];
    if (host) expect(message).not.toContain(host);
    expect(message).not.toContain('user:secret');
  });

  test('the refusals say what is allowed', async () => {
    expect(refused(await checkEndpointUrl('http://hooks.example.com/', deployed))).toMatch(/must use https/);
    expect(refused(await checkEndpointUrl('https://10.0.0.1/', deployed))).toMatch(/private address.*public/);
    expect(refused(await checkEndpointUrl('https://169.254.169.254/', deployed))).toMatch(/cloud metadata/);
    expect(refused(await checkEndpointUrl('https://[::1]/', deployed))).toMatch(/a loopback address/);
  });

  test('accepts https to a name that resolves only to public addresses, and to a public literal', async () => {
    expect(await checkEndpointUrl('https://hooks.example.com/webhooks?x=1', deployed)).toEqual({
      allowed: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    expect(await checkEndpointUrl('https://93.184.215.14:8443/w', deployed)).toEqual({ allowed: true, addresses: ['93.184.215.14'] });
    expect(await checkEndpointUrl('https://[2606:4700:4700::1111]/w', deployed)).toEqual({
      allowed: true,
      addresses: ['2606:4700:4700::1111'],
    });
    expect(await checkEndpointUrl('https://[::ffff:8.8.8.8]/w', deployed)).toMatchObject({ allowed: true });
  });

  test('an IP literal is never resolved; a name is', async () => {
    const r = stubResolver({ 'hooks.example.com': ['93.184.215.14'] });
    await checkEndpointUrl('https://10.0.0.1/', { allowLoopback: false, resolve: r });
    await checkEndpointUrl('https://[::1]/', { allowLoopback: false, resolve: r });
    expect(r.asked).toEqual([]);
    await checkEndpointUrl('https://hooks.example.com/', { allowLoopback: false, resolve: r });
    expect(r.asked).toEqual(['hooks.example.com']);
  });

  test('a resolver that never answers is cut off and the URL refused as unresolvable', async () => {
    jest.useFakeTimers();
    try {
      const pending = checkEndpointUrl('https://slow.example.com/', { allowLoopback: false, resolve: () => new Promise(() => undefined) });
      await jest.advanceTimersByTimeAsync(5_001);
      expect(refused(await pending, 'host_unresolvable')).toMatch(/could not be resolved/);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('local stack rules', () => {
  test('allow http and loopback', async () => {
    for (const url of [
      'http://127.0.0.1/hooks',
      'http://127.0.0.1:4000/hooks',
      'http://[::1]:4000/',
      'http://localhost:3000/x',
      'https://127.0.0.1/x',
    ]) {
      expect(await checkEndpointUrl(url, local)).toMatchObject({ allowed: true });
    }
    expect(await checkEndpointUrl('http://hooks.example.com/x', local)).toMatchObject({ allowed: true });
  });

  test('still refuse private, link-local, metadata and CGNAT addresses, and credentials', async () => {
    for (const url of [
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://100.64.0.1/',
      'http://internal.example.com/',
      'http://[fe80::1]/',
    ]) {
      refused(await checkEndpointUrl(url, local), 'address_not_allowed');
    }
    refused(await checkEndpointUrl('http://u:p@127.0.0.1/', local), 'credentials_not_allowed');
    refused(await checkEndpointUrl('gopher://127.0.0.1/', local), 'scheme_not_allowed');
  });
});

describe('stage detection', () => {
  test('STAGE set and not local is a deployed stage', () => {
    expect(isDeployedStage({})).toBe(false);
    expect(isDeployedStage({ STAGE: '' })).toBe(false);
    expect(isDeployedStage({ STAGE: 'local' })).toBe(false);
    expect(isDeployedStage({ STAGE: 'dev' })).toBe(true);
    expect(isDeployedStage({ STAGE: 'prod' })).toBe(true);
    expect(urlRulesForStage({ STAGE: 'prod' })).toEqual({ allowLoopback: false });
    expect(urlRulesForStage({})).toEqual({ allowLoopback: true });
  });
});

describe('address classification', () => {
  test.each([
    ['10.255.255.255', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.10.10', 'private'],
    ['fc00::1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.10.10', 'link-local'],
    ['fe80::abcd', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['::ffff:192.168.0.1', 'private'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
    ['ff02::1', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(nonPublicAddressKind(address)).toBe(kind);
  });

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(nonPublicAddressKind(address)).toBeUndefined();
  });
});

test('tunnel and deprecated ranges that can reach private networks are refused too (Teredo, site-local, 6to4 relay)', async () => {
  const { checkEndpointUrl } = await import('../../shared/webhooks/endpoint-url-rules');
  for (const address of ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'fec0::1', '192.88.99.1']) {
    const verdict = await checkEndpointUrl('https://hooks.example.com/x', {
      allowLoopback: false,
      resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
    });
    expect(verdict).toMatchObject({ allowed: false, reason: 'address_not_allowed' });
  }
});
