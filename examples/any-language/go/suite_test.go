// A controller-runtime envtest suite pointed at `watchmark serve` instead of kube-apiserver and
// etcd. Run in the watchmark repository by test/examples/other-languages.test.ts:
//
//	../run-with-watchmark.sh --crds ../crds --controllers namespace,gc -- env USE_EXISTING_CLUSTER=true go test ./... -count=1 -v
//
// or with the server started by hand:
//
//	watchmark serve --crds ../crds --controllers namespace,gc --kubeconfig-out /tmp/wm/kubeconfig &
//	KUBECONFIG=/tmp/wm/kubeconfig USE_EXISTING_CLUSTER=true go test ./...
//
// The setup is a kubebuilder suite's, unchanged: envtest.Environment with CRDDirectoryPaths and no
// Config. With USE_EXISTING_CLUSTER=true, Start() starts no kube-apiserver and no etcd; it loads
// the config from KUBECONFIG, waits for the default namespace, installs ../crds (updating what
// `serve --crds` created) and polls discovery until they are served. The clients keep
// controller-runtime's default content type, protobuf for built-in kinds.
package example_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

var (
	restConfig *rest.Config
	k8sClient  client.Client
	scheme     = runtime.NewScheme()
)

func TestMain(m *testing.M) {
	if !strings.EqualFold(os.Getenv("USE_EXISTING_CLUSTER"), "true") {
		// Without it envtest would look for kube-apiserver and etcd binaries (KUBEBUILDER_ASSETS).
		fmt.Fprintln(os.Stderr, "set USE_EXISTING_CLUSTER=true and KUBECONFIG (run-with-watchmark.sh sets KUBECONFIG)")
		os.Exit(2)
	}
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := addWidgetTypes(scheme); err != nil {
		panic(err)
	}
	testEnv := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "crds")},
		ErrorIfCRDPathMissing: true,
		Scheme:                scheme,
	}
	cfg, err := testEnv.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "envtest:", err)
		os.Exit(1)
	}
	fmt.Printf("envtest started against %s; CRDs installed: %d\n", cfg.Host, len(testEnv.CRDs))
	restConfig = cfg
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
	code := m.Run()
	// With an existing cluster, Stop leaves the server running: whoever started it stops it.
	if err := testEnv.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "envtest stop:", err)
	}
	os.Exit(code)
}
