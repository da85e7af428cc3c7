// In-process A/B of the answered event (what recording costs per request) between stub builds:
// every build loaded in this one process and timed in alternated rounds, so a shared machine's
// load falls on all of them alike. Three ways: `answered` one request at a time (the fetch
// handler), `answeredSoon` 32 to an event-loop turn (the server), and with the entry's JSON text
// that --state-store sends to Redis (Redis itself left out). CHURN=N makes N small objects of
// garbage per request, about what a server's HTTP code makes (0 by default), to show what the
// journal costs the garbage collector.
// Usage: node bench/answered-ab.js [N] [ROUNDS] name=DIR [name=DIR ...]   (DIR: a built stub)
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [n, rounds, ...variants] = process.argv.slice(2);
const N = Number(n ?? 100_000);
const ROUNDS = Number(rounds ?? 9);
const CHURN = Number(process.env.CHURN ?? 0);
if (variants.length === 0) {
  console.error('usage: node bench/answered-ab.js N ROUNDS name=DIR [name=DIR ...]');
  process.exit(2);
}

async function open(dir, withRedisEntry) {
  const load = (file) => import(pathToFileURL(join(dir, 'dist', file)).href);
  const { resolveOptions } = await load('config/options.js');
  const { Stub } = await load('stub/stub.js');
  const { batchedSink } = await load('record/request-log.js');
  const { stringifyExact } = await load('common/exact-json.js');
  process.chdir(dir);
  const sink = batchedSink(() => {});
  const stub = await Stub.create(resolveOptions({ port: 0, watch: false, log: sink }));
  const { recorder } = stub;
  if (withRedisEntry) {
    // Builds before recording became one event read the entry back from the journal (latestEntry).
    const entryOf = recorder.entryOf ? (answered) => recorder.entryOf(answered) : () => recorder.latestEntry();
    recorder.onAnswered((answered) => void stringifyExact(entryOf(answered), true));
  }
  const settle = () => (recorder.settle ? recorder.settle() : recorder.journalSize());
  return { stub, sink, settle };
}

const text = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
const request = (i) => ({
  method: 'POST',
  path: '/plants',
  rawQuery: '',
  headers: { host: '127.0.0.1:4010', 'user-agent': 'bench', authorization: 'Bearer bench-token', 'content-type': 'application/json', 'content-length': String(text.length + (i & 0)) },
  body: Buffer.from(text),
});

let kept;
function run({ stub, sink, settle }, answer, soon, count) {
  for (let i = 0; i < count; i++) {
    if (CHURN > 0) {
      const garbage = new Array(CHURN);
      for (let k = 0; k < CHURN; k++) garbage[k] = { k, i, text: `x${k}` };
      kept = garbage;
    }
    if (soon) {
      stub.recorder.answeredSoon(request(i), answer, 1.5 + (i & 3) / 10);
      if ((i & 31) === 31) settle();
    } else stub.recorder.answered(request(i), answer, 1.5 + (i & 3) / 10);
    if ((i & 255) === 0) sink.flush();
  }
  settle();
}

for (const [label, soon, withRedisEntry] of [['answered', false, false], ['answeredSoon, 32 a turn', true, false], ['with the entry for Redis', false, true]]) {
  const builds = [];
  for (const variant of variants) {
    const [name, dir] = variant.split('=');
    builds.push({ name, ...(await open(resolve(dir), withRedisEntry)), times: [] });
  }
  const answer = builds[0].stub.handle(request(0));
  for (const build of builds) run(build, answer, soon, 50_000);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const before = process.cpuUsage();
      run(build, answer, soon, N);
      const used = process.cpuUsage(before);
      build.times.push((used.user + used.system) / N);
    }
  }
  for (const build of builds) {
    build.times.sort((a, b) => a - b);
    console.log(`${label.padEnd(26)} ${build.name.padEnd(10)} min ${build.times[0].toFixed(3)}  median ${build.times[build.times.length >> 1].toFixed(3)} µs CPU per request`);
    build.stub.close();
  }
}
void kept;
