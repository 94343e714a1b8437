/**
 * The kernel's TCP counters that tell a loopback connection waited in the kernel (Linux, this
 * network namespace, every process in it): accept queues that overflowed, SYNs retransmitted (1 s,
 * then 2 s more, each). A test that times deliveries prints their change beside its own figures, so
 * seconds lost between two processes whose event loops were free can be told apart from the rest.
 * Empty where /proc/net/netstat cannot be read.
 */
import { readFileSync } from 'node:fs';

const NAMES = ['ListenOverflows', 'ListenDrops', 'TCPSynRetrans', 'TCPTimeouts'] as const;
export type TcpCounters = Partial<Record<(typeof NAMES)[number], number>>;

export function tcpCounters(): TcpCounters {
  let text: string;
  try {
    text = readFileSync('/proc/net/netstat', 'utf8');
  } catch {
    return {};
  }
  const [head, values] = text.split('\n').filter((l) => l.startsWith('TcpExt:'));
  if (!head || !values) return {};
  const names = head.split(/\s+/);
  const numbers = values.split(/\s+/);
  const out: TcpCounters = {};
  for (const name of NAMES) {
    const i = names.indexOf(name);
    if (i > 0 && Number.isFinite(Number(numbers[i]))) out[name] = Number(numbers[i]);
  }
  return out;
}

/** "ListenOverflows +3, TCPSynRetrans +5 …" since `before`, or '' when nothing could be read. */
export function tcpCountersSince(before: TcpCounters): string {
  const now = tcpCounters();
  return NAMES.filter((n) => now[n] !== undefined && before[n] !== undefined).map((n) => `${n} +${now[n]! - before[n]!}`).join(', ');
}
