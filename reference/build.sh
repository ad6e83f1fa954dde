#!/usr/bin/env bash
# Builds the reference binaries watchmark is compared against, from Go modules
# served by the Go module proxy (nothing is downloaded from anywhere else):
#   kube-apiserver, kube-controller-manager, kubectl  (k8s.io/kubernetes v1.37.2)
#   etcd                                              (go.etcd.io/etcd/server/v3 v3.7.3)
# into a cache folder outside the repository, and prints that folder's bin/ as
# its last line. Idempotent: a complete cache is reused in seconds.
#
#   WATCHMARK_REFERENCE_DIR  the cache folder (default ~/.cache/watchmark/reference)
#
# Progress goes to stderr; only the bin folder goes to stdout.
set -euo pipefail

KUBE_VERSION=v1.37.2
STAGING_VERSION=v0.37.2
ETCD_VERSION=v3.7.3
GO_DIRECTIVE=1.26.0

root="${WATCHMARK_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/watchmark/reference}"
stamp="kube-${KUBE_VERSION} etcd-${ETCD_VERSION}"
bin="$root/bin"
say() { printf '[reference %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  say "no 'go' on PATH: the reference binaries cannot be built here"
  exit 3
fi

if [ -f "$root/complete" ] && [ "$(cat "$root/complete")" = "$stamp" ]; then
  ok=1
  for b in kube-apiserver kube-controller-manager kubectl etcd; do [ -x "$bin/$b" ] || ok=0; done
  if [ "$ok" = 1 ]; then
    say "cache complete ($stamp)"
    echo "$bin"
    exit 0
  fi
fi
rm -f "$root/complete"
mkdir -p "$bin" "$root/kube" "$root/etcd"
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export CGO_ENABLED=0
say "$(go version); cache $root"

# --- kube: a main module of our own whose go.mod replaces every k8s.io
# staging module (required at v0.0.0 by k8s.io/kubernetes and replaced there
# by ./staging/src/..., which a dependency's go.mod cannot do) with its
# published release. The list is read from k8s.io/kubernetes's own go.mod.
cd "$root/kube"
if [ ! -f go.mod ] || ! grep -q "k8s.io/kubernetes $KUBE_VERSION" go.mod; then
  say "resolving k8s.io/kubernetes@$KUBE_VERSION's staging modules"
  upstream_mod=$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
  [ -f "$upstream_mod" ] || { say "could not read k8s.io/kubernetes@$KUBE_VERSION's go.mod"; exit 1; }
  {
    printf 'module watchmark.local/kube-reference\n\ngo %s\n\ngodebug default=go1.26\n\n' "$GO_DIRECTIVE"
    grep -E '^[[:space:]]*k8s\.io/[^ ]+ => \./staging/' "$upstream_mod" \
      | awk -v v="$STAGING_VERSION" '{ printf "replace %s => %s %s\n", $1, $1, v }'
  } > go.mod
  say "$(grep -c '^replace' go.mod) staging modules pinned at $STAGING_VERSION"
  say "go get -tool (downloads the module graph once; minutes on a cold module cache)"
  go get -tool \
    "k8s.io/kubernetes/cmd/kube-apiserver@$KUBE_VERSION" \
    "k8s.io/kubernetes/cmd/kube-controller-manager@$KUBE_VERSION" \
    "k8s.io/kubernetes/cmd/kubectl@$KUBE_VERSION" 2>&1 | tail -3 >&2
fi

minor=${KUBE_VERSION#v1.}; minor=${minor%%.*}
build_date=2026-01-01T00:00:00Z
ld=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ld+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date -X $pkg.gitCommit=0000000000000000000000000000000000000000"
done
for cmd in kube-apiserver kube-controller-manager kubectl; do
  if [ -x "$bin/$cmd" ] && [ -f "$bin/.$cmd.built" ] && [ "$(cat "$bin/.$cmd.built")" = "$stamp" ]; then
    say "$cmd: built already"
    continue
  fi
  say "building $cmd (the first build of kube-apiserver takes 10-20 minutes on 2 cores)"
  start=$SECONDS
  go build -ldflags "-s -w$ld" -o "$bin/$cmd.tmp" "k8s.io/kubernetes/cmd/$cmd"
  mv "$bin/$cmd.tmp" "$bin/$cmd"
  echo "$stamp" > "$bin/.$cmd.built"
  say "$cmd: $((SECONDS - start)) s"
done

# --- etcd: its own module, so its requirements cannot move the apiserver's.
cd "$root/etcd"
if [ ! -f go.mod ] || ! grep -q "go.etcd.io/etcd/server/v3 $ETCD_VERSION" go.mod; then
  printf 'module watchmark.local/etcd-reference\n\ngo %s\n' "$GO_DIRECTIVE" > go.mod
  say "go get -tool go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  go get -tool "go.etcd.io/etcd/server/v3@$ETCD_VERSION" 2>&1 | tail -3 >&2
fi
if ! { [ -x "$bin/etcd" ] && [ -f "$bin/.etcd.built" ] && [ "$(cat "$bin/.etcd.built")" = "$stamp" ]; }; then
  say "building etcd"
  start=$SECONDS
  go build -ldflags "-s -w" -o "$bin/etcd.tmp" go.etcd.io/etcd/server/v3
  mv "$bin/etcd.tmp" "$bin/etcd"
  echo "$stamp" > "$bin/.etcd.built"
  say "etcd: $((SECONDS - start)) s"
fi

for b in kube-apiserver kube-controller-manager kubectl etcd; do
  say "$b: $("$bin/$b" --version 2>/dev/null | head -1 || echo '?')"
done
echo "$stamp" > "$root/complete"
say "complete"
echo "$bin"
