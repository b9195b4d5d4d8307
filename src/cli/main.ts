#!/usr/bin/env node
// `cartelera`: the command line (program.ts), once the Node.js running it is one the project supports.
import { cacheCompiledCode, refuseOldNode } from '../nodeVersion.js';

refuseOldNode();
cacheCompiledCode();
void import('./program.js');
