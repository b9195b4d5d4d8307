#!/usr/bin/env node
// `cartelera`: the command line (program.ts), once the Node.js running it is one the project supports.
import { refuseOldNode } from '../nodeVersion.js';

refuseOldNode();
void import('./program.js');
