/**
 * `PUT`/`GET /merchant_profile` and what the checkout page makes of it: the name escaped, the logo loaded from its
 * origin only (CSP `img-src`), the brand colour with white or black text by contrast, `frame-ancestors` limited to
 * `allowed_domains` (none by default), bad input refused with the field named, and one merchant's profile never
 * showing on another's page.
 */
import { type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

async function linkUrl(key?: string): Promise<string> {
  const res = await api.request('POST', '/payment_links', { body: { amount: 150000, currency: 'NGN', description: 'Kente' }, key });
  expect(res.status).toBe(200);
  return res.body.url as string;
}

function directives(res: Response): Record<string, string> {
  const csp = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    csp.split(';').map((d) => {
      const [name, ...rest] = d.trim().split(/\s+/);
      return [name as string, rest.join(' ')];
    }),
  );
}

function refusedOn(res: TestResponse, param: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.param).toBe(param);
}

describe('the merchant profile', () => {
  test('GET answers the default display until one is set; PUT sets it, GET answers it, PUT {} clears it', async () => {
    const merchant = await api.newMerchantKey();
    const fresh = await api.request('GET', '/merchant_profile', { key: merchant });
    expect(fresh.body).toEqual({
      display_name: null,
      logo_url: null,
      brand_color: null,
      allowed_domains: [],
      return_signing_secret: expect.stringMatching(/^plsec_[0-9a-f]{64}$/),
    });
    const body = {
      display_name: '  Ada Fabrics  ',
      logo_url: 'https://cdn.adafabrics.example/logo.png',
      brand_color: '#0A3069',
      allowed_domains: ['https://adafabrics.example', 'https://*.adafabrics.example', 'https://Shop.Example.com:8443'],
    };
    const put = await api.request('PUT', '/merchant_profile', { body, key: merchant });
    expect(put.status).toBe(200);
    const expected = {
      display_name: 'Ada Fabrics',
      logo_url: 'https://cdn.adafabrics.example/logo.png',
      brand_color: '#0a3069',
      allowed_domains: ['https://adafabrics.example', 'https://*.adafabrics.example', 'https://shop.example.com:8443'],
      return_signing_secret: fresh.body.return_signing_secret,
    };
    expect(put.body).toEqual(expected);
    expect((await api.request('GET', '/merchant_profile', { key: merchant })).body).toEqual(expected);
    const cleared = await api.request('PUT', '/merchant_profile', { body: {}, key: merchant });
    expect(cleared.body).toEqual(fresh.body);
  });

  test('the page shows the name escaped, the logo from its origin only, the colour with contrasting text, and is framed only by allowed_domains', async () => {
    const merchant = await api.newMerchantKey();
    const url = await linkUrl(merchant);
    const before = await fetch(url);
    expect(directives(before)['frame-ancestors']).toBe("'none'");
    expect(directives(before)['img-src']).toBe("'none'");
    expect(await before.text()).toContain('Secure checkout');
    await api.request('PUT', '/merchant_profile', {
      key: merchant,
      body: {
        display_name: '<b>Ada</b> & "Sons"',
        logo_url: 'https://cdn.adafabrics.example/brand/logo.png?v=2&x="y"',
        brand_color: '#ffde00',
        allowed_domains: ['https://adafabrics.example', 'https://*.shop.example'],
      },
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(60 * 1024);
    expect(html).toContain('<strong>&lt;b&gt;Ada&lt;/b&gt; &amp; &quot;Sons&quot;</strong>');
    expect(html).not.toContain('<b>Ada</b>');
    expect(html).toContain('<img src="https://cdn.adafabrics.example/brand/logo.png?v=2&amp;x=&quot;y&quot;" alt=""');
    // A light colour gets black text; the page's CSP loads images from the logo's origin and nothing else.
    expect(html).toContain('button{background:#ffde00;color:#000000');
    const csp = directives(res);
    expect(csp['img-src']).toBe('https://cdn.adafabrics.example');
    expect(csp['frame-ancestors']).toBe('https://adafabrics.example https://*.shop.example');
    expect(csp['default-src']).toBe("'none'");
    await api.request('PUT', '/merchant_profile', { key: merchant, body: { brand_color: '#0a3069' } });
    const dark = await (await fetch(url)).text();
    expect(dark).toContain('button{background:#0a3069;color:#ffffff');
    expect(dark).not.toContain('<img');
  });

  test("one merchant's profile never shows on another's page", async () => {
    const mine = await api.newMerchantKey();
    const theirs = await api.newMerchantKey();
    await api.request('PUT', '/merchant_profile', {
      key: theirs,
      body: { display_name: 'Their Shop', allowed_domains: ['https://their.example'] },
    });
    const res = await fetch(await linkUrl(mine));
    expect(await res.text()).not.toContain('Their Shop');
    expect(directives(res)['frame-ancestors']).toBe("'none'");
    expect((await api.request('GET', '/merchant_profile', { key: mine })).body.display_name).toBeNull();
  });

  test.each([
    ['display_name', 'x'.repeat(65)],
    ['display_name', '   '],
    ['display_name', 42],
    ['logo_url', 'http://cdn.example.com/logo.png'],
    ['logo_url', 'https://user:pw@cdn.example.com/logo.png'],
    ['logo_url', 'logo.png'],
    ['logo_url', `https://cdn.example.com/${'a'.repeat(2048)}`],
    ['brand_color', 'red'],
    ['brand_color', '#fff'],
    ['brand_color', '#12345g'],
    ['allowed_domains', 'https://shop.example.com'],
    ['allowed_domains.0', 'https://shop.example.com/'],
    ['allowed_domains.0', 'https://shop.example.com/pay'],
    ['allowed_domains.0', 'http://shop.example.com'],
    ['allowed_domains.0', 'shop.example.com'],
    ['allowed_domains.0', "https://shop.example.com 'unsafe-inline'"],
    ['allowed_domains.0', 'https://shop.example.com;script-src *'],
    ['allowed_domains', ['https://a.example', 'https://A.example']],
    ['allowed_domains', Array.from({ length: 21 }, (_, i) => `https://s${i}.example`)],
  ])('bad input: %s = %j is a 400 naming the field, and changes nothing', async (field, value) => {
    const merchant = await api.newMerchantKey();
    await api.request('PUT', '/merchant_profile', { key: merchant, body: { display_name: 'Kept' } });
    const top = field.split('.')[0] as string;
    const body = { [top]: field.endsWith('.0') ? [value] : value };
    refusedOn(await api.request('PUT', '/merchant_profile', { key: merchant, body }), field);
    expect((await api.request('GET', '/merchant_profile', { key: merchant })).body.display_name).toBe('Kept');
  });

  test('an unknown field is refused', async () => {
    refusedOn(await api.request('PUT', '/merchant_profile', { body: { colour: '#000000' } }), 'colour');
  });
});
