/**
 * Just enough of apimachinery's `resource.Quantity` to compare amounts:
 * `100m`, `0.5`, `128Mi`, `1G`, `1e3`. Precision is a double's, which is
 * plenty for "are requests equal to limits" (the QoS class) and for a node's
 * `allocatable.pods` (`1k` once canonical). Shared by the server and the
 * simulated cluster, which reads nodes as a scheduler does.
 */

const SUFFIXES: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY_RE = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei))?$/;

/** The amount a quantity string (or JSON number) denotes; undefined when it does not parse. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = QUANTITY_RE.exec(value.trim());
  if (!m) return undefined;
  const base = Number.parseFloat(m[1]);
  if (m[2]) return base * 10 ** Number.parseInt(m[2].slice(1), 10);
  return base * SUFFIXES[m[3] ?? ''];
}
