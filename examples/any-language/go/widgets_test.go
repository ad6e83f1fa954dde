package example_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func newNamespace(t *testing.T, ctx context.Context) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "go-test-"}}
	if err := k8sClient.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

func TestWidgetCreateGetListUpdateDelete(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t, ctx)

	widget := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "hello", Namespace: ns}, Spec: WidgetSpec{Size: 2}}
	if err := k8sClient.Create(ctx, widget); err != nil {
		t.Fatal(err)
	}
	// The create's answer is decoded into widget: the schema default is there.
	if widget.Spec.Color != "red" {
		t.Fatalf("spec.color = %q, want the schema default red", widget.Spec.Color)
	}

	got := &Widget{}
	if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(widget), got); err != nil {
		t.Fatal(err)
	}
	if got.UID != widget.UID || got.Generation != 1 || got.Spec.Size != 2 {
		t.Fatalf("get: uid %s generation %d size %d", got.UID, got.Generation, got.Spec.Size)
	}

	list := &WidgetList{}
	if err := k8sClient.List(ctx, list, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "hello" {
		t.Fatalf("list: %d items", len(list.Items))
	}

	got.Spec.Size = 5
	if err := k8sClient.Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if got.Generation != 2 || got.ResourceVersion == widget.ResourceVersion {
		t.Fatalf("update: generation %d resourceVersion %s (was %s)", got.Generation, got.ResourceVersion, widget.ResourceVersion)
	}
	// An update from the stale copy conflicts.
	widget.Spec.Size = 7
	if err := k8sClient.Update(ctx, widget); !apierrors.IsConflict(err) {
		t.Fatalf("stale update: %v, want a conflict", err)
	}
	// The status subresource: a status update leaves the generation alone.
	got.Status.Ready = true
	if err := k8sClient.Status().Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if !got.Status.Ready || got.Generation != 2 {
		t.Fatalf("status update: ready %v generation %d", got.Status.Ready, got.Generation)
	}

	if err := k8sClient.Delete(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(got), &Widget{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get after delete: %v, want NotFound", err)
	}
	t.Logf("widget %s/hello: created (color defaulted to red), got, listed, updated to generation 2, status set, deleted", ns)
}

func TestWidgetSchemaRejection(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t, ctx)
	tiny := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "tiny", Namespace: ns}, Spec: WidgetSpec{Size: 0, Color: "purple"}}
	err := k8sClient.Create(ctx, tiny)
	if !apierrors.IsInvalid(err) {
		t.Fatalf("create: %v, want 422 Invalid", err)
	}
	status := err.(apierrors.APIStatus).Status()
	fields := map[string]string{}
	for _, cause := range status.Details.Causes {
		fields[cause.Field] = string(cause.Type)
	}
	if fields["spec.size"] != "FieldValueInvalid" || fields["spec.color"] != "FieldValueNotSupported" {
		t.Fatalf("causes: %v", status.Details.Causes)
	}
	t.Logf("rejected: %v", err)
}

func TestNamespaceDeletionFinishes(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t, ctx)
	if err := k8sClient.Create(ctx, &Widget{ObjectMeta: metav1.ObjectMeta{Name: "inside", Namespace: ns}, Spec: WidgetSpec{Size: 1}}); err != nil {
		t.Fatal(err)
	}
	// envtest's own kube-apiserver leaves a deleted namespace Terminating forever (no controller
	// manager); watchmark's namespace controller (--controllers namespace) deletes its objects, then it.
	if err := k8sClient.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		err := k8sClient.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{})
		return apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	})
	if err != nil {
		t.Fatalf("namespace %s still there: %v", ns, err)
	}
	t.Logf("namespace %s and its widget gone %v after the delete", ns, time.Since(start).Round(time.Millisecond))
}
