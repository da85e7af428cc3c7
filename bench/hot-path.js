// In-process CPU of the stub's own per-request work for POST /plants (what the server adds to
// Node's HTTP code), without sockets: the pipeline (`stub.handle`) and the answered event
// (journal, coverage, metrics, the log line into the CLI's batched sink, whose write is a
// no-op here), each on a fresh request as the server builds one. Steadier than the server
// figures on a shared machine; run it under `node --cpu-prof` to see where the time goes.
// Usage: node bench/hot-path.js [DIR] [N]   (DIR: a built stub, default the current directory)
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? '.');
const N = Number(process.argv[3] ?? 200_000);
const load = (file) => import(pathToFileURL(join(dir, 'dist', file)).href);
const { resolveOptions } = await load('config/options.js');
const { Stub } = await load('stub/stub.js');
const { batchedSink } = await load('record/request-log.js');
process.chdir(dir);
const sink = batchedSink(() => {});
const stub = await Stub.create(resolveOptions({ port: 0, watch: false, log: sink }));
const text = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
const request = (i) => ({
  method: 'POST',
  path: '/plants',
  rawQuery: '',
  headers: { host: '127.0.0.1:4010', 'user-agent': 'bench', authorization: 'Bearer bench-token', 'content-type': 'application/json', 'content-length': String(text.length + (i & 0)) },
  body: Buffer.from(text),
});

function time(label, fn) {
  for (let i = 0; i < 50_000; i++) fn(i);
  const runs = [];
  for (let k = 0; k < 7; k++) {
    const before = process.cpuUsage();
    for (let i = 0; i < N; i++) fn(i);
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / N);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label.padEnd(36)} min ${runs[0].toFixed(3)}  median ${runs[3].toFixed(3)} µs CPU per request`);
}

const answer = stub.handle(request(0));
if (answer instanceof Promise || answer.status !== 200) throw new Error(`POST /plants answered ${answer.status}`);
time('a fresh request (baseline)', (i) => request(i));
time('request + pipeline', (i) => stub.handle(request(i)));
time('request + answered event', (i) => {
  stub.recorder.answered(request(i), answer, 1.5 + (i & 3) / 10);
  if ((i & 255) === 0) sink.flush();
});
time('request + pipeline + answered event', (i) => {
  const r = request(i);
  stub.recorder.answered(r, stub.handle(r), 1.5 + (i & 3) / 10);
  if ((i & 255) === 0) sink.flush();
});
sink.flush();
stub.close();
