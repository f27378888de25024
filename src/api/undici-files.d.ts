/**
 * The two files of undici the client loads (src/api/client.ts): its Pool class and its request(),
 * typed from the package's own declarations. undici has no `exports` map; these paths are part of
 * its published layout.
 */
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}

declare module 'undici/lib/api/index.js' {
  import type { Dispatcher, Pool } from 'undici';
  const api: { request: (this: Pool, options: Parameters<Dispatcher['request']>[0]) => Promise<Dispatcher.ResponseData> };
  export default api;
}
