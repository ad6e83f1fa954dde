/**
 * Which conformance tests can run on a control plane without kubelets.
 *
 * A test is not applicable when it needs a container that really runs: a
 * pod that must reach Running, a command executed in a container, a
 * container's output, traffic to a pod, a webhook or aggregated API server
 * served from a pod. That is read from the test's own source (the
 * `ConformanceIt` body and the package functions it calls), so the reason
 * names the call that needs it; `needs.yaml` adds what reading misses (a
 * need hidden in another package's helper), each with what was seen on the
 * reference.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ConformanceTest } from './catalogue.js';

/** Why a test cannot run here, or undefined when it can. */
export type Need = string | undefined;

/** Calls that only return once a container runs, with the reason written in the report. */
const RUNNING_CONTAINER: Array<[RegExp, string]> = [
  [
    /deployWebhookAndService|deployCustomResourceWebhookAndService|deployCustomResourceWebhook/,
    'needs an admission or conversion webhook served from a running pod',
  ],
  [
    /SetUpSampleAPIServer|TestSampleAPIServer|sample-apiserver/,
    'needs an aggregated API server running in a pod',
  ],
  [
    /ExecCommandInContainer|ExecShellInContainer|ExecWithOptions|ExecShellInPod|RunHostCmd|ExecInPod|"exec"/,
    'executes a command in a running container',
  ],
  [
    /TestContainerOutput|MatchContainerOutput|GetPodLogs|LookForStringInLog|LookForStringInPodExec|PodOutput|"logs"|GetLogs\(|\/log\b/,
    "reads a running container's output",
  ],
  [
    /NewNetworkingTestConfig|HTTPPoke|PokeHTTP|PokeUDP|CheckReachability|ProxyRequest|e2edns\.|curl |wget |nc -|DialFromContainer|\/proxy\//,
    'sends traffic to a running pod',
  ],
  [
    /CreateSync\(|CreateBatch\(|WaitForPodRunning|WaitTimeoutForPodRunning|WaitForPodNameRunning|WaitForPodsRunning|WaitForPodSuccess|WaitForPodNoLongerRunning|WaitForPodTerminated|WaitForPodsReady|WaitForPodReady|WaitTimeoutForPodReady|WaitForPodsWithLabelRunningReady|WaitForPodCondition|WaitForPodRunningInNamespace|WaitForPodSuccessInNamespace|WaitForPodTerminatedInNamespace|WaitTimeoutForPodNoLongerRunning|WaitForPodContainerToFail|WaitForPodContainerStarted|RunPodAndGetNodeName|runPausePod|runPodAndGetNodeName|createPausePod|StartPodsOrDie|VerifyPods(Running|Condition)|podRunningAndReady|PodRunningReady/,
    'waits for a pod to run on a kubelet',
  ],
  [
    /WaitForDeploymentComplete|WaitForReadyReplicas|WaitForRunningAndReady|WaitForStatusReadyReplicas|WaitForStatusAvailableReplicas|WaitForJobComplete|WaitForJobPodsRunning|WaitForJobPodsSucceeded|WaitForJobFinish|WaitForJobFailed|WaitForAllJobPodsGone|checkDaemonPodOnNodes|CheckRunningOnAllNodes|checkRunningOnAllNodes|WaitForDeploymentRevisionAndImage|WaitForDeploymentUpdatedReplicasGTE|WaitForDeploymentWithCondition|testRollingUpdateDeployment|WaitForAvailableReplicas|WaitForPartitionedRollingUpdate|WaitForRollingUpdate|waitForRunningAndReady|WaitForJobReady/,
    "waits for a workload's pods to run and become ready",
  ],
  [
    /ServeHostname|serve-hostname|e2eservice\.|JigService|NewTestJig/,
    'needs a service backed by running pods',
  ],
];

/** Overrides read from needs.yaml: exact test names with the reason seen on the reference. */
interface NeedsFile {
  notApplicable?: Array<{ name: string; reason: string }>;
}

/** The reason each test in `tests` cannot run without kubelets (undefined: it can). */
export function readNeeds(tests: ConformanceTest[], needsPath: string): Map<string, Need> {
  const file = (parse(readFileSync(needsPath, 'utf8')) ?? {}) as NeedsFile;
  const overrides = new Map((file.notApplicable ?? []).map((e) => [e.name, e.reason]));
  const known = new Set(tests.map((t) => t.name));
  for (const name of overrides.keys()) {
    if (!known.has(name)) throw new Error(`${needsPath}: no conformance test named ${JSON.stringify(name)}`);
  }
  const needs = new Map<string, Need>();
  for (const t of tests) needs.set(t.name, overrides.get(t.name) ?? readNeed(t));
  return needs;
}

/** The first running-container need the test's source shows, or undefined. */
export function readNeed(test: ConformanceTest): Need {
  if (!test.source) return 'its ConformanceIt body was not found in the source';
  for (const [pattern, reason] of RUNNING_CONTAINER) {
    const m = pattern.exec(test.source);
    if (m) return `${reason} (${m[0].trim()})`;
  }
  return undefined;
}
