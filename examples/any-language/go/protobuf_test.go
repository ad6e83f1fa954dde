package example_test

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// client-go configured for protobuf only, as kube-controller-manager and kube-scheduler configure
// it: bodies are sent in protobuf, and the server must answer every read, write, error and watch
// in protobuf too, since the Accept header offers nothing else.
func TestClientGoSpeaksProtobuf(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ns := newNamespace(t, ctx)

	var mu sync.Mutex
	answered := map[string]bool{} // the Content-Type of every answer
	cfg := rest.CopyConfig(restConfig)
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf"
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(r)
			if err == nil {
				mu.Lock()
				answered[resp.Header.Get("Content-Type")] = true
				mu.Unlock()
			}
			return resp, err
		})
	})
	cms := kubernetes.NewForConfigOrDie(cfg).CoreV1().ConfigMaps(ns)

	created, err := cms.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "pb", Labels: map[string]string{"b": "2", "a": "1"}},
		Data:       map[string]string{"k": "v"},
		BinaryData: map[string][]byte{"bin": {0, 1, 2}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.UID == "" || created.CreationTimestamp.IsZero() || string(created.BinaryData["bin"]) != "\x00\x01\x02" {
		t.Fatalf("created answer decoded as %+v", created)
	}

	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: created.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	created.Data["k"] = "changed"
	if _, err := cms.Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-w.ResultChan():
		cm, ok := e.Object.(*corev1.ConfigMap)
		if e.Type != watch.Modified || !ok || cm.Data["k"] != "changed" {
			t.Fatalf("watch event %s %#v, want MODIFIED with k=changed", e.Type, e.Object)
		}
	case <-ctx.Done():
		t.Fatal("no watch event")
	}

	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Labels["a"] != "1" || list.ResourceVersion == "" {
		t.Fatalf("list decoded as %+v", list)
	}
	if _, err := cms.Get(ctx, "nope", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get of a missing ConfigMap: %v, want NotFound", err)
	}
	if err := cms.Delete(ctx, "pb", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	for contentType := range answered {
		if !strings.HasPrefix(contentType, "application/vnd.kubernetes.protobuf") {
			t.Errorf("an answer came as %q", contentType)
		}
	}
	if !answered["application/vnd.kubernetes.protobuf;stream=watch"] {
		t.Errorf("no protobuf watch stream among %v", answered)
	}
	types := make([]string, 0, len(answered))
	for contentType := range answered {
		types = append(types, contentType)
	}
	sort.Strings(types)
	t.Logf("created, watched, updated, listed, 404, deleted; answers came as %s", strings.Join(types, " and "))
}
