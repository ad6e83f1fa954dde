/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta } from './kit.js';

const net = (kind: string, plural: string, namespaced: boolean) =>
  grouped('networking.k8s.io', 'v1', kind, plural, namespaced, 'networking');

export const networkingSamples: KindSample[] = [
  {
    ...net('Ingress', 'ingresses', true),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: meta(name),
      spec: {
        rules: [
          {
            host: 'web.example.com',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'web', port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    }),
    change: { path: ['spec', 'rules', '0', 'host'], value: 'www.example.com' },
  },
  {
    ...net('IngressClass', 'ingressclasses', false),
    subresources: [],
    object: (name) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: meta(name),
      spec: { controller: 'example.com/ingress-controller' },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'edge' },
  },
  {
    ...net('NetworkPolicy', 'networkpolicies', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta(name),
      spec: {
        podSelector: { matchLabels: { app: 'web' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }], ports: [{ port: 80 }] }],
      },
    }),
    change: { path: ['spec', 'podSelector', 'matchLabels', 'app'], value: 'api' },
  },
  {
    ...net('ServiceCIDR', 'servicecidrs', false),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'ServiceCIDR',
      metadata: meta(name),
      spec: { cidrs: ['10.250.0.0/24'] },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'extra' },
  },
];
