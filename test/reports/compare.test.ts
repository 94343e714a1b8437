/**
 * `report --compare DIR DIR DIR`: three real runs of the create area at seed 1 (the clean
 * reference, and the faults amount-through-float and metadata-21-keys-accepted) side by side.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCommand } from '../../cli/report-command.ts';
import { HarnessError } from '../../core/errors.ts';
import { compareDirs } from './compare-dirs.ts';

const row = (html: string, id: string) => new RegExp(`<tr class="rule-row[^"]*" id="${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';

describe('report DIR', () => {
  it('re-renders one dir; --strict makes WARN and FLAKY JUnit failures', async () => {
    const { dirs } = compareDirs();
    const dir = dirs[1]!;
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    report.rules[0].status = 'warn';
    report.rules[0].reason = 'a SHOULD not met';
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    expect(await reportCommand({}, [dir])).toBe(1);
    const plain = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(await reportCommand({ strict: true }, [dir])).toBe(1);
    const strict = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(plain).not.toContain('type="WARN');
    expect(strict).toContain(`<failure message="a SHOULD not met" type="WARN ${report.rules[0].level}">`);
    expect(strict).toContain('<property name="strict" value="true"/>');
  });
});

describe('report --compare', () => {
  it('renders one row per rule and one column per report, linking to each report\'s details', async () => {
    const { dirs, out } = compareDirs();
    expect(await reportCommand({ compare: true, out }, dirs)).toBe(0);
    const html = readFileSync(out, 'utf8');
    for (const d of dirs) expect(existsSync(join(d, 'report.html'))).toBe(true); // rendered for the links
    const rules = JSON.parse(readFileSync(join(dirs[0]!, 'report.json'), 'utf8')).rules as Array<{ id: string }>;
    expect(html.match(/<tr class="rule-row/g)).toHaveLength(rules.length);
    expect(html.match(/<th class="impl">/g)).toHaveLength(3);
    const echoed = row(html, 'CREATE-FIELDS-ECHOED');
    expect([...echoed.matchAll(/<td class="c-(\w+)"/g)].map((m) => m[1])).toEqual(['pass', 'fail', 'pass']);
    expect(echoed).toContain('href="../runs/amount-through-float/report.html#CREATE-FIELDS-ECHOED"');
    expect(row(html, 'CREATE-METADATA-TOO-MANY-KEYS')).toMatch(/<td class="c-pass"[\s\S]*<td class="c-pass"[\s\S]*<td class="c-fail"/);
    expect(html).toMatch(/<tr class="rule-row differs" id="CREATE-METADATA-TOO-MANY-KEYS">/);
    expect(html).toMatch(/<tr class="rule-row" id="CREATE-AMOUNT-MISSING">/);
    // OBSERVE values side by side.
    expect(row(
      html,
      'CREATE-DESCRIPTION-LENGTH',
    ).match(/<div class="obsv">longest_accepted: 1000<br>shortest_refused: 1001<br>/g)).toHaveLength(3);
    expect(html).toContain('not a certification: filtered to area(s) create');
  });

  it('DIR=LABEL heads a column with LABEL (escaped); a label empty or with control characters is refused', async () => {
    const { dirs, out } = compareDirs();
    expect(await reportCommand({ compare: true, out }, [`${dirs[0]!}=staging <eu>`, dirs[1]!, `${dirs[2]!}=prod`])).toBe(0);
    const heads = [...readFileSync(out, 'utf8').matchAll(/<th class="impl"><a href="[^"]*">([^<]*)<\/a>/g)].map((m) => m[1]);
    expect(heads).toEqual(['staging &lt;eu&gt;', 'amount-through-float', 'prod']);
    await expect(reportCommand({ compare: true, out }, [`${dirs[0]!}=`, dirs[1]!])).rejects.toThrow(/label after = must be/);
    await expect(reportCommand({ compare: true, out }, [`${dirs[0]!}=a\u001b[31mb`, dirs[1]!])).rejects.toThrow(/label after = must be/);
  });

  it('refuses one DIR, a DIR without report.json, and --out without --compare (exit 2)', async () => {
    const { dirs, root } = compareDirs();
    await expect(reportCommand({ compare: true }, [dirs[0]!])).rejects.toThrow(/at least two DIRs/);
    const err = await reportCommand({ compare: true, out: join(root, 'x.html') }, [dirs[0]!, join(root, 'nope')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/nope.report\.json does not exist/);
    await expect(reportCommand({ out: 'x.html' }, [dirs[0]!])).rejects.toThrow(/--out goes with --compare/);
  });
});

describe('self-contained pages', () => {
  it('report.html and the comparison page load nothing from elsewhere', async () => {
    const { dirs, out } = compareDirs();
    await reportCommand({ compare: true, out }, dirs);
    for (const file of [out, join(dirs[1]!, 'report.html')]) {
      const html = readFileSync(file, 'utf8');
      expect(html).not.toMatch(/<(?:link|img|iframe|object|embed)\b|<script[^>]+src=|@import|url\(/i);
      expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//i);
    }
  });
});
