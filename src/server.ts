// `npm start`: the service (service.ts), once the Node.js running it is one the project supports.
// No top-level await: the oldest Node.js with ES modules must read this far.
import { refuseOldNode } from './nodeVersion.js';

refuseOldNode();
void import('./service.js');
