/**
 * Proxy selection from the environment with Go's rules
 * (golang.org/x/net/http/httpproxy, which client-go uses when a cluster has no
 * proxy-url), so a NO_PROXY that works for kubectl works here:
 *
 * - HTTPS_PROXY serves https servers and HTTP_PROXY http ones; upper case wins
 *   over lower case; a value without a scheme means http://.
 * - localhost and loopback addresses never go through a proxy.
 * - NO_PROXY is a comma list of: `*` (nothing is proxied); an IP, optionally
 *   with a port; a CIDR; a domain, which matches itself and its subdomains
 *   (`example.com`), or only its subdomains with a leading dot
 *   (`.example.com`, also written `*.example.com`), optionally with a port.
 */

import { BlockList, isIP } from 'node:net';
import { ConfigError } from './errors.js';

/** One NO_PROXY entry. */
type NoProxyRule =
  | { kind: 'all' }
  | { kind: 'cidr'; list: BlockList }
  | { kind: 'ip'; ip: string; port?: string }
  | { kind: 'domain'; suffix: string; matchSelf: boolean; port?: string };

/**
 * The proxy URL the environment asks for when reaching `serverUrl`, or
 * undefined for a direct connection. Throws ConfigError for an unusable proxy
 * variable (without echoing it: it may carry a password).
 */
export function proxyFromEnvironment(serverUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  const url = new URL(serverUrl);
  let name: string;
  let proxy: string | undefined;
  if (url.protocol === 'https:') {
    [name, proxy] = firstSet(env, 'HTTPS_PROXY', 'https_proxy');
  } else if (url.protocol === 'http:') {
    // httpoxy: in a CGI process HTTP_PROXY may come from a request header (Proxy:), so Go ignores it.
    if (nonEmpty(env.REQUEST_METHOD)) return undefined;
    [name, proxy] = firstSet(env, 'HTTP_PROXY', 'http_proxy');
  } else {
    return undefined;
  }
  if (proxy === undefined) return undefined;
  const host = bareHost(url.hostname);
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  const noProxy = firstSet(env, 'NO_PROXY', 'no_proxy')[1] ?? '';
  if (!useProxy(host, port, noProxy)) return undefined;
  return normalizeProxyUrl(proxy, name);
}

/**
 * Whether a request to `host`:`port` goes through the proxy under `noProxy`
 * (a NO_PROXY value). Exported for tests and for callers reaching other hosts.
 */
export function useProxy(host: string, port: string, noProxy: string): boolean {
  const name = bareHost(host).toLowerCase();
  if (name === 'localhost') return false;
  const ipVersion = isIP(name);
  if (ipVersion !== 0 && isLoopback(name, ipVersion)) return false;
  for (const rule of parseNoProxy(noProxy)) {
    if (matches(rule, name, port, ipVersion)) return false;
  }
  return true;
}

/** Validates a proxy URL (kubeconfig proxy-url or environment) and returns it with a scheme. */
export function normalizeProxyUrl(value: string, source: string): string {
  // Go parses `proxy:3128` as a scheme-less host and retries with http://.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ConfigError(`${source} is not a valid URL`);
  }
  if (!['http:', 'https:', 'socks5:', 'socks5h:'].includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(`${source} must be an http, https or socks5 URL with a host`);
  }
  return withScheme;
}

function parseNoProxy(noProxy: string): NoProxyRule[] {
  const rules: NoProxyRule[] = [];
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return [{ kind: 'all' }];
    const cidr = parseCidr(entry);
    if (cidr !== undefined) {
      rules.push({ kind: 'cidr', list: cidr });
      continue;
    }
    const { host, port } = splitHostPort(entry);
    const ip = bareHost(host);
    if (isIP(ip) !== 0) {
      rules.push({ kind: 'ip', ip: canonicalIp(ip), port });
      continue;
    }
    if (host === '') continue;
    let suffix = host.startsWith('*.') ? host.slice(1) : host;
    const matchSelf = !suffix.startsWith('.');
    if (matchSelf) suffix = `.${suffix}`;
    rules.push({ kind: 'domain', suffix, matchSelf, port });
  }
  return rules;
}

function matches(rule: NoProxyRule, host: string, port: string, ipVersion: number): boolean {
  switch (rule.kind) {
    case 'all':
      return true;
    case 'cidr':
      return ipVersion !== 0 && rule.list.check(host, ipVersion === 4 ? 'ipv4' : 'ipv6');
    case 'ip':
      return (
        ipVersion !== 0 && rule.ip === canonicalIp(host) && (rule.port === undefined || rule.port === port)
      );
    case 'domain': {
      const hostMatches = host.endsWith(rule.suffix) || (rule.matchSelf && host === rule.suffix.slice(1));
      return hostMatches && (rule.port === undefined || rule.port === port);
    }
  }
}

/** Parses `10.0.0.0/8` or `fd00::/8`; undefined when `entry` is not a CIDR. */
function parseCidr(entry: string): BlockList | undefined {
  const slash = entry.indexOf('/');
  if (slash < 0) return undefined;
  const address = entry.slice(0, slash);
  const bits = entry.slice(slash + 1);
  const version = isIP(address);
  if (version === 0 || !/^\d{1,3}$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128)) return undefined;
  const list = new BlockList();
  list.addSubnet(address, Number(bits), version === 4 ? 'ipv4' : 'ipv6');
  return list;
}

/** Go's net.SplitHostPort where it succeeds, else the whole entry as host. */
function splitHostPort(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]*)\]:(\d*)$/.exec(entry);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] };
  const colon = entry.lastIndexOf(':');
  // More than one colon without brackets is a bare IPv6 address, not host:port.
  if (colon < 0 || entry.indexOf(':') !== colon) return { host: entry };
  return { host: entry.slice(0, colon), port: entry.slice(colon + 1) };
}

function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** One spelling per address, so `::1` and `0:0::1` compare equal as Go's ip.Equal would. */
function canonicalIp(ip: string): string {
  return isIP(ip) === 6 ? new URL(`http://[${ip}]`).hostname : ip;
}

const LOOPBACK = (() => {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  return list;
})();

function isLoopback(ip: string, version: number): boolean {
  return LOOPBACK.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

function firstSet(env: NodeJS.ProcessEnv, upper: string, lower: string): [string, string | undefined] {
  if (nonEmpty(env[upper])) return [upper, env[upper]];
  if (nonEmpty(env[lower])) return [lower, env[lower]];
  return [upper, undefined];
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}
