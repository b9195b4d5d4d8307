// `npm start`: the service (service.ts), once the Node.js running it is one the project supports.
import { refuseOldNode } from './nodeVersion.js';

refuseOldNode();
await import('./service.js');
