#!/usr/bin/env node
// The two things action.yml's bash steps cannot do safely by themselves (plain JavaScript, no tsx):
//   node action-step.mjs args            reads $HPS_ARGS (run-args / load-args) and writes its
//                                        arguments NUL-separated: a JSON array of strings, or
//                                        one argument per line (several lines), or a single line
//                                        split on whitespace (the old form: no argument with a space)
//   node action-step.mjs outputs DIR CODE  reads DIR/report.json (untrusted) and writes the step's
//                                        outputs as GITHUB_OUTPUT lines: verdict (as report.json
//                                        says it), exit-status (CODE), gate (passed / failed / empty
//                                        without --require), classes (the conformant ones, comma-separated)
// A bad value is one line on stderr and exit 2.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_ARGS = 256;
const WORD = /^[a-z][a-z0-9_-]{0,63}$/;

function fail(line) {
  process.stderr.write(`hps-conformance action: ${line}\n`);
  process.exit(2);
}

/** The arguments of a run-args / load-args input. */
function argsOf(text) {
  const value = text.trim();
  if (value === '') return [];
  let args;
  if (value.startsWith('[')) {
    try {
      args = JSON.parse(value);
    } catch {
      fail('run-args / load-args: starts with [ but is not a JSON array of strings');
    }
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) fail('run-args / load-args: the JSON array must hold strings only');
  } else if (value.includes('\n')) {
    args = value.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  } else {
    args = value.split(/\s+/);
  }
  if (args.length > MAX_ARGS) fail(`run-args / load-args: more than ${MAX_ARGS} arguments`);
  if (args.some((a) => a.includes('\0'))) fail('run-args / load-args: an argument holds a NUL');
  return args;
}

/** The step outputs from DIR/report.json and the exit status. */
function outputsOf(dir, code) {
  if (/[\r\n]/.test(dir)) fail('report-dir: may not contain a line break');
  const lines = [`exit-status=${/^\d{1,3}$/.test(code) ? code : ''}`];
  const file = join(dir, 'report.json');
  if (!existsSync(file)) return lines;
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return lines;
  }
  const verdict = typeof report?.verdict === 'string' && WORD.test(report.verdict) ? report.verdict : '';
  const gate = report?.gate && Array.isArray(report.gate.unmet) ? (report.gate.unmet.length > 0 ? 'failed' : 'passed') : '';
  const classes = Array.isArray(report?.classes) ? report.classes.filter((c) => c?.status === 'conformant' && typeof c.id === 'string' && WORD.test(c.id)).map((c) => c.id) : [];
  lines.push(`verdict=${verdict}`, `gate=${gate}`, `classes=${classes.join(',')}`, `report=${file}`);
  if (existsSync(join(dir, 'certificate.json'))) lines.push(`certificate=${join(dir, 'certificate.json')}`);
  return lines;
}

const [what, ...rest] = process.argv.slice(2);
if (what === 'args') process.stdout.write(argsOf(process.env.HPS_ARGS ?? '').map((a) => `${a}\0`).join(''));
else if (what === 'outputs' && rest.length === 2) process.stdout.write(outputsOf(rest[0], rest[1]).map((l) => `${l}\n`).join(''));
else fail('usage: action-step.mjs args | outputs DIR CODE');
