"""Tests against `watchmark serve` through the official kubernetes Python client."""

import json
import uuid

import pytest
from kubernetes import client, watch
from kubernetes.client.rest import ApiException

WIDGETS = ("example.com", "v1")


@pytest.fixture
def namespace(kube_api):
    """A fresh namespace per test, on the session's server."""
    core = client.CoreV1Api(kube_api)
    name = f"py-{uuid.uuid4().hex[:8]}"
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=name)))
    return name


def widget(name, **spec):
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": name}, "spec": spec}


def test_widget_create_get_list_patch_delete(kube_api, namespace):
    custom = client.CustomObjectsApi(kube_api)
    created = custom.create_namespaced_custom_object(*WIDGETS, namespace, "widgets", widget("hello", size=2))
    assert created["spec"]["color"] == "red"  # the schema default
    got = custom.get_namespaced_custom_object(*WIDGETS, namespace, "widgets", "hello")
    assert got["metadata"]["uid"] == created["metadata"]["uid"]
    listed = custom.list_namespaced_custom_object(*WIDGETS, namespace, "widgets")
    assert [w["metadata"]["name"] for w in listed["items"]] == ["hello"]
    patched = custom.patch_namespaced_custom_object(
        *WIDGETS, namespace, "widgets", "hello", {"spec": {"size": 5}})  # a merge patch
    assert patched["spec"] == {"size": 5, "color": "red"}
    assert patched["metadata"]["generation"] == 2
    custom.delete_namespaced_custom_object(*WIDGETS, namespace, "widgets", "hello")
    with pytest.raises(ApiException) as gone:
        custom.get_namespaced_custom_object(*WIDGETS, namespace, "widgets", "hello")
    assert gone.value.status == 404


def test_widget_schema_rejection(kube_api, namespace):
    custom = client.CustomObjectsApi(kube_api)
    with pytest.raises(ApiException) as refused:
        custom.create_namespaced_custom_object(
            *WIDGETS, namespace, "widgets", widget("tiny", size=0, color="purple"))
    assert refused.value.status == 422
    causes = json.loads(refused.value.body)["details"]["causes"]
    assert {(c["field"], c["reason"]) for c in causes} == {
        ("spec.size", "FieldValueInvalid"), ("spec.color", "FieldValueNotSupported")}


def test_watch_with_bookmarks_streams_then_follows(kube_api, namespace):
    """A streaming list (sendInitialEvents) with allow_watch_bookmarks: the current objects as
    ADDED, the `k8s.io/initial-events-end` bookmark, then the changes made after it."""
    core = client.CoreV1Api(kube_api)
    core.create_namespaced_config_map(
        namespace, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="before")))
    seen = []
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, namespace,
                          allow_watch_bookmarks=True, send_initial_events=True,
                          resource_version_match="NotOlderThan", timeout_seconds=10):
        if event["type"] == "BOOKMARK":
            annotations = event["raw_object"]["metadata"].get("annotations") or {}
            if annotations.get("k8s.io/initial-events-end") != "true":
                continue  # a periodic bookmark, nothing to record
            seen.append(("BOOKMARK", "initial-events-end"))
            # Synced: now change things, and the same watch reports them.
            core.create_namespaced_config_map(
                namespace, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="after")))
            core.patch_namespaced_config_map("after", namespace, {"data": {"k": "v"}})
            core.delete_namespaced_config_map("after", namespace)
            continue
        seen.append((event["type"], event["object"].metadata.name))
        if event["type"] == "DELETED":
            w.stop()
    assert seen == [
        ("ADDED", "before"),
        ("BOOKMARK", "initial-events-end"),
        ("ADDED", "after"),
        ("MODIFIED", "after"),
        ("DELETED", "after"),
    ]


def test_namespace_deletion_finishes(kube_api, namespace):
    core = client.CoreV1Api(kube_api)
    custom = client.CustomObjectsApi(kube_api)
    custom.create_namespaced_custom_object(*WIDGETS, namespace, "widgets", widget("inside", size=1))
    selector = f"metadata.name={namespace}"
    # Watch from a resourceVersion read before the delete, so the DELETED event cannot be missed
    # however fast the namespace goes; a watch, not a sleep.
    since = core.list_namespace(field_selector=selector).metadata.resource_version
    core.delete_namespace(namespace)
    seen = []
    for event in watch.Watch().stream(core.list_namespace, field_selector=selector,
                                      resource_version=since, allow_watch_bookmarks=True,
                                      timeout_seconds=10):
        seen.append(event["type"])
        if event["type"] == "DELETED":
            break
    # MODIFIED first (deletionTimestamp, phase Terminating), then DELETED once it is empty.
    assert seen[0] == "MODIFIED" and seen[-1] == "DELETED"
