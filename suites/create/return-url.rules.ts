/**
 * esid: Resources and their fields › CreatePaymentRequest — "return_url | string | no | absolute https
 * URL, or a native-app deep link scheme; `javascript:`, `data:`, `file:` and `intent:` are always
 * rejected"; Errors — "invalid_return_url 400 return_url is not an absolute https URL or a native
 * deep link".
 * "Always rejected" is judged the way a browser reads the URL (WHATWG: scheme letter case ignored,
 * tab/CR/LF removed anywhere, leading C0 controls and spaces stripped), so the forbidden schemes are
 * also sent disguised, and with "//" after the colon so that a deep-link check cannot reject them
 * by accident. Unusual custom schemes and odd https forms are observed only.
 */
import {
  borderlineReturnUrl, invalidCreateRequest, invalidReturnUrl, validReturnUrl, type InvalidCase,
} from '../../service/generators/index.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { create, expectCreated, expectRejected, fixedCase, fresh, marker, Outcomes } from './support.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { FORBIDDEN_SCHEME_CASES, NOT_HTTPS_CASES, VALID_RETURN_URL_CASES } from '../../service/generators/cases/create.ts';

function bodyWith(t: RuleContext, returnUrl: unknown) {
  return { amount: '10.00', return_url: returnUrl, external_id: t.externalId('url'), metadata: t.metadata() };
}

async function expectUrlRejected(t: RuleContext, c: InvalidCase<string>): Promise<void> {
  expectRejected(await create(t, bodyWith(t, c.value)), c);
}

ruleTest('CREATE-RETURN-URL-VALID', async (t) => {
  const check = async (url: string) => {
    const body = bodyWith(t, url);
    expectCreated(await create(t, body), body, `return_url ${JSON.stringify(url)}`);
  };
  await t.cases(VALID_RETURN_URL_CASES, check);
  await batched(t, validReturnUrl(), check, share(t.runs, 0.4));
});

ruleTest('CREATE-RETURN-URL-FORBIDDEN-SCHEME', async (t) => {
  await t.cases(FORBIDDEN_SCHEME_CASES, (r) =>
    expectUrlRejected(t, fixedCase(r.value, 'CREATE-RETURN-URL-FORBIDDEN-SCHEME', ['invalid_return_url'], `return_url ${JSON.stringify(r.value)} uses an always-rejected scheme (${r.how})`)));
  await batched(t, invalidReturnUrl({ breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'] }), (c) => expectUrlRejected(t, c), share(t.runs, 0.4));
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'], marker: marker(t) }), async (c) => {
    expectRejected(await create(t, fresh(t, c.value, 'url')), c);
  }, share(t.runs, 0.1));
});

ruleTest('CREATE-RETURN-URL-NOT-HTTPS', async (t) => {
  await t.cases(NOT_HTTPS_CASES, (r) =>
    expectUrlRejected(t, fixedCase(r.value, 'CREATE-RETURN-URL-NOT-HTTPS', ['invalid_return_url'], `return_url ${JSON.stringify(r.value)} is ${r.how}`)));
  await batched(t, invalidReturnUrl({ breaks: ['CREATE-RETURN-URL-NOT-HTTPS'] }), (c) => expectUrlRejected(t, c), share(t.runs, 0.4));
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-RETURN-URL-NOT-HTTPS'], marker: marker(t) }), async (c) => {
    expectRejected(await create(t, fresh(t, c.value, 'url')), c);
  }, share(t.runs, 0.1));
});

ruleTest('CREATE-RETURN-URL-BORDERLINE', async (t) => {
  const outcomes = new Outcomes();
  const observeOne = async (c: { value: string; why: string }) => {
    const res = await create(t, bodyWith(t, c.value));
    outcomes.add(c, res, res.status === 201 && res.json?.return_url !== c.value ? { returned: res.json?.return_url } : {});
  };
  const fixed = [
    ['a://done', 'a one-character scheme'],
    ['MyApp://done', 'an upper-case app scheme'],
    ['myapp:done', 'a deep link without "//"'],
    ['myapp:///done', 'a deep link with an empty host'],
    ['vbscript:msgbox(1)', 'vbscript:, a script scheme the spec does not name'],
    ['ftp://example.com/done', 'ftp:'],
    ['https:/shop.example.com/done', 'https with one slash'],
    ['HTTPS://shop.example.com/done', 'https in upper case'],
    ['https://localhost/done', 'a loopback host'],
    [' https://shop.example.com/done', 'a leading space before https'],
  ].map(([value, why]) => ({ value: value!, why: why! }));
  await eachCase(fixed, observeOne);
  await batched(t, borderlineReturnUrl(), observeOne, share(t.runs, 0.2));
  outcomes.record(t);
});
