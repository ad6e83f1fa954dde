"""Tests against `watchmark serve` through the kubernetes Python client (NOT RUN here)."""

import uuid

import pytest
from kubernetes import client, watch
from kubernetes.client.rest import ApiException


def test_widget_gets_its_schema_default(kube_api):
    core = client.CoreV1Api(kube_api)
    custom = client.CustomObjectsApi(kube_api)
    ns = f"py-{uuid.uuid4().hex[:8]}"
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    widget = custom.create_namespaced_custom_object(
        "example.com", "v1", ns, "widgets",
        {"apiVersion": "example.com/v1", "kind": "Widget",
         "metadata": {"name": "hello"}, "spec": {"size": 2}},
    )
    assert widget["spec"]["color"] == "red"
    with pytest.raises(ApiException) as refused:
        custom.create_namespaced_custom_object(
            "example.com", "v1", ns, "widgets",
            {"apiVersion": "example.com/v1", "kind": "Widget",
             "metadata": {"name": "tiny"}, "spec": {"size": 0}},
        )
    assert refused.value.status == 422


def test_namespace_deletion_finishes(kube_api):
    core = client.CoreV1Api(kube_api)
    ns = f"py-{uuid.uuid4().hex[:8]}"
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="c")))
    selector = f"metadata.name={ns}"
    # Watch from a resourceVersion read before the delete, so the DELETED event cannot be missed
    # however fast the namespace goes; a watch, not a sleep.
    since = core.list_namespace(field_selector=selector).metadata.resource_version
    core.delete_namespace(ns)
    seen = []
    for event in watch.Watch().stream(core.list_namespace, field_selector=selector,
                                      resource_version=since, timeout_seconds=10):
        seen.append(event["type"])
        if event["type"] == "DELETED":
            break
    # MODIFIED first (deletionTimestamp, phase Terminating), then DELETED once it is empty.
    assert seen and seen[-1] == "DELETED"
