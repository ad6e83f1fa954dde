"""pytest fixtures that run the suite against `watchmark serve`.

NOT RUN in the watchmark repository (the `kubernetes` package is not
installed there): see docs/other-languages.md for what was run instead.

    pip install kubernetes pytest
    pytest            # with `watchmark` on PATH (or WATCHMARK="npx watchmark")
"""

import os
import shlex
import subprocess
import time
from pathlib import Path

import pytest
from kubernetes import client, config

CRDS = Path(__file__).resolve().parent.parent / "crds"


@pytest.fixture(scope="session")
def kube_api(tmp_path_factory):
    """An ApiClient for a fresh watchmark server, stopped after the session."""
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
