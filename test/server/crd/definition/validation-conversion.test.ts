/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { create, type Json } from './validation-fixture.js';

describe('validateCustomResourceDefinition', () => {
  describe('conversion', () => {
    it.each<[string, Json, string[]]>([
      [
        'an unknown strategy',
        { strategy: 'Magic' },
        ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'],
      ],
      [
        'Webhook without a client config or review versions',
        { strategy: 'Webhook' },
        [
          'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
          'spec.conversion.conversionReviewVersions: Required value',
        ],
      ],
      [
        'Webhook with both url and service, and an unknown review version',
        {
          strategy: 'Webhook',
          webhook: {
            clientConfig: {
              url: 'https://conv.example.com',
              service: { name: 'conv', namespace: 'default' },
            },
            conversionReviewVersions: ['v2'],
          },
        },
        [
          'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
          'spec.conversion.conversionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
        ],
      ],
      [
        'Webhook with an http URL carrying a query',
        {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { url: 'http://conv.example.com/x?a=b' },
            conversionReviewVersions: ['v1'],
          },
        },
        [
          'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
          'spec.conversion.webhookClientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
        ],
      ],
      [
        'Webhook with a service missing its namespace and a bad path',
        {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { service: { name: 'conv', path: 'convert' } },
            conversionReviewVersions: ['v1', 'v1'],
          },
        },
        [
          'spec.conversion.webhookClientConfig.service.namespace: Required value',
          'spec.conversion.webhookClientConfig.service.path: Invalid value: "convert": must start with a \'/\'',
          'spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version',
        ],
      ],
      [
        'None with webhook settings',
        {
          strategy: 'None',
          webhook: { clientConfig: { url: 'https://x.example.com' }, conversionReviewVersions: ['v1'] },
        },
        [
          'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
          'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
        ],
      ],
    ])('%s', (_name, conversion, expected) => {
      expect(
        create((c) => {
          c.spec.conversion = conversion;
        }),
      ).toEqual(expected);
    });

    it('accepts a service webhook with v1 reviews', () => {
      expect(
        create((c) => {
          c.spec.conversion = {
            strategy: 'Webhook',
            webhook: {
              clientConfig: { service: { name: 'conv', namespace: 'default', path: '/convert' } },
              conversionReviewVersions: ['v1'],
            },
          };
        }),
      ).toEqual([]);
    });
  });
});
