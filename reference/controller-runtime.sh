#!/usr/bin/env bash
# Builds controller-runtime's OWN envtest-based test suites as test binaries
# (`go test -c`), so that the same binaries can run against watchmark
# (USE_EXISTING_CLUSTER=true KUBECONFIG=...) and against the reference
# kube-apiserver (KUBEBUILDER_ASSETS=<reference bin>, envtest starts it).
#
# Everything comes from the Go module proxy: a small consumer module of ours
# requires sigs.k8s.io/controller-runtime at CR_VERSION and every k8s.io
# module it asks for at STAGING_VERSION (controller-runtime's go.mod asks for
# v0.37.0; the reference binaries are built from v0.37.2, so one release).
#
#   WATCHMARK_REFERENCE_DIR  the cache folder (default ~/.cache/watchmark/reference)
#
# Progress goes to stderr; the last stdout line is the folder of test
# binaries. That folder also holds packages.tsv: one line per package with
#   <package path>  <binary file name>  <package source folder in the module cache>
# (the binaries read ./testdata relative to that folder, so run them there).
# Idempotent: a complete folder is reused in seconds.
set -euo pipefail

CR_VERSION=v0.25.3
STAGING_VERSION=v0.37.2
GO_DIRECTIVE=1.26.0

# The packages whose suites start an envtest.Environment (found with
# `grep -rl envtest.Environment --include=*_test.go` in controller-runtime).
PACKAGES=(
  pkg/client
  pkg/cache
  pkg/builder
  pkg/envtest
  pkg/controller
  pkg/controller/controllerutil
  pkg/manager
  pkg/webhook
  pkg/cluster
  pkg/handler
  pkg/source
  pkg/reconcile
  pkg/internal/controller
  pkg/internal/recorder
  pkg/metrics/filters
  pkg/manager/internal/integration
  # Half of its tests (aggregatedDiscovery=false) download kube-apiserver
  # v1.28.0 with setup-envtest and fail on every server here; the other half
  # run, so it is kept.
  pkg/client/apiutil
)
# Left out:
#   pkg/internal/testing/controlplane  tests envtest's own process handling:
#     it always starts kube-apiserver/etcd itself, cannot use an existing
#     cluster, so it says nothing about watchmark.

root="${WATCHMARK_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/watchmark/reference}"
dir="$root/controller-runtime"
bin="$dir/bin"
stamp="controller-runtime-${CR_VERSION} k8s-${STAGING_VERSION} ${PACKAGES[*]}"
say() { printf '[controller-runtime %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  say "no 'go' on PATH: controller-runtime's test binaries cannot be built here"
  exit 3
fi

if [ -f "$dir/complete" ] && [ "$(cat "$dir/complete")" = "$stamp" ] && [ -f "$bin/packages.tsv" ]; then
  ok=1
  while IFS=$'\t' read -r _ file _; do [ -x "$bin/$file" ] || ok=0; done < "$bin/packages.tsv"
  if [ "$ok" = 1 ]; then
    say "cache complete ($CR_VERSION, ${#PACKAGES[@]} packages)"
    echo "$bin"
    exit 0
  fi
fi
rm -f "$dir/complete"
mkdir -p "$bin"
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export CGO_ENABLED=0
say "$(go version); folder $dir"

cd "$dir"
if [ ! -f go.mod ] || ! grep -q "sigs.k8s.io/controller-runtime $CR_VERSION" go.mod; then
  printf 'module watchmark.local/controller-runtime-tests\n\ngo %s\n' "$GO_DIRECTIVE" > go.mod
  upstream_mod=$(go mod download -json "sigs.k8s.io/controller-runtime@$CR_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
  [ -f "$upstream_mod" ] || { say "could not read controller-runtime@$CR_VERSION's go.mod"; exit 1; }
  # Every k8s.io module controller-runtime requires at a v0.x release (not
  # k8s.io/utils, klog or kube-openapi, which are versioned on their own),
  # moved to STAGING_VERSION.
  mapfile -t staging < <(grep -E '^[[:space:]]*k8s\.io/[^ ]+ v0\.[0-9]+\.[0-9]+( |$)' "$upstream_mod" \
    | awk '{ print $1 }' | grep -vE '^k8s\.io/(utils|klog|kube-openapi)')
  say "go get controller-runtime@$CR_VERSION with ${#staging[@]} k8s.io modules at $STAGING_VERSION: ${staging[*]}"
  args=("sigs.k8s.io/controller-runtime@$CR_VERSION")
  for m in "${staging[@]}"; do args+=("$m@$STAGING_VERSION"); done
  go get "${args[@]}" 2>&1 | tail -3 >&2
  # The test packages' own imports (ginkgo, gomega, goleak, ...).
  pkgs=()
  for p in "${PACKAGES[@]}"; do pkgs+=("sigs.k8s.io/controller-runtime/$p"); done
  go get -t "${pkgs[@]}" 2>&1 | tail -3 >&2
  moved=$(grep -E '^[[:space:]]*k8s\.io/' go.mod | grep -vE "$STAGING_VERSION|k8s\.io/(utils|klog|kube-openapi)" || true)
  if [ -n "$moved" ]; then
    say "a k8s.io module is not at $STAGING_VERSION: $moved"
    exit 1
  fi
fi

: > "$bin/packages.tsv.tmp"
first=1
for p in "${PACKAGES[@]}"; do
  pkg="sigs.k8s.io/controller-runtime/$p"
  file="$(echo "${p#pkg/}" | tr / -).test"
  src=$(go list -f '{{.Dir}}' "$pkg")
  printf '%s\t%s\t%s\n' "$p" "$file" "$src" >> "$bin/packages.tsv.tmp"
  if [ -x "$bin/$file" ] && [ -f "$bin/.$file.built" ] && [ "$(cat "$bin/.$file.built")" = "$CR_VERSION" ]; then
    say "$p: built already"
    continue
  fi
  say "compiling $p${first:+ (the first compiles client-go and much of apiserver: minutes on 2 cores with a cold build cache)}"
  first=
  start=$SECONDS
  go test -c -ldflags "-s -w" -o "$bin/$file.tmp" "$pkg"
  mv "$bin/$file.tmp" "$bin/$file"
  echo "$CR_VERSION" > "$bin/.$file.built"
  say "$p: $((SECONDS - start)) s"
done
mv "$bin/packages.tsv.tmp" "$bin/packages.tsv"
echo "$stamp" > "$dir/complete"
say "complete: ${#PACKAGES[@]} test binaries"
echo "$bin"
