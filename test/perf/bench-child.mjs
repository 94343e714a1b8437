// One bench phase in its own (pinnable) process: registers tsx, then runs bench-child-main.ts.
import { register } from 'tsx/esm/api';

register();
await import('./bench-child-main.ts');
