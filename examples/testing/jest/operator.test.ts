// The example operator's suite (examples/operator/test/operator-suite.ts) under jest,
// over both of its Kubernetes clients.

import { afterAll, afterEach, beforeEach, describe, it } from '@jest/globals';
import { operatorSuite } from '../../operator/test/operator-suite.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, afterAll);

operatorSuite({ describe, it, beforeEach, afterEach });
