#!/usr/bin/env bash
# Builds Kubernetes' end-to-end test binary, e2e.test, from k8s.io/kubernetes
# v1.37.2's test/e2e (Go modules from the module proxy, nothing else), into
# the reference cache beside the binaries reference/build.sh makes, and
# prints its path as its last line. Idempotent: a complete build is reused.
#
#   WATCHMARK_REFERENCE_DIR  the cache folder (default ~/.cache/watchmark/reference)
#
# It needs reference/build.sh's module first (the staging replaces are read
# from there, so both builds use one module graph). Progress goes to stderr.
set -euo pipefail

KUBE_VERSION=v1.37.2
GO_DIRECTIVE=1.26.0

root="${WATCHMARK_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/watchmark/reference}"
stamp="e2e-${KUBE_VERSION}"
out="$root/bin/e2e.test"
say() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if [ -x "$out" ] && [ "$(cat "$root/bin/.e2e.test.built" 2>/dev/null)" = "$stamp" ]; then
  say "built already ($stamp)"
  echo "$out"
  exit 0
fi
command -v go >/dev/null 2>&1 || { say "no 'go' on PATH: e2e.test cannot be built here"; exit 3; }
[ -f "$root/kube/go.mod" ] || { say "run reference/build.sh first (its module pins the staging releases)"; exit 3; }

export GOFLAGS="${GOFLAGS:-} -mod=mod"
export CGO_ENABLED=0
mkdir -p "$root/e2e" "$root/bin"
cd "$root/e2e"
if [ ! -f go.mod ] || ! grep -q "k8s.io/kubernetes $KUBE_VERSION" go.mod; then
  {
    printf 'module watchmark.local/e2e-reference\n\ngo %s\n\ngodebug default=go1.26\n\n' "$GO_DIRECTIVE"
    grep '^replace k8s\.io/' "$root/kube/go.mod"
  } > go.mod
  say "go get -t k8s.io/kubernetes/test/e2e@$KUBE_VERSION (the test packages' module graph)"
  go get -t "k8s.io/kubernetes/test/e2e@$KUBE_VERSION" 2>&1 | tail -3 >&2
fi

minor=${KUBE_VERSION#v1.}; minor=${minor%%.*}
ld=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ld+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=2026-01-01T00:00:00Z -X $pkg.gitCommit=0000000000000000000000000000000000000000"
done
say "building e2e.test, every sig's tests (about 6 minutes on 2 cores the first time, after reference/build.sh)"
start=$SECONDS
go test -c -vet=off -ldflags "-s -w$ld" -o "$out.tmp" k8s.io/kubernetes/test/e2e
mv "$out.tmp" "$out"
echo "$stamp" > "$root/bin/.e2e.test.built"
say "e2e.test: $((SECONDS - start)) s, $(du -m "$out" | cut -f1) MB"
echo "$out"
