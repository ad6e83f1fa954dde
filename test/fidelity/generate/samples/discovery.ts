/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta } from './kit.js';

export const discoverySamples: KindSample[] = [
  {
    ...grouped('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true, 'discovery'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: meta(name, { 'kubernetes.io/service-name': 'web' }),
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    }),
    change: { path: ['endpoints', '0', 'addresses', '0'], value: '10.0.0.2' },
  },
];
