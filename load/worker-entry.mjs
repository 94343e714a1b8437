// Worker-thread entry: registers tsx's loader in this thread (hooks are not inherited), then
// runs one generator with the configuration in workerData and posts its result back.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
