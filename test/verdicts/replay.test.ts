/**
 * Replay lines reproduce: for several planted faults and seeds (negative and
 * positive), the replay line printed for a failing rule is taken out of
 * report.json and run as printed; the same rule fails again. One case is an
 * ambient finding, whose replay line must also run the rule whose traffic
 * produced the exchange.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { faultAreas } from '../../service/mutation/score.ts';
import type { FaultName } from '../../service/mutation/faults.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { runChild } from '../support/run-child.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-replay-'));

async function cli(args: string[], report: string): Promise<Report> {
  const r = await runChild(process.execPath, [BIN, ...args, '--report', report], { timeoutMs: 240_000 });
  expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(1);
  return JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as Report;
}

const CASES: Array<{ fault: FaultName; seed: number; rule?: string }> = [
  { fault: 'list-limit-clamped', seed: -620616603 },
  { fault: 'list-limit-clamped', seed: 7 },
  { fault: 'bearer-scheme-not-checked', seed: -5 },
  { fault: 'bearer-scheme-not-checked', seed: 20261122 },
  // Found by the ambient check on the create tests' traffic, not by a test of its own rule only.
  { fault: 'create-answers-amount-as-number', seed: -1, rule: 'RESP-PAYMENT-SCHEMA' },
];

it('every replay line taken from a report reproduces its failure', async () => {
  // The cases side by side (each its own two runs, one after the other): a scoped run mostly waits
  // on its child's start and its target, so five in a row cost five times the wall time of one.
  const outcomes = await Promise.all(CASES.map(async (c, i) => {
    const areas = [...faultAreas(c.fault), ...(c.rule ? ['create'] : [])].flatMap((a) => ['--area', a]);
    const first = await cli(['run', ...areas, '--fault', c.fault, `--seed=${c.seed}`, '--runs', '20'], join(dir, `first-${i}`));
    const failing = first.rules.find((r) => r.status === 'fail' && (!c.rule || r.id === c.rule));
    expect(failing, `${c.fault} seed ${c.seed}: no failing rule`).toBeDefined();
    const replay = failing!.evidence.find((e) => e.kind === 'replay');
    expect(replay?.kind).toBe('replay');
    const line = (replay as { command: string }).command;
    expect(line).toContain(`--seed=${c.seed}`);
    const words = line.split(' ');
    // The line starts as the tool was started (core/invocation.ts): under `npm test`, npx.
    const at = words.indexOf('run');
    expect(words.slice(0, at).join(' ')).toMatch(/^(npx hps-conformance|hps-conformance|node \S*hps-conformance\.mjs)$/);
    const again = await cli(words.slice(at), join(dir, `again-${i}`));
    const same = again.rules.find((r) => r.id === failing!.id);
    console.log(`${c.fault} seed ${c.seed}: ${failing!.id} → replay \`${line}\` → ${same?.status}`);
    return same?.status === 'fail';
  }));
  const ran = outcomes.length;
  const reproduced = outcomes.filter(Boolean).length;
  console.log(`replay lines run: ${ran}, reproduced: ${reproduced}`);
  expect(reproduced).toBe(CASES.length);
}, 900_000);
