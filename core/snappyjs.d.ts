/** snappyjs ships no types: the two functions of its API used here (block format, not framed). */
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array): Uint8Array;
}
