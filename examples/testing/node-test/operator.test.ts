// The example operator's suite (examples/operator/test/operator-suite.ts) under node:test,
// over both of its Kubernetes clients.

import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { operatorSuite } from '../../operator/test/operator-suite.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, after);

operatorSuite({ describe, it, beforeEach, afterEach });
