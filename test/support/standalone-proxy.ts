/**
 * `hps-conformance proxy` in process, standalone (no --run), stopped by the test: started, its URL
 * read from its first line, every line it printed kept.
 */
import { runProxy, type ProxyOptions, type ProxyResult } from '../../merchant/client/proxy-run.ts';

export interface StandaloneProxy {
  /** Where the proxy listens (`http://127.0.0.1:…`). */
  readonly url: string;
  /** Every line the proxy printed so far. */
  readonly lines: string[];
  /** Stops the proxy and waits for its end (its reports written). */
  stop(): Promise<ProxyResult>;
}

/** Starts the proxy with `o` (no `run`, `stop`, `log` or `live`: the test stops it); resolves once it listens. */
export async function startStandaloneProxy(
  o: Omit<ProxyOptions, 'run' | 'stop' | 'log' | 'live'>,
  onLine: (line: string) => void = () => {},
): Promise<StandaloneProxy> {
  const lines: string[] = [];
  let stop = () => {};
  let url = '';
  let ended = false;
  const run = runProxy({
    ...o,
    stop: new Promise<void>((r) => (stop = r)),
    log: (l) => {
      lines.push(l);
      url ||= /proxy: (http:\/\/\S+)/.exec(l)?.[1] ?? '';
      onLine(l);
    },
    live: () => {},
  }).finally(() => (ended = true));
  for (const deadline = Date.now() + 60_000; !url;) {
    if (ended) throw new Error(`the proxy ended before it listened: ${lines.slice(-3).join(' | ')}`);
    if (Date.now() > deadline) throw new Error('the proxy printed no URL within 60 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  return { url, lines, stop: () => (stop(), run) };
}
