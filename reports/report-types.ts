/**
 * The shape of report.json (DESIGN.md), extended additively: `tests`,
 * `error`/`flaky` statuses, `must` counts and `observed` per rule. HTML, JUnit
 * and Markdown are rendered from this file alone.
 */
import type { Exchange } from '../harness/client.ts';

export type RuleStatus = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'flaky';

export type Evidence =
  | { kind: 'mismatch'; message: string; expected?: unknown; actual?: unknown; source?: { rule: string; test: string } }
  | { kind: 'exchange'; exchange: Exchange }
  | { kind: 'property'; seed: number; runs: number; path?: string; counterexample: string; replayOutcome: string }
  | { kind: 'replay'; command: string }
  | { kind: 'note'; message: string };

export interface RuleReport {
  id: string;
  area: string;
  level: 'MUST' | 'SHOULD' | 'OBSERVE';
  status: RuleStatus;
  title: string;
  spec: string;
  reason?: string;
  ruling?: string;
  untestable?: boolean;
  evidence: Evidence[];
  observed?: Record<string, unknown>;
  /** Checks the rule's tests made (verifiers, and ambient checks for RESP-* rules); 0 never passes. */
  checks?: number;
  tests: Array<{ title: string; state: 'pass' | 'fail' | 'skip'; duration_ms: number; requests: number; error?: string }>;
}

export interface Report {
  tool: { name: string; version: string };
  target: { base_url: string; embedded_reference: boolean };
  run_id: string;
  seed: number;
  runs: number;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  selection: { areas: string[]; rules: string[] };
  verdict: 'conformant' | 'not_conformant';
  summary: { pass: number; fail: number; warn: number; info: number; skip: number; error: number; flaky: number };
  /** MUST rules: `total` catalogued, `untestable` of them not exercisable through the API, `ran` of the rest. */
  must: { total: number; testable: number; untestable: number; ran: number; passed: number; failed: number; skipped: number };
  requests: number;
  rules: RuleReport[];
  mutation?: unknown;
}
