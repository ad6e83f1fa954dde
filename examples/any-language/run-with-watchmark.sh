#!/usr/bin/env bash
# Runs a command against a fresh watchmark API server, for test suites in any
# language: starts `watchmark serve` in the background, waits until it has
# written its kubeconfig (serve writes the file only once its CRDs are
# established, its seed objects created and its controllers synced), runs the
# command with KUBECONFIG pointing at it, stops the server, and exits with the
# command's exit status.
#
#   run-with-watchmark.sh [SERVE FLAGS...] -- COMMAND [ARGS...]
#   run-with-watchmark.sh COMMAND [ARGS...]
#
#   run-with-watchmark.sh --crds config/crd/bases --controllers namespace,gc -- go test ./...
#   run-with-watchmark.sh --crds crds/ -- python -m pytest
#
# Environment:
#   WATCHMARK                 how to run watchmark (default: watchmark; e.g. "npx watchmark")
#   WATCHMARK_START_TIMEOUT   seconds to wait for the server (default: 60)
#   WATCHMARK_LOG             where serve's output goes (default: a file in the
#                             temporary directory, printed if serve fails)
set -u

# Flags come first and end at `--`; without a leading flag, every argument is the command.
serve_flags=()
if [[ "${1:-}" == -* ]]; then
  while [[ $# -gt 0 && "$1" != "--" ]]; do
    serve_flags+=("$1")
    shift
  done
  if [[ $# -eq 0 ]]; then
    echo "$0: no -- after the serve flags" >&2
    exit 2
  fi
  shift # the --
fi
if [[ $# -eq 0 ]]; then
  echo "usage: $0 [SERVE FLAGS...] -- COMMAND [ARGS...]" >&2
  exit 2
fi

read -r -a watchmark <<<"${WATCHMARK:-watchmark}"
timeout_s="${WATCHMARK_START_TIMEOUT:-60}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/watchmark-run.XXXXXX")" || exit 2
kubeconfig="$dir/kubeconfig"
log="${WATCHMARK_LOG:-$dir/serve.log}"
server=""

stop_server() {
  if [[ -n "$server" ]]; then
    kill -TERM "$server" 2>/dev/null
    wait "$server" 2>/dev/null
    server=""
  fi
}
cleanup() {
  stop_server
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${watchmark[@]}" serve --kubeconfig-out "$kubeconfig" "${serve_flags[@]}" >"$log" 2>&1 &
server=$!

# The file appears whole (serve renames it into place) once everything is ready.
deadline=$((SECONDS + timeout_s))
until [[ -s "$kubeconfig" ]]; do
  if ! kill -0 "$server" 2>/dev/null; then
    wait "$server"
    status=$?
    server=""
    echo "watchmark serve exited with status $status before it was ready:" >&2
    cat "$log" >&2
    exit "$((status == 0 ? 1 : status))"
  fi
  if ((SECONDS >= deadline)); then
    echo "watchmark serve was not ready within ${timeout_s}s:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.05
done

KUBECONFIG="$kubeconfig" "$@"
status=$?
stop_server
exit "$status"
