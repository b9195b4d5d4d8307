// `npm start`: the service (service.ts), once the Node.js running it is one the project supports.
// No top-level await: the oldest Node.js with ES modules must read this far.
import { cacheCompiledCode, refuseOldNode } from './nodeVersion.js';

refuseOldNode();
cacheCompiledCode();
void import('./service.js');
