// The embedded reference server's own process (target.ts): registers tsx, then starts it.
import { register } from 'tsx/esm/api';

register();
await import('./reference-child-main.ts');
