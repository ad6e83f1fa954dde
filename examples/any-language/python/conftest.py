"""pytest fixtures that run the suite against `watchmark serve`.

Run in the watchmark repository by test/examples/other-languages.test.ts:

    python3 -m venv ~/.cache/watchmark-examples-venv
    ~/.cache/watchmark-examples-venv/bin/pip install -r requirements.txt
    ../run-with-watchmark.sh --crds ../crds --controllers namespace,gc -- \
        ~/.cache/watchmark-examples-venv/bin/python -m pytest -v

Under run-with-watchmark.sh (or any other starter that sets KUBECONFIG), the
tests use the server that KUBECONFIG names. Without KUBECONFIG, the session
fixture starts its own server (`watchmark` on PATH, or WATCHMARK="npx watchmark")
and stops it at the end:

    WATCHMARK="npx watchmark" python -m pytest
"""

import os
import shlex
import subprocess
import time
from pathlib import Path

import pytest
from kubernetes import config

CRDS = Path(__file__).resolve().parent.parent / "crds"


@pytest.fixture(scope="session")
def kube_api(tmp_path_factory):
    """An ApiClient for a watchmark server: KUBECONFIG's, else a fresh one stopped after the session."""
    given = os.environ.get("KUBECONFIG")
    if given:
        api = config.new_client_from_config(config_file=given)
        yield api
        api.close()
        return
    workdir = tmp_path_factory.mktemp("watchmark")
    kubeconfig = workdir / "kubeconfig"
    log = open(workdir / "serve.log", "w")  # a file, not a pipe: a full pipe would block the server
    watchmark = shlex.split(os.environ.get("WATCHMARK", "watchmark"))
    server = subprocess.Popen(
        [*watchmark, "serve", "--crds", str(CRDS), "--controllers", "namespace,gc",
         "--kubeconfig-out", str(kubeconfig)],
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        # serve writes the file (renamed into place, so never half written) only once the
        # CRDs are established and the controllers synced.
        deadline = time.monotonic() + 60
        while not kubeconfig.exists():
            if server.poll() is not None:
                raise RuntimeError(
                    f"watchmark serve exited with {server.returncode}: "
                    f"{(workdir / 'serve.log').read_text()}")
            if time.monotonic() > deadline:
                raise TimeoutError("watchmark serve was not ready within 60 s")
            time.sleep(0.05)
        api = config.new_client_from_config(config_file=str(kubeconfig))
        yield api
        api.close()
    finally:
        server.terminate()  # SIGTERM: serve closes its watches and exits 0
        server.wait(timeout=10)
        log.close()
