// The deployment recipes in deploy/ cannot be built or applied here (no Docker, no cluster), so
// they are read as data: every flag and environment variable they hand the stub is one the CLI
// lists in --help, the CLI really starts with exactly those (only the address, the port, Redis's
// URL and the token swapped for the test's), the probe paths they use answer 200, and the ports
// and names that tie the pieces together agree.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const DEPLOY = join(import.meta.dirname, '..', 'deploy');
const read = (file: string) => readFile(join(DEPLOY, file), 'utf8');

/** What a recipe hands the stub: its arguments, its environment, and the paths its probes call. */
interface StubRun {
  where: string;
  args: string[];
  env: Record<string, string>;
  probes: string[];
  /** The port the recipe says the stub listens on (its PORT), and the ports it points at it. */
  port: string;
  portsPointingAtIt: string[];
}

/** Dockerfile instructions, continuation lines joined, comments dropped, per stage. */
function dockerInstructions(text: string): Array<{ op: string; rest: string }> {
  return text.replace(/\\\n\s*/g, ' ').split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.trim().split(/\s+/);
      return { op: op.toUpperCase(), rest: rest.join(' ') };
    });
}

/** `KEY=value KEY2=value` (ENV's form) -> a record. */
function envPairs(text: string): Record<string, string> {
  return Object.fromEntries(text.split(/\s+/).map((pair) => pair.split('=') as [string, string]));
}

async function dockerRun(): Promise<StubRun & { instructions: Array<{ op: string; rest: string }> }> {
  const instructions = dockerInstructions(await read('Dockerfile'));
  const lastStage = instructions.slice(instructions.map(({ op }) => op).lastIndexOf('FROM'));
  const env = Object.assign({}, ...lastStage.filter(({ op }) => op === 'ENV').map(({ rest }) => envPairs(rest))) as Record<string, string>;
  const cmd = JSON.parse(lastStage.find(({ op }) => op === 'CMD')!.rest) as string[];
  const healthcheck = lastStage.find(({ op }) => op === 'HEALTHCHECK')!.rest;
  const probe = /http:\/\/127\.0\.0\.1:\$\{PORT\}(\/\S+?)"/.exec(healthcheck)?.[1];
  const exposed = lastStage.filter(({ op }) => op === 'EXPOSE').map(({ rest }) => rest);
  return { where: 'Dockerfile', args: cmd, env, probes: probe ? [probe] : [], port: env.PORT, portsPointingAtIt: exposed, instructions: lastStage };
}

async function composeRuns(): Promise<StubRun[]> {
  const compose = load(await read('compose.yaml')) as { services: Record<string, { command?: string[]; environment?: Record<string, string>; image?: string }> };
  const haproxy = await read('haproxy.cfg');
  const probe = /option httpchk GET (\S+)/.exec(haproxy)?.[1];
  return Object.entries(compose.services).filter(([, service]) => service.image === 'plant-store-stub').map(([name, service]) => ({
    where: `compose.yaml ${name}`,
    args: service.command ?? [],
    env: service.environment ?? {},
    probes: probe ? [probe] : [],
    port: service.environment?.PORT ?? '',
    portsPointingAtIt: [...haproxy.matchAll(new RegExp(`server ${name} ${name}:(\\d+)`, 'g'))].map(([, port]) => port),
  }));
}

interface K8sContainer {
  args: string[];
  env: Array<{ name: string; value?: string }>;
  ports: Array<{ containerPort: number }>;
  readinessProbe: { httpGet: { path: string; port: number } };
  livenessProbe: { httpGet: { path: string; port: number } };
}

async function k8sDocuments(file: string): Promise<Array<{ kind: string; metadata: { name: string }; spec: any }>> {
  return loadAll(await read(join('kubernetes', file))) as Array<{ kind: string; metadata: { name: string }; spec: any }>;
}

async function k8sRun(): Promise<StubRun> {
  const docs = await k8sDocuments('stub.yaml');
  const container = docs.find(({ kind }) => kind === 'Deployment')!.spec.template.spec.containers[0] as K8sContainer;
  const service = docs.find(({ kind }) => kind === 'Service')!;
  const env = Object.fromEntries(container.env.map(({ name, value }) => [name, value ?? 'from-a-secret']));
  const probes = [container.readinessProbe, container.livenessProbe].map(({ httpGet }) => httpGet);
  return {
    where: 'kubernetes/stub.yaml',
    args: container.args,
    env,
    probes: probes.map(({ path }) => path),
    port: env.PORT,
    portsPointingAtIt: [...container.ports.map(({ containerPort }) => String(containerPort)), ...probes.map(({ port }) => String(port)), ...service.spec.ports.map(({ targetPort }: { targetPort: number }) => String(targetPort))],
  };
}

/** The flags and environment variables the CLI says it takes (`--help`). */
async function cliAccepts(): Promise<{ flags: Set<string>; env: Set<string> }> {
  const help = (await runCli(['--help'])).stdout;
  return { flags: new Set(help.match(/--[a-z][a-z-]*/g)), env: new Set([...help.matchAll(/env ([A-Z_]+)/g)].map(([, name]) => name)) };
}

/** Node's own variables are not the stub's, but a recipe may set them. */
const NODE_ENV_NAMES = new Set(['NODE_ENV']);

describe('the deployment recipes in deploy/', () => {
  let runs: StubRun[];
  let accepted: { flags: Set<string>; env: Set<string> };

  beforeAll(async () => {
    runs = [await dockerRun(), ...(await composeRuns()), await k8sRun()];
    accepted = await cliAccepts();
  }, 30_000);

  it('hand the stub from three places: the Dockerfile, three compose services, the Kubernetes Deployment', () => {
    expect(runs.map(({ where }) => where)).toEqual(['Dockerfile', 'compose.yaml stub-1', 'compose.yaml stub-2', 'compose.yaml stub-3', 'kubernetes/stub.yaml']);
  });

  it('use only flags the CLI lists in --help', () => {
    for (const { where, args } of runs) {
      const flags = args.filter((arg) => arg.startsWith('-'));
      expect(flags.length, where).toBeGreaterThan(0);
      expect(flags.filter((flag) => !accepted.flags.has(flag)), where).toEqual([]);
    }
  });

  it('use only environment variables the CLI lists in --help (and NODE_ENV)', () => {
    for (const { where, env } of runs) {
      expect(Object.keys(env).filter((name) => !accepted.env.has(name) && !NODE_ENV_NAMES.has(name)), where).toEqual([]);
      expect([env.HOST, env.PORT], where).toEqual(['0.0.0.0', '4010']);
    }
  });

  it('give every instance bound to all addresses an admin token (the image takes it when run)', async () => {
    for (const { where, env } of runs.filter(({ where }) => where !== 'Dockerfile')) expect(env.STUB_ADMIN_TOKEN, where).toBeDefined();
    const runLines = (await read('Dockerfile')).split('\n').filter((line) => line.startsWith('#   docker run '));
    expect(runLines.length).toBeGreaterThan(0);
    for (const line of runLines) expect(line).toContain(' -e STUB_ADMIN_TOKEN=');
  });

  it('point every port at the one the stub listens on', () => {
    for (const { where, port, portsPointingAtIt } of runs) {
      expect(portsPointingAtIt.length, where).toBeGreaterThan(0);
      expect(new Set(portsPointingAtIt), where).toEqual(new Set([port]));
    }
  });

  it('probe health from Docker, readiness from the balancer and Kubernetes', () => {
    expect(runs.map(({ where, probes }) => [where, probes])).toEqual([
      ['Dockerfile', ['/__admin/health']],
      ['compose.yaml stub-1', ['/__admin/ready']],
      ['compose.yaml stub-2', ['/__admin/ready']],
      ['compose.yaml stub-3', ['/__admin/ready']],
      ['kubernetes/stub.yaml', ['/__admin/ready', '/__admin/ready']],
    ]);
  });

  it('build the image on a small base, run it as a user that is not root, and start the CLI the package names', async () => {
    const { instructions } = await dockerRun();
    const bin = (JSON.parse(await readFile(join(DEPLOY, '..', 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['plant-store-stub'];
    expect(instructions[0]).toEqual({ op: 'FROM', rest: expect.stringMatching(/^node:\d+-alpine( AS \w+)?$/) });
    expect(instructions.filter(({ op }) => op === 'USER').map(({ rest }) => rest)).toEqual(['node']);
    expect(JSON.parse(instructions.find(({ op }) => op === 'ENTRYPOINT')!.rest)).toEqual(['node', `/app/${bin}`]);
  });

  // Node.js's even releases are its long-term ones; 20 left maintenance in April 2026.
  it('build on a maintained long-term Node.js release, with a folder the stub\'s user may write a --state-file to', async () => {
    const { instructions } = await dockerRun();
    const all = dockerInstructions(await read('Dockerfile'));
    for (const { rest } of all.filter(({ op }) => op === 'FROM')) {
      const major = Number(/^node:(\d+)-/.exec(rest)?.[1]);
      expect([major >= 22, major % 2], rest).toEqual([true, 0]);
    }
    const runs = instructions.filter(({ op }) => op === 'RUN').map(({ rest }) => rest);
    expect(runs).toContain('mkdir /state && chown node:node /state');
    const stateful = (await read('Dockerfile')).split('\n').filter((line) => line.startsWith('#   docker run ') && line.includes('--state-file'));
    expect(stateful.map((line) => /--state-file (\S+)/.exec(line)?.[1])).toEqual(['/state/state.json']);
  });

  // A restarted container may come back at another address: HAProxy looks names up once at start
  // unless its servers name a resolvers section.
  it('have HAProxy look the instances\' names up again through Docker\'s DNS', async () => {
    const haproxy = await read('haproxy.cfg');
    const section = /^resolvers (\S+)\n((?:  .*\n)+)/m.exec(haproxy);
    expect(section?.[2]).toMatch(/^  nameserver \S+ 127\.0\.0\.11:53$/m);
    expect(haproxy).toMatch(new RegExp(`^  default-server .*\\bresolvers ${section?.[1]}\\b.*\\binit-addr last,libc,none\\b`, 'm'));
  });

  it('name the Redis they start in --state-store, at its port', async () => {
    const compose = load(await read('compose.yaml')) as { services: Record<string, unknown> };
    const redisDocs = await k8sDocuments('redis.yaml');
    const redisService = redisDocs.find(({ kind }) => kind === 'Service')!;
    const expected: Record<string, string> = {
      'compose.yaml': `redis://redis:6379/0`,
      'kubernetes/stub.yaml': `redis://${redisService.metadata.name}:${redisService.spec.ports[0].port}/0`,
    };
    expect('redis' in compose.services).toBe(true);
    for (const { where, args } of runs.filter(({ args }) => args.includes('--state-store'))) {
      expect(args[args.indexOf('--state-store') + 1], where).toBe(expected[where.split(' ')[0]]);
    }
  });

  it('keep two of three Kubernetes pods up through voluntary disruptions, and allow the drain before the kill', async () => {
    const docs = await k8sDocuments('stub.yaml');
    const deployment = docs.find(({ kind }) => kind === 'Deployment')!;
    const budget = docs.find(({ kind }) => kind === 'PodDisruptionBudget')!;
    expect(budget.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    expect([deployment.spec.replicas, budget.spec.minAvailable]).toEqual([3, 2]);
    const args = (deployment.spec.template.spec.containers[0] as K8sContainer).args;
    const drainSeconds = Number(args[args.indexOf('--drain-ms') + 1]) / 1000;
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drainSeconds + 5);
  });
});

describe.skipIf(!haveRedis)('the CLI started as each recipe starts it', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });

  // Loopback and a free port here (tests listen on 127.0.0.1 only), the test's Redis and token;
  // every other argument and variable exactly as the recipe has it.
  const recipes = (async () => [await dockerRun(), (await composeRuns())[0], await k8sRun()])();
  it.each([0, 1, 2])('recipe %i starts, answers its probes 200, and stops on SIGTERM with exit code 0', async (index) => {
    const run = (await recipes)[index];
    const args = run.args.map((arg) => (arg.startsWith('redis://') ? redis.url : arg));
    const env = { ...run.env, HOST: '127.0.0.1', PORT: '0', STUB_ADMIN_TOKEN: 'recipe-test-token' };
    const cli = await startCli(args, { env });
    try {
      for (const path of run.probes) {
        const answer = await request(`${cli.url}${path}`);
        expect([run.where, path, answer.status]).toEqual([run.where, path, 200]);
      }
    } finally {
      const stopped = await cli.stop('SIGTERM', 15_000);
      expect([run.where, stopped.code]).toEqual([run.where, 0]);
    }
  }, 30_000);
});
