/** authentication/v1 `UserInfo` as the reviews answer it (every empty field omitted). */
import type { VirtualUser } from '../types.js';

/** A `UserInfo`: username, uid, groups and extra, each only when set. */
export function userInfoOf(user: VirtualUser): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (user.name) out.username = user.name;
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = user.extra;
  return out;
}

/** metav1.Time as JSON: RFC 3339 in UTC, to the second. */
export function rfc3339Seconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
