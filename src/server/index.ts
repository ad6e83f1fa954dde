/** The watchmark API server as a library: `import { startServer } from 'watchmark/server'`. */
export { type RunningServer, startServer } from './api-server.js';
export { DEFAULTS, type ServerOptions } from './options.js';
export type { ServerStats } from './stats/stats.js';
export { MemoryStore } from './storage/stores/memory.js';
export { type Store, StoreError, type StoreEvent, type StoreKV } from './storage/stores/types.js';
