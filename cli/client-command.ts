import type { Options } from './main.ts';
export async function clientCommand(_o: Options): Promise<number> { return 2; }
