/**
 * esid: Errors — "invalid_external_id 400 external_id invalid or too long".
 */
import { blankExternalId, invalidCreateRequest } from '../../generators/index.ts';
import { ruleTest } from '../../runner/rule-test.ts';
import { share } from '../../runner/depth.ts';
import { batched, create, expectRejected, marker } from './support.ts';

ruleTest('CREATE-EXTERNAL-ID-BLANK', async (t) => {
  await batched(t, blankExternalId(), async (c) => expectRejected(await create(t, { amount: '10.00', external_id: c.value, metadata: t.metadata() }), c), share(t.runs, 0.25));
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-EXTERNAL-ID-BLANK'], marker: marker(t) }), async (c) => expectRejected(await create(t, c.value), c), share(t.runs, 0.25));
});
