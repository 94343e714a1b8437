/**
 * `webhooks judge` on real logs: the reference server (retry clock × 2000) delivers to a real sink
 * whose answer plan fails every attempt (`metadata.sink: fail:500x999`); the sink's durable log is
 * then judged from the file alone. The clean reference passes every judged rule; each planted
 * schedule fault is caught on its rule; the judge honours the time scale (the same log judged at
 * time scale 1 fails: its retries came long before the real gaps); a tampered log fails the
 * signature; a file that is not a sink log is one line and exit 2.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientForProfile } from '../../core/client-for-profile.ts';
import { readReportFile } from '../../core/report-file.ts';
import type { Profile } from '../../core/profile.ts';
import type { Report, RuleReport } from '../../catalogue/report/model.ts';
import { startReference } from '../../references/service/index.ts';
import { startSink } from '../../service/sink/index.ts';
import { freePort } from '../../service/harness/main/embedded.ts';
import { judgeSinkLog } from '../../service/judge/run-judge.ts';
import { RETRY_GAPS_MS as JUDGE_GAPS, CLOCK_SLACK_MS as JUDGE_SLACK } from '../../service/judge/schedule.ts';
import { RETRY_GAPS_MS as SUITE_GAPS, CLOCK_SLACK_MS as SUITE_SLACK } from '../../suites/webhooks/limits.ts';
import { runMain } from '../load/helpers.ts';

const SCALE = 2000;
const TMP = mkdtempSync(join(tmpdir(), 'hps-judge-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface BuiltLog {
  dir: string;
  logFile: string;
  profile: Profile;
  profilePath: string;
}

/**
 * A sink log of one Payment created and paid with every attempt failing, at time scale 2000; the
 * sink keeps watching `watchMs` after the reference has nothing more scheduled, then closes (its stop line).
 */
async function buildLog(name: string, faults: string[], watchMs: number): Promise<BuiltLog> {
  const dir = join(TMP, name);
  mkdirSync(dir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const ref = await startReference({ timeScale: SCALE, webhookBaseUrl: `http://127.0.0.1:${port}`, faults });
    const profile = ref.profile as Profile;
    const logFile = join(dir, `sink-${attempt}.jsonl`);
    let sink;
    try {
      sink = await startSink({
        listen: `127.0.0.1:${port}`,
        endpoints: profile.webhooks!.endpoints.map((e) => ({ ...e, enabled: e.enabled ?? true })),
        logFile,
        fsync: false,
      });
    } catch (e) {
      await ref.close();
      if (attempt < 4 && /EADDRINUSE|listen/.test(String((e as Error).message))) continue;
      throw e;
    }
    try {
      const client = clientForProfile(profile);
      const created = await client.createPayment(
        profile.keys.test,
        { amount: '100.00', external_id: `judge-${name}`, metadata: { sink: 'fail:500x999' } },
      );
      expect(created.status, name).toBe(201);
      expect((await client.simulateSucceeded(profile.keys.test, (created.json as { id: string }).id)).status, name).toBe(200);
      await ref.built.dispatcher.whenIdle();
      await sleep(watchMs);
    } finally {
      await ref.close();
      await sink.close();
    }
    const profilePath = join(dir, 'profile.json');
    writeFileSync(profilePath, JSON.stringify(profile));
    return { dir, logFile, profile, profilePath };
  }
}

const status = (r: Report, id: string) => r.rules.find((x: RuleReport) => x.id === id)?.status;
const statuses = (r: Report) => Object.fromEntries(r.rules.map((x) => [x.id, x.status]));

async function judge(b: BuiltLog, out: string, o: { timeScale?: number; withProfile?: boolean } = {}) {
  const lines: string[] = [];
  const res = await judgeSinkLog({
    logFile: b.logFile, reportDir: join(b.dir, out),
    ...(o.withProfile === false ? {} : { profile: b.profile, profilePath: b.profilePath }),
    ...(o.timeScale !== undefined ? { timeScale: o.timeScale } : {}),
    log: (l) => lines.push(l),
  });
  return { ...res, lines };
}

/** The 8th attempt's missing 8th needs the 6 h gap (10.8 s here) plus its tolerance (5.4 s) watched. */
const WATCH_FOR_MISSING_MS = (RETRY_GAPS_MS_LAST() / SCALE) * 1.5 + 1500;
function RETRY_GAPS_MS_LAST(): number {
  return JUDGE_GAPS[JUDGE_GAPS.length - 1]!;
}

/** Each planted schedule fault and the rule that must catch it from the log alone (a SHOULD rule: WARN). */
const FAULTS: Array<{ fault: string; rule: string; status: 'fail' | 'warn'; watchMs: number }> = [
  { fault: 'retry-gaps-shifted', rule: 'HOOK-RETRY-SCHEDULE', status: 'fail', watchMs: 2000 },
  { fault: 'seven-attempts', rule: 'HOOK-RETRY-SCHEDULE', status: 'fail', watchMs: WATCH_FOR_MISSING_MS },
  { fault: 'nine-attempts', rule: 'HOOK-MAX-ATTEMPTS', status: 'fail', watchMs: 2000 },
  { fault: 'retry-body-regenerated', rule: 'HOOK-RETRY-SAME-BODY', status: 'fail', watchMs: 2000 },
  { fault: 'retry-gets-new-event-id', rule: 'HOOK-RETRY-SAME-BODY', status: 'fail', watchMs: 2000 },
  { fault: 'retry-backoff-doubled', rule: 'HOOK-RETRY-PUNCTUAL', status: 'warn', watchMs: 2000 },
  { fault: 'retry-resends-first-signature', rule: 'HOOK-SIGNED-PER-ATTEMPT', status: 'fail', watchMs: 2000 },
];

describe('webhooks judge on logs of the reference at time scale 2000', () => {
  // Every log is built at once (each its own reference and sink): the schedule takes ~16 s of real time, ~32 s doubled.
  const built = (async () => {
    const [clean, ...faulty] = await Promise.all([
      buildLog('clean', [], WATCH_FOR_MISSING_MS),
      ...FAULTS.map((f) => buildLog(f.fault, [f.fault], f.watchMs)),
    ]);
    return { clean: clean!, faulty: faulty as BuiltLog[] };
  })();
  built.catch(() => {});

  it('the clean reference: every judged rule PASSES, with the whole schedule compared; the CLI writes every report, compare and the certificate use them', async () => {
    const { clean } = await built;
    const dir = join(clean.dir, 'cli');
    const cli = await runMain(['webhooks', 'judge', '--log', clean.logFile, '--profile', clean.profilePath, '--report', dir]);
    expect(cli.err).toBe('');
    expect(cli.code, cli.out).toBe(0);
    const report = readReportFile(dir) as Report; // validated against the closed schema
    expect(statuses(report)).toEqual({
      'HOOK-RETRY-SCHEDULE': 'pass',
      'HOOK-RETRY-PUNCTUAL': 'pass',
      'HOOK-MAX-ATTEMPTS': 'pass',
      'HOOK-RETRY-SAME-BODY': 'pass',
      'HOOK-SIGNATURE-VALID': 'pass',
      'HOOK-SIGNED-PER-ATTEMPT': 'pass',
    });
    expect(report.side).toBe('service');
    expect(report.selection.rules).toHaveLength(6);
    expect(report.source_log).toMatchObject({ time_scale: SCALE, stopped_in_order: true, restarts: 0, skipped_lines: 0 });
    // Every gap of the schedule was compared on every (endpoint, event) pair, none partly checked.
    const gaps = report.rules.find((r) => r.id === 'HOOK-RETRY-SCHEDULE')!.observed!.gaps_compared as Record<string, number>;
    expect(Object.values(gaps).every((n) => n >= 2)).toBe(true);
    expect(report.rules.some((r) => r.observed?.partly_checked)).toBe(false);
    for (const f of ['report.html', 'summary.md', 'junit.xml', 'certificate.json']) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(cli.out).toMatch(/PASS  HOOK-MAX-ATTEMPTS/);
    const ver = await runMain(['verify-certificate', dir, '--profile', clean.profilePath]);
    expect(ver.code, ver.out + ver.err).toBe(0);
    const faultyRun = await judge((await built).faulty[0]!, 'for-compare');
    const cmp = await runMain([
      'report',
      '--compare',
      `${dir}=clean`,
      `${faultyRun.reportDir}=shifted`,
      '--out',
      join(TMP, 'compare.html'),
    ]);
    expect(cmp.code, cmp.err).toBe(0);
    console.log(`judge figures: clean log ${report.source_log!.deliveries} deliveries of ${report.source_log!.events} events, ${report.rules.length} rules judged in ${report.duration_ms} ms`);
  }, 120_000);

  it('each planted schedule fault is caught on its rule, from the log alone', async () => {
    const { faulty } = await built;
    const caught: string[] = [];
    for (const [i, f] of FAULTS.entries()) {
      const r = await judge(faulty[i]!, 'judged');
      expect(status(r.report, f.rule), `${f.fault}: ${JSON.stringify(statuses(r.report))}\n${r.lines.join('\n')}`).toBe(f.status);
      caught.push(`${f.fault} → ${f.rule} ${f.status.toUpperCase()} (${r.report.duration_ms} ms)`);
    }
    console.log(`judge figures: ${caught.length} of ${FAULTS.length} schedule faults caught:\n  ${caught.join('\n  ')}`);
  }, 120_000);

  it('takes the time scale into account: the clean log judged as if at time scale 1 FAILS the schedule; --time-scale without a profile passes', async () => {
    const { clean } = await built;
    const asIfReal = await judge(clean, 'scale-1', { withProfile: false });
    expect(status(asIfReal.report, 'HOOK-RETRY-SCHEDULE')).toBe('fail');
    expect(asIfReal.report.rules.find((r) => r.id === 'HOOK-RETRY-SCHEDULE')!.reason).toMatch(/before its 30 s gap/);
    const scaled = await judge(clean, 'scale-flag', { withProfile: false, timeScale: SCALE });
    expect(statuses(scaled.report)).toMatchObject({
      'HOOK-RETRY-SCHEDULE': 'pass',
      'HOOK-MAX-ATTEMPTS': 'pass',
      'HOOK-RETRY-SAME-BODY': 'pass',
      'HOOK-SIGNATURE-VALID': 'pass',
    });
  }, 60_000);

  it('a log cut short says what it could not judge (partly checked), and never passes the limit on no evidence', async () => {
    const { clean } = await built;
    // Keep the start and the first 8 deliveries (3 (endpoint, event) pairs: one has a retry), as if the sink had crashed then.
    let n = 0;
    const cut = readFileSync(
      clean.logFile,
      'utf8',
    ).split('\n').filter((l) => l.includes('"line":"start"') || (l.includes('"line":"delivery"') && ++n <= 8));
    const short = { ...clean, logFile: join(clean.dir, 'short.jsonl') };
    writeFileSync(short.logFile, cut.join('\n') + '\n');
    const r = await judge(short, 'short');
    expect(status(r.report, 'HOOK-MAX-ATTEMPTS')).toBe('skip');
    expect(status(r.report, 'HOOK-RETRY-SCHEDULE')).not.toBe('fail');
    expect(r.lines.join('\n')).toMatch(/PARTLY CHECKED HOOK-RETRY-SCHEDULE/);
  }, 60_000);

  it('a tampered body fails the signature (checked with the profile\'s secret) and the same-bytes rule', async () => {
    const { clean } = await built;
    const lines = readFileSync(clean.logFile, 'utf8').split('\n');
    const i = lines.findIndex((l, n) => n > 3 && l.includes('"line":"delivery"'));
    const rec = JSON.parse(lines[i]!);
    const body = Buffer.from(rec.delivery.body, 'base64');
    body[body.length - 2] = body[body.length - 2]! ^ 1;
    rec.delivery.body = body.toString('base64');
    lines[i] = JSON.stringify(rec);
    const tampered = { ...clean, logFile: join(clean.dir, 'tampered.jsonl') };
    writeFileSync(tampered.logFile, lines.join('\n'));
    const r = await judge(tampered, 'tampered');
    expect(status(r.report, 'HOOK-SIGNATURE-VALID')).toBe('fail');
    expect(status(r.report, 'HOOK-RETRY-SAME-BODY')).toBe('fail');
  }, 60_000);
});

describe('webhooks judge refuses what is not a sink log: one line, exit 2', () => {
  const file = (name: string, content: string | Buffer) => {
    const p = join(TMP, name);
    writeFileSync(p, content);
    return p;
  };
  it.each([
    ['absent', join(TMP, 'nope.jsonl'), /cannot read it \(ENOENT\)/],
    ['empty', file('empty.jsonl', ''), /empty: not a sink log/],
    ['another JSON file', file('other.json', '{"tool":{"name":"x"}}\n'), /line 1 is not a sink log line/],
    ['binary', file('bin.jsonl', Buffer.from([0, 1, 2, 0xff, 0x0a, 0x00])), /line 1 is not a sink log line/],
    ['a directory', TMP, /not a regular file/],
  ])('%s', async (_name, path, message) => {
    const r = await runMain(['webhooks', 'judge', '--log', path, '--report', join(TMP, 'bad-out')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message);
  });

  it('a log over the size cap, and one with more deliveries than the sink keeps, are refused before judging', async () => {
    const start = JSON.stringify({ line: 'start', at: 1, pid: 1, endpoints: [] });
    const p = file('big.jsonl', `${start}\n${'x'.repeat(2000)}\n`);
    await expect(judgeSinkLog({
      logFile: p,
      reportDir: join(TMP, 'big-out'),
      caps: { maxBytes: 1000, maxLineBytes: 1 << 20, maxAttempts: 10 },
      log: () => {},
    })).rejects.toThrow(/over the judge's cap of 1000 bytes/);
    const d = (seq: number) => JSON.stringify({
      line: 'delivery',
      delivery: {
        seq,
        receivedAt: seq,
        path: '/h',
        body: '',
        headers: {},
        answer: { kind: 'status', status: 500 },
        problem: null,
        event: { id: `evt_${seq}` },
      },
    });
    const many = file('many.jsonl', `${start}\n${[1, 2, 3, 4].map(d).join('\n')}\n`);
    await expect(judgeSinkLog({
      logFile: many,
      reportDir: join(TMP, 'many-out'),
      caps: { maxBytes: 1 << 20, maxLineBytes: 1 << 20, maxAttempts: 3 },
      log: () => {},
    })).rejects.toThrow(/more than 3 event deliveries/);
  });

  it('an overlong line and a torn last line are skipped and counted, never parsed', async () => {
    const start = JSON.stringify({ line: 'start', at: 1, pid: 1, endpoints: [] });
    const p = file('torn.jsonl', `${start}\n${'y'.repeat(5000)}\n{"line":"delivery","deliv`);
    const r = await judgeSinkLog({ logFile: p, reportDir: join(TMP, 'torn-out'), caps: { maxBytes: 1 << 20, maxLineBytes: 1000, maxAttempts: 10 }, log: () => {} });
    expect(r.report.source_log).toMatchObject({ skipped_lines: 2, deliveries: 0, stopped_in_order: false });
    expect(r.report.rules.every((x) => x.status === 'skip')).toBe(true);
    expect(r.exitCode).toBe(6); // every rule SKIP: nothing failed, nothing proven: incomplete
  });
});

it('the judge\'s schedule is the suite\'s (the spec\'s numbers written twice, kept equal here)', () => {
  expect(JUDGE_GAPS).toEqual(SUITE_GAPS);
  expect(JUDGE_SLACK).toBe(SUITE_SLACK);
});
