/**
 * The file of undici the client loads (src/api/client.ts): its Pool class, typed from the package's
 * own declarations. The package's index loads fetch, WebSocket, caches, mocks and the rest besides
 * (~110 modules, against ~25 for the pool, which the bundle holds). undici has no `exports` map;
 * this path is part of its published layout.
 */
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
