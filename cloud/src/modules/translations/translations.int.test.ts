import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioSessions } from '../../../../tests/support/sessions';
import { useTestApp } from '../../../../tests/support/test-app';
import { api, salesStudio } from '../sales/sales-support';
import { createOrder } from '../sales/index';
import { FAKE_DEEPL_KEY, startFakeDeepl, type FakeDeepl } from './translator/testing/fake-deepl';

/**
 * Issue 25, translations: translator init / collection (read and save), the studio's interface
 * wording, POST ai-translator against a loopback fake of DeepL's /v2/translate, and the rule clients
 * read by: their language, else the studio's default. Every route's 401/400/403/404/other studio.
 */
const app = useTestApp({ env: { DEEPL_API_KEY: FAKE_DEEPL_KEY } });
const { staffWithRole } = studioSessions(() => app);
let deepl: FakeDeepl;
beforeAll(async () => {
  deepl = await startFakeDeepl();
});
afterAll(async () => {
  await deepl?.close();
});
const useFakeDeepl = () => {
  app.deps.config.DEEPL_API_KEY = FAKE_DEEPL_KEY;
  app.deps.config.DEEPL_API_URL = deepl.url;
};
const en = { headers: { cookie: 'locale=en' } };
const pl = { headers: { cookie: 'locale=pl' } };

/** A studio (default Polish) with a pass named in Polish only and a product. */
async function studioWithPolishPass() {
  const s = await salesStudio(app);
  const polishPass = uuidv7();
  await app.knex('pricing_options').insert({
    id: polishPass,
    studioId: s.studio.id,
    name: { pl: { value: 'Karnet 8 wejść' } },
    description: { pl: { value: 'Osiem wejść w miesiąc' } },
    price: 20000,
    taxId: s.taxId,
    taxRateBp: 2300,
    entries: 8,
    validityCount: 30,
    validityUnit: 'day',
  });
  return { ...s, polishPass };
}

const cartName = async (
  http: Awaited<ReturnType<typeof salesStudio>>['clientHttp'],
  studio: { id: string },
  item: { type: string; id: string; quantity?: number },
  headers: { headers: Record<string, string> },
) => {
  const prepared = await http.post(api(studio, 'shopping-cart/prepare'), { items: [item] }, headers);
  expect(prepared.status, prepared.text).toBe(200);
  return prepared.body.items[0].name as string;
};

describe('translator init and collection', () => {
  it('refuses the signed out, staff without settings rights, bad input and another studio', async () => {
    const s = await studioWithPolishPass();
    const other = await salesStudio(app);
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(s.studio, 'front_desk');
    expect((await anonymous.get(api(s.studio, 'translator/init'))).status).toBe(401);
    expect((await anonymous.get(api(s.studio, 'translator/collection?language=en'))).status).toBe(401);
    expect((await desk.get(api(s.studio, 'translator/init'))).status).toBe(403);
    expect((await desk.get(api(s.studio, 'translator/collection?language=en'))).status).toBe(403);
    expect((await s.clientHttp.get(api(s.studio, 'translator/init'))).status).toBe(403);
    const save = {
      language: 'en',
      items: [{ kind: 'pricingOption', id: s.polishPass, field: 'name', value: 'X' }],
    };
    expect((await anonymous.patch(api(s.studio, 'translator/collection'), save)).status).toBe(401);
    expect((await desk.patch(api(s.studio, 'translator/collection'), save)).status).toBe(403);
    expect((await other.owner.get(api(s.studio, 'translator/init'))).status).toBe(404);
    expect((await other.owner.patch(api(s.studio, 'translator/collection'), save)).status).toBe(404);
    // Another studio's item through one's own studio: not found, nothing written.
    const foreign = await other.owner.patch(api(other.studio, 'translator/collection'), save);
    expect(foreign.status).toBe(404);

    const bad = await s.owner.get(api(s.studio, 'translator/collection?language=de&kind=nope'));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(
      expect.arrayContaining(['query.language', 'query.kind']),
    );
    const badSave = await s.owner.patch(api(s.studio, 'translator/collection'), {
      language: 'en',
      items: [{ kind: 'entryService', id: 'x', field: 'title', value: 1 }],
    });
    expect(badSave.status).toBe(400);
    expect(Object.keys(badSave.body.error.fields)).toEqual(
      expect.arrayContaining(['items.0.id', 'items.0.field', 'items.0.value']),
    );
    // The default language is the item's own editor's, not a translation.
    const intoDefault = await s.owner.patch(api(s.studio, 'translator/collection'), {
      ...save,
      language: 'pl',
    });
    expect(intoDefault.status).toBe(400);
    expect(intoDefault.body.error.fields.language).toBeDefined();
    const noDescription = await s.owner.patch(api(s.studio, 'translator/collection'), {
      language: 'en',
      items: [{ kind: 'entryService', id: uuidv7(), field: 'description', value: 'x' }],
    });
    expect(noDescription.status).toBe(400);
    const unknown = await s.owner.patch(api(s.studio, 'translator/collection'), {
      language: 'en',
      items: [{ kind: 'pricingOption', id: uuidv7(), field: 'name', value: 'X' }],
    });
    expect(unknown.status).toBe(404);
    const row = await app.knex('pricing_options').where({ id: s.polishPass }).first('name');
    expect(row?.name).toEqual({ pl: { value: 'Karnet 8 wejść' } });
  });

  it('lists texts beside their default-language source, saves translations, filters the untranslated', async () => {
    const s = await studioWithPolishPass();
    const init = await s.owner.get(api(s.studio, 'translator/init'));
    expect(init.status, init.text).toBe(200);
    expect(init.body).toMatchObject({
      defaultLanguage: 'pl',
      languages: ['pl', 'en'],
      aiTranslator: { driver: 'deepl' },
    });
    expect(init.body.progress).toContainEqual({
      language: 'en',
      kind: 'pricingOption',
      texts: 3,
      translated: 1,
    });

    const before = await s.owner.get(
      api(s.studio, 'translator/collection?language=en&kind=pricingOption&untranslated=true'),
    );
    expect(before.status, before.text).toBe(200);
    expect(before.body.items).toHaveLength(2);
    expect(before.body.items).toEqual(
      expect.arrayContaining([
        { kind: 'pricingOption', id: s.polishPass, field: 'name', source: 'Karnet 8 wejść', translation: '' },
        {
          kind: 'pricingOption',
          id: s.polishPass,
          field: 'description',
          source: 'Osiem wejść w miesiąc',
          translation: '',
        },
      ]),
    );

    const saved = await s.owner.patch(api(s.studio, 'translator/collection'), {
      language: 'en',
      items: [
        { kind: 'pricingOption', id: s.polishPass, field: 'name', value: '  8-entry pass ' },
        { kind: 'product', id: s.productId, field: 'name', value: 'Still water' },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.items).toEqual(
      expect.arrayContaining([
        {
          kind: 'pricingOption',
          id: s.polishPass,
          field: 'name',
          source: 'Karnet 8 wejść',
          translation: '8-entry pass',
        },
        { kind: 'product', id: s.productId, field: 'name', source: 'Water', translation: 'Still water' },
      ]),
    );
    const row = await app.knex('pricing_options').where({ id: s.polishPass }).first('name');
    expect(row?.name).toEqual({ pl: { value: 'Karnet 8 wejść' }, en: { value: '8-entry pass' } });
    const product = await app.knex('products').where({ id: s.productId }).first('name', 'nameTexts');
    expect(product).toEqual({ name: 'Water', nameTexts: { en: { value: 'Still water' } } });

    const after = await s.owner.get(api(s.studio, 'translator/collection?language=en&untranslated=true'));
    expect(after.body.items.map((i: { id: string; field: string }) => `${i.id}:${i.field}`)).toEqual([
      `${s.polishPass}:description`,
    ]);
    // '' removes a translation: the default-language text shows again.
    const removed = await s.owner.patch(api(s.studio, 'translator/collection'), {
      language: 'en',
      items: [{ kind: 'product', id: s.productId, field: 'name', value: '' }],
    });
    expect(removed.body.items[0].translation).toBe('');
  });
});

describe('clients read content in their language, else the studio default', () => {
  it('a pass and a product in the cart, an order sold at the desk on screens and on the Polish invoice', async () => {
    const s = await studioWithPolishPass();
    const pass = { type: 'pricingOption', id: s.polishPass };
    const water = { type: 'product', id: s.productId, quantity: 1 };
    // Untranslated: the studio's default (Polish) in an English cart, never an empty name.
    expect(await cartName(s.clientHttp, s.studio, pass, en)).toBe('Karnet 8 wejść');
    await s.owner.patch(api(s.studio, 'translator/collection'), {
      language: 'en',
      items: [
        { kind: 'pricingOption', id: s.polishPass, field: 'name', value: '8-entry pass' },
        { kind: 'product', id: s.productId, field: 'name', value: 'Still water' },
      ],
    });
    expect(await cartName(s.clientHttp, s.studio, pass, en)).toBe('8-entry pass');
    expect(await cartName(s.clientHttp, s.studio, pass, pl)).toBe('Karnet 8 wejść');
    expect(await cartName(s.clientHttp, s.studio, water, en)).toBe('Still water');
    expect(await cartName(s.clientHttp, s.studio, water, pl)).toBe('Water');

    // A line sold where only one language was at hand (the desk) keeps the catalogue's every name.
    const { id: orderId } = await app.knex.transaction((trx) =>
      createOrder(trx, {
        studioId: s.studio.id,
        clientId: s.client.id,
        source: 'desk',
        lines: [
          {
            kind: 'pass',
            refId: s.polishPass,
            name: '8-entry pass',
            quantity: 1,
            unitPriceMinor: 20000,
            vatRate: '2300',
          },
          {
            kind: 'product',
            refId: s.productId,
            name: 'Still water',
            quantity: 2,
            unitPriceMinor: 500,
            vatRate: '2300',
          },
        ],
      }),
    );
    const inPolish = await s.owner.get(api(s.studio, `client-order/${orderId}`), pl);
    expect(inPolish.status, inPolish.text).toBe(200);
    expect(inPolish.body.lines.map((l: { name: string }) => l.name)).toEqual(['Karnet 8 wejść', 'Water']);
    const inEnglish = await s.owner.get(api(s.studio, `client-order/${orderId}`), en);
    expect(inEnglish.body.lines.map((l: { name: string }) => l.name)).toEqual([
      '8-entry pass',
      'Still water',
    ]);
    const draft = await s.owner.get(api(s.studio, `client-order/${orderId}/invoice/init`), en);
    expect(draft.status, draft.text).toBe(200);
    expect(
      draft.body.lines.map((l: { description: string; unit: string }) => [l.description, l.unit]),
    ).toEqual([
      ['Karnet 8 wejść', 'usł.'],
      ['Water', 'szt.'],
    ]);
  });
});

describe('interface texts', () => {
  it('keeps the studio wording of a front-office text per language, public to its front office', async () => {
    const s = await studioWithPolishPass();
    const other = await salesStudio(app);
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(s.studio, 'front_desk');
    const body = { language: 'en', key: 'frontoffice:title', value: 'Harmony members' };
    expect((await anonymous.get(api(s.studio, 'translator/interface?language=en'))).status).toBe(401);
    expect((await anonymous.request('PUT', api(s.studio, 'translator/interface'), body)).status).toBe(401);
    expect((await desk.get(api(s.studio, 'translator/interface?language=en'))).status).toBe(403);
    expect((await desk.request('PUT', api(s.studio, 'translator/interface'), body)).status).toBe(403);
    expect((await other.owner.request('PUT', api(s.studio, 'translator/interface'), body)).status).toBe(404);
    const badKey = await s.owner.request('PUT', api(s.studio, 'translator/interface'), {
      ...body,
      key: 'backoffice:nav.clients',
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.fields.key).toBeDefined();
    expect(
      (await s.owner.request('PUT', api(s.studio, 'translator/interface'), { ...body, language: 'de' }))
        .status,
    ).toBe(400);
    expect((await anonymous.get(`/api/v4/${uuidv7()}/translator/interface-texts?locale=en`)).status).toBe(
      404,
    );
    expect((await anonymous.get(api(s.studio, 'translator/interface-texts?locale=xx'))).status).toBe(400);

    const saved = await s.owner.request('PUT', api(s.studio, 'translator/interface'), body);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ key: 'frontoffice:title', override: 'Harmony members' });
    const list = await s.owner.get(api(s.studio, 'translator/interface?language=en'));
    expect(list.body.items.find((i: { key: string }) => i.key === 'frontoffice:title')).toMatchObject({
      override: 'Harmony members',
    });
    const shown = await anonymous.get(api(s.studio, 'translator/interface-texts?locale=en'));
    expect(shown.body).toEqual({ locale: 'en', texts: { 'frontoffice:title': 'Harmony members' } });
    expect((await anonymous.get(api(s.studio, 'translator/interface-texts?locale=pl'))).body.texts).toEqual(
      {},
    );
    expect(
      (await anonymous.get(api(other.studio, 'translator/interface-texts?locale=en'))).body.texts,
    ).toEqual({});

    const cleared = await s.owner.request('PUT', api(s.studio, 'translator/interface'), {
      ...body,
      value: '',
    });
    expect(cleared.body.override).toBeNull();
    expect((await anonymous.get(api(s.studio, 'translator/interface-texts?locale=en'))).body.texts).toEqual(
      {},
    );
  });
});

describe('POST ai-translator', () => {
  it('suggests through DeepL (a loopback fake) and saves nothing; refuses as the other routes do', async () => {
    useFakeDeepl();
    const s = await studioWithPolishPass();
    const other = await salesStudio(app);
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(s.studio, 'front_desk');
    const body = { text: 'Karnet 8 wejść', sourceLanguage: 'pl', targetLanguage: 'en' };
    const url = api(s.studio, 'ai-translator');
    expect((await anonymous.post(url, body)).status).toBe(401);
    expect((await desk.post(url, body)).status).toBe(403);
    expect((await other.owner.post(url, body)).status).toBe(404);
    const same = await s.owner.post(url, { ...body, targetLanguage: 'pl' });
    expect(same.status).toBe(400);
    expect(same.body.error.fields.targetLanguage).toBeDefined();
    expect((await s.owner.post(url, { ...body, text: '' })).status).toBe(400);

    const sent = deepl.requests.length;
    const answer = await s.owner.post(url, body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ suggestion: '8-entry pass', driver: 'deepl' });
    expect(deepl.requests.slice(sent)).toEqual([
      {
        authorization: `DeepL-Auth-Key ${FAKE_DEEPL_KEY}`,
        body: { text: ['Karnet 8 wejść'], source_lang: 'PL', target_lang: 'EN-GB' },
      },
    ]);
    // A suggestion is not a translation until someone saves it.
    const row = await app.knex('pricing_options').where({ id: s.polishPass }).first('name');
    expect(row?.name).toEqual({ pl: { value: 'Karnet 8 wejść' } });

    deepl.fail(456);
    const quota = await s.owner.post(url, body);
    expect(quota.status).toBe(429);
    expect(quota.body.error.key).toBe('translator.quotaExceeded');
    deepl.fail(500);
    const broken = await s.owner.post(url, body);
    expect(broken.status).toBe(502);
    expect(broken.body.error.key).toBe('translator.unavailable');
    deepl.fail(null);

    // No driver configured: said so, and init tells the screen.
    app.deps.config.DEEPL_API_KEY = undefined;
    try {
      const none = await s.owner.post(url, body);
      expect(none.status).toBe(409);
      expect(none.body.error.key).toBe('translator.notConfigured');
      expect((await s.owner.get(api(s.studio, 'translator/init'))).body.aiTranslator).toEqual({
        driver: null,
      });
    } finally {
      useFakeDeepl();
    }
  });
});
