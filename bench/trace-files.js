// The path of one request through the stub's files, stepped with the V8 inspector: how often the
// reader of the code moves from one file to another while following a request, and how often it
// comes back to a file it already left. A "move" is the paused top frame's file changing; a
// "re-entry" is a move into a file left before. Library and Node code are skipped, as a reader
// skips them: everything outside the build is blackboxed, and where a step still stops in Node's
// own code (its internal scripts are stepped into all the same) the trace steps out of it. The trace starts at the node adapter's entry (http/serve-request's
// serveRequest) and ends with the event-loop turn in which the response ended, so the answer's
// record (made at the end of that turn) is in it.
//
// How: a worker thread steps the main thread, where the stub runs (inspector.Session
// connectToMainThread). Stepping stops where a task hands back to the event loop (the request's
// body arrives in a later task), so every function in the build also gets a breakpoint on its
// first statement, which picks the trace up again wherever the build is entered next.
// Each request is sent once untraced first, so the trace is of a warm stub.
//
// Usage: node bench/trace-files.js [DIR] [--verbose]   (or DIST=DIR; npm run trace)
//   DIR: a built stub (DIR/dist, or the dist folder itself); default the current directory.
//   --verbose prints each request's file sequence.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';
import { resolve, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import http from 'node:http';
import inspector from 'node:inspector';

const TOKEN = 'Bearer trace-token';
const PLANT = JSON.stringify({ id: 7, name: 'Fern', tag: 'indoor' });
const JSON_BODY = { authorization: TOKEN, 'content-type': 'application/json' };

/** The requests traced: each with the stub it is sent to and the untraced requests before it (the traced one is sent twice, the first untraced). */
const CASES = [
  {
    name: 'POST /plants (default document)',
    options: {},
    before: [],
    traced: { method: 'POST', path: '/plants', headers: JSON_BODY, body: PLANT, status: 200 },
  },
  {
    name: 'GET /plants/7 (stateful, test/specs/plant-store-full.yaml, the plant created first)',
    // A fixtures folder that does not exist: no scenarios (the default ./fixtures is the default document's).
    options: { spec: 'test/specs/plant-store-full.yaml', fixtures: 'test/specs/no-fixtures', stateful: true },
    before: [{ method: 'POST', path: '/plants', headers: JSON_BODY, body: PLANT, status: 200 }],
    traced: { method: 'GET', path: '/plants/7', headers: { authorization: TOKEN }, status: 200 },
  },
];

// The parser that finds each function's first statement, loaded in the worker only.
const ts = isMainThread ? null : (await import('typescript')).default;

if (isMainThread) await main();
else await traceInWorker(workerData);

async function main() {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const given = args.find((a) => !a.startsWith('--')) ?? process.env.DIST ?? '.';
  const dist = existsSync(join(resolve(given), 'dist', 'index.js')) ? join(resolve(given), 'dist') : resolve(given);
  if (!existsSync(join(dist, 'index.js'))) throw new Error(`no built stub at ${dist} (run npm run build)`);
  const root = resolve(dist, '..');
  process.chdir(root);
  const { startStub } = await import(pathToFileURL(join(dist, 'index.js')).href);
  console.log(`trace of one request through the files of ${relative(process.cwd(), dist) || '.'} (${root})`);

  // The end of a response, told to the worker at the end of the event-loop turn after it, by
  // when the turn's record of the answer (run by setImmediate) has been made.
  let ended = 0;
  let tell = () => {};
  const end = http.ServerResponse.prototype.end;
  http.ServerResponse.prototype.end = function (...rest) {
    const n = ++ended;
    setImmediate(() => setImmediate(() => tell(n)));
    return end.apply(this, rest);
  };

  for (const c of CASES) {
    const stub = await startStub({ ...c.options, port: 0, host: '127.0.0.1', watch: false, log: () => {} });
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { url: stub.url, dist: pathToFileURL(dist).href + '/', requests: [...c.before, c.traced, c.traced], endedBefore: ended } });
    tell = (n) => worker.postMessage({ ended: n });
    const trace = await new Promise((resolveTrace, reject) => {
      worker.once('message', resolveTrace);
      worker.once('error', reject);
    });
    await worker.terminate();
    await stub.close();
    print(c.name, trace, verbose);
  }
}

function print(name, trace, verbose) {
  console.log(`\n${name}`);
  console.log(`  ${trace.moves} moves, ${trace.reentries} re-entries, ${trace.files.length} files; isRefusal called ${trace.calls['engine/refusal.js isRefusal'] ?? 0} times`);
  if (!verbose) return;
  console.log(`  files: ${trace.files.join(' ')}`);
  console.log('  sequence (file, then the function paused in first):');
  trace.sequence.forEach(({ file, fn, again }, i) => console.log(`  ${String(i + 1).padStart(4)} ${again ? '↺' : ' '} ${file}  ${fn}`));
  console.log('  calls counted at a function\'s first statement:');
  Object.entries(trace.calls).sort((a, b) => b[1] - a[1]).forEach(([f, n]) => console.log(`  ${String(n).padStart(4)} ${f}`));
}

/** The worker: sends the requests, stepping the main thread through the last one. */
async function traceInWorker({ url, dist, requests, endedBefore }) {
  // A session's pending replies do not keep a thread alive.
  const alive = setInterval(() => {}, 60_000);
  const session = new inspector.Session();
  session.connectToMainThread();
  const post = (method, params = {}) => new Promise((ok, fail) => session.post(method, params, (error, result) => (error ? fail(error) : ok(result))));
  // The main thread cannot time itself out while it is paused: a trace that never ends lets it go and fails.
  const watchdog = setTimeout(() => {
    post('Debugger.disable').catch(() => {});
    throw new Error('the trace did not end within 120 s');
  }, 120_000);
  const scripts = new Map();
  session.on('Debugger.scriptParsed', ({ params }) => {
    scripts.set(params.scriptId, params.url);
    // Everything outside the build (Node, node_modules, code made at run time, this file) is skipped.
    if (!params.url.startsWith(dist)) post('Debugger.setBlackboxedRanges', { scriptId: params.scriptId, positions: [{ lineNumber: 0, columnNumber: 0 }] }).catch(() => {});
  });
  await post('Debugger.enable');

  let endedSeen = endedBefore;
  const endings = [];
  parentPort.on('message', ({ ended }) => {
    endedSeen = ended;
    endings.splice(0).forEach((check) => check());
  });
  const untilEnded = (n) => new Promise((ok) => {
    const check = () => (endedSeen >= n ? ok() : endings.push(check));
    check();
  });

  const send = async ({ method, path, headers, body, status }) => {
    const response = await fetch(url + path, { method, headers, body });
    await response.text();
    if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}, not ${status}`);
  };
  for (const [i, request] of requests.slice(0, -1).entries()) {
    await send(request);
    await untilEnded(endedBefore + i + 1);
  }

  // Every function of the build stops at its first statement, so the trace goes on where a later task enters it.
  const entries = new Map();
  const breakpoints = [];
  for (const [scriptId, scriptUrl] of scripts) {
    if (!scriptUrl.startsWith(dist) || !scriptUrl.endsWith('.js')) continue;
    const file = scriptUrl.slice(dist.length);
    for (const { line, column, name } of functionStarts(readFileSync(fileURLToPath(scriptUrl), 'utf8'))) {
      const set = await post('Debugger.setBreakpoint', { location: { scriptId, lineNumber: line, columnNumber: column } }).catch(() => null);
      if (!set) continue;
      breakpoints.push(set.breakpointId);
      entries.set(set.breakpointId, `${file} ${name}`);
    }
  }

  const trace = { moves: 0, reentries: 0, files: [], sequence: [], calls: {} };
  const left = new Set();
  let at = null;
  let phase = 'waiting';
  const inBuild = (frame) => (scripts.get(frame.location.scriptId) ?? '').startsWith(dist);
  session.on('Debugger.paused', ({ params }) => {
    const top = params.callFrames[0];
    const file = (scripts.get(top.location.scriptId) ?? '').slice(dist.length);
    if (phase === 'waiting' && file === 'http/serve-request.js' && top.functionName === 'serveRequest') phase = 'tracing';
    if (phase !== 'tracing') return void post('Debugger.resume').catch(() => {});
    if (!inBuild(top)) {
      // Node or a library: back out to the build's caller, or on to the next task that enters the build.
      return void post(params.callFrames.some(inBuild) ? 'Debugger.stepOut' : 'Debugger.resume').catch(() => {});
    }
    for (const id of params.hitBreakpoints ?? []) {
      const fn = entries.get(id);
      if (fn) trace.calls[fn] = (trace.calls[fn] ?? 0) + 1;
    }
    if (file !== at) {
      trace.moves++;
      const again = left.has(file);
      if (again) trace.reentries++;
      if (!trace.files.includes(file)) trace.files.push(file);
      trace.sequence.push({ file, fn: top.functionName || '(anonymous)', again });
      if (at !== null) left.add(at);
      at = file;
    }
    post('Debugger.stepInto').catch(() => {});
  });

  const last = requests.at(-1);
  await send(last);
  await untilEnded(endedBefore + requests.length);
  phase = 'done';
  for (const id of breakpoints) await post('Debugger.removeBreakpoint', { breakpointId: id }).catch(() => {});
  await post('Debugger.disable');
  if (trace.moves === 0) throw new Error('the trace never reached http/serve-request.js serveRequest');
  parentPort.postMessage(trace);
  clearTimeout(watchdog);
  clearInterval(alive);
}

/** Where each function's body starts (its first statement, or an arrow's expression), 0-based, with its name. */
function functionStarts(source) {
  const sf = ts.createSourceFile('x.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const starts = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = ts.isBlock(node.body) ? node.body.statements[0] : node.body;
      if (first) {
        const { line, character } = sf.getLineAndCharacterOfPosition(first.getStart(sf));
        starts.push({ line, column: character, name: nameOf(node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return starts;
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText();
  return '(anonymous)';
}

