// A controller-runtime envtest suite pointed at `watchmark serve` instead of
// kube-apiserver and etcd. NOT RUN in the watchmark repository (no Go
// toolchain there): see docs/other-languages.md for what was run instead.
//
//	watchmark serve --crds ../crds --controllers namespace,gc --kubeconfig-out /tmp/wm/kubeconfig &
//	KUBECONFIG=/tmp/wm/kubeconfig go test ./...
//
// or, starting and stopping the server around the run:
//
//	../run-with-watchmark.sh --crds ../crds --controllers namespace,gc -- go test ./...
package example_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

var k8sClient client.Client

func TestMain(m *testing.M) {
	// The config the usual way (--kubeconfig, KUBECONFIG, in-cluster, ~/.kube/config), as
	// envtest's Start loads it itself when Config is nil.
	cfg, err := config.GetConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "config:", err)
		os.Exit(1)
	}
	// controller-runtime sends built-in kinds as protobuf unless ContentType is set; watchmark
	// decodes protobuf bodies of Namespace, ConfigMap, Secret, Service and Deployment only.
	// Set here, it covers envtest's own writes (webhook configurations) and every client below.
	cfg.ContentType = runtime.ContentTypeJSON
	testEnv := &envtest.Environment{
		Config: cfg,
		// What USE_EXISTING_CLUSTER=true does: no kube-apiserver and etcd are started.
		UseExistingCluster: ptr.To(true),
		// Installed by `watchmark serve --crds` already; listed here they would be updated in place.
		// CRDDirectoryPaths: []string{filepath.Join("..", "crds")},
	}
	if _, err := testEnv.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "envtest:", err)
		os.Exit(1)
	}
	k8sClient, err = client.New(cfg, client.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
	code := m.Run()
	// With an existing cluster, Stop leaves the server running: whoever started it stops it.
	_ = testEnv.Stop()
	os.Exit(code)
}

func TestWidgetDefaultsAndNamespaceDeletion(t *testing.T) {
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "go-test-"}}
	if err := k8sClient.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": "hello", "namespace": ns.Name},
		"spec":       map[string]any{"size": int64(2)},
	}}
	if err := k8sClient.Create(ctx, widget); err != nil {
		t.Fatal(err)
	}
	if color, _, _ := unstructured.NestedString(widget.Object, "spec", "color"); color != "red" {
		t.Fatalf("spec.color = %q, want the schema default red", color)
	}
	// envtest's own kube-apiserver leaves a deleted namespace Terminating forever (no
	// controller manager); watchmark's namespace controller deletes its objects, then it.
	if err := k8sClient.Delete(ctx, ns); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(ns), &corev1.Namespace{})
		return apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	})
	if err != nil {
		t.Fatalf("namespace %s still there: %v", ns.Name, err)
	}
}
