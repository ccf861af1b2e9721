// The read thread's entry (readers.ts): the server runs from TypeScript sources, so the thread registers tsx's
// loader before it loads read-thread.ts. Both are found from this file, whatever directory the server started in.
import { register } from 'tsx/esm/api';

register();
await import('./read-thread.ts');
