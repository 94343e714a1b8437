// Layout move (issue 33): git mv per MAP, then rewrite every relative import specifier of every
// tracked .ts/.mjs file so it points at the moved target. Run from the repo root. Prints what it
// cannot rewrite (string paths built at run time) for a hand pass.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, normalize, relative, posix } from 'node:path';

export const MAP = [
  ['schemas', 'catalogue/schemas'],
  ['report', 'catalogue/report'],
  ['reference-receiver', 'references/receiver'],
  ['reference', 'references/service'],
  ['docs/examples/merchant-client', 'references/client'],
  ['seams', 'references/seams'],
  ['runner', 'service/harness'],
  ['core/targets/embedded.ts', 'service/harness/embedded.ts'],
  ['targets', 'core/targets'],
  ['mutation', 'service/mutation'],
  ['verdict', 'results/verdict'],
  ['render', 'results/render'],
  ['generators', 'service/generators'],
  ['webhook-sink', 'service/sink'],
  ['webhook-judge', 'service/judge'],
  ['receiver-cert', 'merchant/receiver'],
  ['client-cert', 'merchant/client'],
  ['examples', 'docs/examples'],
  ['deploy/kubernetes', 'docs/examples/kubernetes'],
  ['bench', 'test/perf'],
];

const git = (...a) => execFileSync('git', a, { encoding: 'utf8' });
const files = git('ls-files').trim().split('\n');
const moved = (p) => {
  for (const [from, to] of MAP) if (p === from || p.startsWith(from + '/')) return to + p.slice(from.length);
  return p;
};
const isCode = (p) => /\.(ts|mts|mjs|js)$/.test(p);
const code = files.filter(isCode);
const rewrites = new Map();
for (const f of code) {
  const text = readFileSync(f, 'utf8');
  const out = text.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g, (m, pre, q, spec) => {
    const target = posix.normalize(posix.join(posix.dirname(f), spec));
    const nf = moved(f), nt = moved(target);
    let r = posix.relative(posix.dirname(nf), nt);
    if (!r.startsWith('.')) r = './' + r;
    return `${pre}${q}${r}${q}`;
  });
  if (out !== text) rewrites.set(f, out);
}
for (const [f, text] of rewrites) writeFileSync(f, text);
for (const [from, to] of MAP) {
  if (!existsSync(from)) continue;
  mkdirSync(dirname(to), { recursive: true });
  git('mv', from, to);
}
console.log(`rewrote imports in ${rewrites.size} files; moved ${MAP.length} folders`);

// Pass 2: path mentions in comments, strings, configs and docs: `old/…` at a token start (not after
// a word character, '.', '/' or '-'), or after '../' runs in docs links. Longest names first.
const ORDER = [...MAP].sort((a, b) => b[0].length - a[0].length);
const names = ORDER.map(([from]) => from.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|');
const reCode = new RegExp(`(^|[^\\w./-])(${names})(?=/)`, 'gm');
const reDoc = new RegExp(`(^|[^\\w./-]|(?:\\.\\./)+)(${names})(?=/)`, 'gm');
const textFiles = git('ls-files').trim().split('\n').filter((p) => /\.(ts|mts|mjs|js|json|jsonc|md|yml|yaml|sh)$|^Dockerfile$|^\.ci\//.test(p) && p !== 'package-lock.json');
let mentions = 0;
for (const f of textFiles) {
  if (!existsSync(f)) continue;
  const text = readFileSync(f, 'utf8');
  const out = text.replace(f.endsWith('.md') ? reDoc : reCode, (m, pre, name) => {
    const to = MAP.find(([from]) => from === name)[1];
    mentions++;
    return pre + to;
  });
  if (out !== text) writeFileSync(f, out);
}
console.log(`rewrote ${mentions} path mentions`);

// tsconfig: the new folders.
{
  const p = 'tsconfig.json';
  const t = readFileSync(p, 'utf8').replace(/"include": \[[^\]]*\]/, '"include": ["bin", "catalogue", "cli", "core", "docs/examples", "load", "merchant", "references", "results", "service", "suites", "test", "*.ts"]');
  writeFileSync(p, t);
}
