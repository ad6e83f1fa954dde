/** What the served-definition suites share: the paths of definitions and widgets, and this folder's widget. */
import { widget as makeWidget } from '../../../helpers/widget.js';

export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
export const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

/** These suites' widgets are of size 2 unless a test says otherwise. */
export const widget = (name: string, spec: Record<string, unknown> = { size: 2 }) => makeWidget(name, spec);
