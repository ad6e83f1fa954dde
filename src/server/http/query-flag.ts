/**
 * Boolean query parameters (`watch`, `allowWatchBookmarks`,
 * `sendInitialEvents`, ...) read as kube-apiserver's parameter codec reads
 * them (k8s.io/apimachinery/pkg/runtime/conversion.go,
 * `Convert_Slice_string_To_bool` and `..._To_Pointer_bool`): only `0` and
 * `false` in any case are false; any other value, the empty one included, is
 * true. An absent parameter is undefined, for the pointer fields that tell
 * "unset" from false.
 */
export function queryFlag(value: string | null | undefined): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}
