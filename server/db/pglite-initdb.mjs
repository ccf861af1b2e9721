// Creates a PGlite data directory (initdb) and exits. Run as a child process by client.ts: initdb runs in a second
// PGlite instance whose WebAssembly heap the parent would keep as resident memory (about 400 MB) for its lifetime.
import { PGlite } from '@electric-sql/pglite';

const db = new PGlite(process.argv[2]);
await db.waitReady;
await db.close();
