package example_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A client-go shared informer, as every controller has. client-go 0.35 and later turn its
// WatchListClient feature on: the reflector starts with a watch that streams the current objects
// (sendInitialEvents=true) and counts them synced at the `k8s.io/initial-events-end` bookmark,
// instead of a list followed by a watch. If that watch fails, the reflector falls back to a list,
// so the test records the requests to see which path was taken.
func TestSharedInformerSyncsByStreamingAndFollows(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ns := newNamespace(t, ctx)

	var mu sync.Mutex
	var reads []url.Values // the informer's GETs on configmaps, by query
	cfg := rest.CopyConfig(restConfig)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/configmaps") {
				mu.Lock()
				reads = append(reads, r.URL.Query())
				mu.Unlock()
			}
			return rt.RoundTrip(r)
		})
	})
	clientset := kubernetes.NewForConfigOrDie(cfg)

	// One ConfigMap before the informer starts: it arrives in the initial stream.
	cms := clientset.CoreV1().ConfigMaps(ns)
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "before"}, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	type event struct{ kind, name string }
	events := make(chan event, 100)
	counts := map[string]int{}
	factory := informers.NewSharedInformerFactoryWithOptions(clientset, 0, informers.WithNamespace(ns))
	// Shutdown waits for the informer's goroutines, which end when ctx is cancelled: cancel first.
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	informer := factory.Core().V1().ConfigMaps().Informer()
	record := func(kind string, obj any) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		mu.Lock()
		counts[kind]++
		mu.Unlock()
		events <- event{kind, obj.(*corev1.ConfigMap).Name}
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { record("add", obj) },
		UpdateFunc: func(_, obj any) { record("update", obj) },
		DeleteFunc: func(obj any) { record("delete", obj) },
	}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatalf("informer not synced: %v", ctx.Err())
	}
	t.Logf("informer synced in %v", time.Since(start).Round(time.Millisecond))

	expect := func(kind, name string) {
		t.Helper()
		select {
		case e := <-events:
			if e != (event{kind, name}) {
				t.Fatalf("event %v, want %s %s", e, kind, name)
			}
		case <-ctx.Done():
			t.Fatalf("no %s event for %s", kind, name)
		}
	}
	expect("add", "before")

	created, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	expect("add", "after")
	created.Data = map[string]string{"changed": "yes"}
	if _, err := cms.Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("update", "after")
	if err := cms.Delete(ctx, "after", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("delete", "after")

	// The lister reads the informer's cache.
	lister := factory.Core().V1().ConfigMaps().Lister().ConfigMaps(ns)
	if left, err := lister.List(labels.Everything()); err != nil || len(left) != 1 || left[0].Name != "before" {
		t.Fatalf("lister: %v %v", left, err)
	}

	mu.Lock()
	defer mu.Unlock()
	if counts["add"] != 2 || counts["update"] != 1 || counts["delete"] != 1 {
		t.Fatalf("handler counts %v, want 2 adds, 1 update, 1 delete", counts)
	}
	// The reflector took the streaming path: its first read is a watch with sendInitialEvents,
	// and it never fell back to a plain list.
	if len(reads) == 0 {
		t.Fatal("no reads recorded")
	}
	first := reads[0]
	if first.Get("watch") != "true" || first.Get("sendInitialEvents") != "true" ||
		first.Get("resourceVersionMatch") != "NotOlderThan" || first.Get("allowWatchBookmarks") != "true" {
		t.Fatalf("first read %v, want a watch-list request", first)
	}
	for _, q := range reads {
		if q.Get("watch") != "true" {
			t.Fatalf("the reflector fell back to a list: %v", q)
		}
	}
	t.Logf("handler counts %v; first request: watch?%s", counts, first.Encode())
}
