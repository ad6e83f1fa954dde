/**
 * The example operator's suite (examples/operator/test/operator-suite.ts)
 * under vitest, over both of its Kubernetes clients: watchmark's and
 * @kubernetes/client-node's.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { operatorSuite } from '../../examples/operator/test/operator-suite.js';

operatorSuite({ describe, it, beforeEach, afterEach });
