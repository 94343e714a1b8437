/**
 * One promise at a time, settled later from callbacks (a socket's data, undici's handler), with
 * no closure made per promise: the executor is made once. Settling clears both callbacks, so a
 * late second settlement is a no-op.
 */
const noop = (): void => undefined;

export class Settler<T> {
  private onResolve: (v: T) => void = noop;
  private onReject: (e: Error) => void = noop;
  private readonly executor = (resolve: (v: T) => void, reject: (e: Error) => void): void => {
    this.onResolve = resolve;
    this.onReject = reject;
  };

  /** A new pending promise (the previous one must be settled by then). */
  next(): Promise<T> {
    return new Promise<T>(this.executor);
  }

  resolve(v: T): void {
    const f = this.onResolve;
    this.onResolve = this.onReject = noop;
    f(v);
  }

  reject(e: Error): void {
    const f = this.onReject;
    this.onResolve = this.onReject = noop;
    f(e);
  }
}
