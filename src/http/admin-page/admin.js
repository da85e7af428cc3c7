// The stub's admin page: it reads the admin API, follows the journal's event stream and steers
// the sticky scenario. Plain browser JavaScript, no framework and no build step. Built to stay
// quick on a document of thousands of operations: the operations are drawn once and only the
// ones whose coverage changed are redrawn; filtering hides nodes, it never rebuilds them.
// One file of over 300 lines on purpose: the page has no build step, and browser modules would
// make every asset one more request to the admin API's static files.

// The page lives at <mount>/__admin/; every API path is relative to that.
const base = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
/** Rows drawn at once: enough to read, few enough that thousands of requests keep the page quick. */
const MAX_ROWS = 200;
/** Entries kept in memory for the table and details. */
const MAX_KEPT = 1000;
const COLUMNS = 6;

const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem('stub-admin-token') ?? '';
let entries = [];
/** Entries that arrived since the table was last drawn. */
let undrawn = [];
let selected = null;
let sticky = null;
/** The session whose scripted answers the page shows and changes (X-Mock-Session); `default` without one. */
let session = sessionStorage.getItem('stub-admin-session') ?? 'default';
/** Operations whose "force an answer" form is open: kept open across redraws. */
const openForms = new Set();
/** Operation key -> its open "Try it" panel, moved into the operation's node each time it is redrawn. */
const tryPanels = new Map();
let drawPending = false;
let refreshTimer = null;

class TokenNeeded extends Error {}

async function api(path, init = {}) {
  const headers = { ...init.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(base + path, { ...init, headers });
  if (response.status === 401) {
    $('token-form').hidden = false;
    throw new TokenNeeded('the admin API needs its token');
  }
  return response;
}

async function json(path) {
  const response = await api(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/** An admin path for the session the page shows. */
function scoped(path) {
  return session === 'default' ? path : `${path}${path.includes('?') ? '&' : '?'}session=${encodeURIComponent(session)}`;
}

// State changes are JSON requests: a page of another site cannot send them without a preflight.
function send(method, path, body) {
  return api(path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'onclick') node.addEventListener('click', value);
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// --- Operations: coverage, scenarios, filter --------------------------------------------------

/** Operation key -> { node, drawn (what it was drawn from), search (lower-case text the filter matches), exercised, whole, path }. */
const operationViews = new Map();
/** The operation keys in the document's order. */
let documentOrder = [];

async function refreshOperations() {
  const [scenarios, coverage] = await Promise.all([json(scoped('scenarios')), json('coverage')]);
  sticky = scenarios.sticky;
  const banner = $('sticky-banner');
  banner.hidden = sticky === null;
  banner.textContent = sticky === null ? '' : `sticky scenario: ${sticky}`;
  showSessions(scenarios.sessions);
  const forced = scenarios.operations.filter((operation) => operation.scenarios.some((scenario) => scenario.added)).length;
  $('forced-banner').hidden = forced === 0;
  $('forced-banner').textContent = `${forced} operation${forced === 1 ? '' : 's'} forced`;
  // The share from the counts: the summary's ratio is rounded to 0.001, which is 0 for 1 of 3,885.
  const { exercised, total } = coverage.summary;
  $('coverage-summary').textContent = `${count(exercised)} of ${count(total)} documented responses and scenarios exercised (${percent(total === 0 ? 0 : exercised / total)})`;
  const byKey = new Map(scenarios.operations.map((operation) => [operation.operation, operation]));
  const seen = new Set();
  for (const covered of coverage.operations) {
    const listed = byKey.get(covered.operation);
    seen.add(covered.operation);
    // Redraw an operation only when what it shows changed: a request touches one or two of them.
    const drawn = JSON.stringify([covered, listed?.scenarios, listed?.examples, listed?.scenarios.some((scenario) => scenario.name === sticky) ? sticky : null]);
    let view = operationViews.get(covered.operation);
    if (view?.drawn !== drawn) {
      const node = operationView(covered, listed);
      if (view) view.node.replaceWith(node);
      const [method, ...path] = covered.operation.split(' ');
      view = {
        node, drawn, search: `${covered.operation} ${covered.operationId ?? ''}`.toLowerCase(), exercised: isExercised(covered),
        // What an exact filter is compared with: `get /plants` or the operationId first, then `/plants`.
        whole: [covered.operation.toLowerCase(), (covered.operationId ?? '').toLowerCase()], path: path.join(' ').toLowerCase(),
      };
      operationViews.set(covered.operation, view);
    }
  }
  // The document's order (a reload can add, remove or move operations).
  documentOrder = coverage.operations.map((covered) => covered.operation);
  for (const [key, view] of operationViews) {
    if (seen.has(key)) continue;
    view.node.remove();
    operationViews.delete(key);
  }
  applyFilter();
}

/** `1527` -> `1,527`. */
function count(n) {
  return n.toLocaleString('en-US');
}

/**
 * A ratio as a percentage, one decimal where rounding would say 0% or 100% of something that is
 * not (0.3%, 99.8%), and `<0.1%` / `>99.9%` where even that would.
 */
function percent(ratio) {
  const value = ratio * 100;
  if (ratio > 0 && value < 0.05) return '<0.1%';
  if (ratio < 1 && value > 99.95) return '>99.9%';
  const near = ratio > 0 && ratio < 1 && (value < 1 || value > 99);
  return `${near ? value.toFixed(1) : Math.round(value)}%`;
}

/**
 * Puts the operations in the document's order, except that those the filter names exactly come
 * first: the typed method and path (`GET /plants`) or operationId, then the typed path (`/plants`),
 * so the one asked for is on top rather than among its sub-paths. Only misplaced nodes are moved.
 */
function placeOperations(typed) {
  const rank = (view) => (typed === '' ? 2 : view.whole.includes(typed) ? 0 : view.path === typed ? 1 : 2);
  const order = documentOrder.map((key) => operationViews.get(key)).filter(Boolean);
  const ranked = [0, 1, 2].flatMap((level) => order.filter((view) => rank(view) === level));
  const container = $('operations');
  let previous = null;
  for (const view of ranked) {
    const wanted = previous ? previous.nextSibling : container.firstChild;
    if (wanted !== view.node) container.insertBefore(view.node, wanted);
    previous = view.node;
  }
}

function isExercised(covered) {
  return covered.responses.some((response) => response.exercised) || covered.scenarios.some((scenario) => scenario.exercised);
}

function operationView(covered, listed) {
  const statuses = element('div', { className: 'statuses' }, ...covered.responses.map((response) =>
    element('span', { className: `status${response.exercised ? ' hit' : ''}`, title: `${response.hits} hit(s)` },
      response.exercised ? `✓ ${response.status} ×${response.hits}` : response.status)));
  const hits = new Map(covered.scenarios.map((scenario) => [scenario.name, scenario]));
  const forced = (listed?.scenarios ?? []).filter((scenario) => scenario.added);
  const scenarios = (listed?.scenarios ?? []).filter((scenario) => !scenario.added).map((scenario) => {
    const isSticky = scenario.name === sticky;
    const hit = hits.get(scenario.name);
    return element('li', { className: isSticky ? 'is-sticky' : '', 'data-scenario': scenario.name },
      element('span', { className: hit?.exercised ? 'hit' : 'miss', title: hit?.exercised ? `${hit.hits} hit(s)` : 'not exercised' }, hit?.exercised ? '✓' : '·'),
      element('span', { className: 'name' }, scenario.name),
      element('span', { className: 'hint' }, `→ ${scenario.status}`),
      isSticky
        ? element('button', { type: 'button', onclick: () => changeSticky(null) }, 'clear sticky')
        : element('button', { type: 'button', onclick: () => changeSticky(scenario.name) }, 'make sticky'));
  });
  const hitCount = covered.responses.reduce((sum, response) => sum + response.hits, 0);
  const [method, ...path] = covered.operation.split(' ');
  return element('div', { className: `operation${isExercised(covered) ? ' exercised' : ''}`, 'data-operation': covered.operation },
    element('div', { className: 'operation-key' },
      element('span', { className: `method m-${method.toLowerCase()}` }, method),
      element('span', { className: 'operation-path' }, ...breakableAfterSlashes(path.join(' '))),
      hitCount > 0 ? element('span', { className: 'hits', title: 'requests answered by this operation' }, `${hitCount} hit${hitCount === 1 ? '' : 's'}`) : null,
      element('button', { type: 'button', className: 'quiet try-open', onclick: () => toggleTry(covered.operation).catch(showError) }, 'Try it')),
    covered.operationId ? element('div', { className: 'operation-id' }, covered.operationId) : null,
    statuses,
    forced.length > 0 ? element('div', { className: 'forced-list' }, ...forced.map((scenario) => forcedChip(covered.operation, scenario))) : null,
    scenarios.length > 0 ? element('ul', { className: 'scenarios' }, ...scenarios) : null,
    forceForm(covered, listed),
    tryPanels.get(covered.operation) ?? null);
}

// --- Try it: a request built from the document, sent to the stub, its answer beside it ---------

async function toggleTry(key) {
  const open = tryPanels.get(key);
  if (open) {
    open.remove();
    tryPanels.delete(key);
    return;
  }
  const described = await json(`try?operation=${encodeURIComponent(key)}`);
  const field = (label, name, value) => element('label', {}, label, element('input', { name, value, autocomplete: 'off', spellcheck: 'false' }));
  const inputs = described.parameters.map((parameter) => field(`${parameter.in} ${parameter.name}${parameter.required ? ' *' : ''}`, `${parameter.in}:${parameter.name}`, parameter.value));
  const credential = described.credential ? field(`${described.credential.in} ${described.credential.name} (credential)`, `${described.credential.in}:${described.credential.name}`, described.credential.value) : null;
  const body = described.body ? element('textarea', { name: 'body', rows: String(Math.min(12, described.body.text.split('\n').length + 1)), spellcheck: 'false', 'aria-label': `body (${described.body.contentType})` }) : null;
  if (body) body.value = described.body.text;
  const result = element('div', { className: 'try-result' });
  const form = element('form', { className: 'try-form' }, element('div', { className: 'try-fields' }, ...inputs, credential), body, element('button', { type: 'submit' }, 'Send'), result);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sendTry(described, form, result).catch((error) => (result.textContent = String(error.message ?? error)));
  });
  const panel = element('div', { className: 'try-panel', 'data-try': key }, form);
  tryPanels.set(key, panel);
  operationViews.get(key)?.node.append(panel);
}

async function sendTry(described, form, result) {
  const values = Object.fromEntries([...form.querySelectorAll('input')].map((input) => [input.name, input.value]));
  const path = described.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(values[`path:${name}`] ?? ''));
  const query = new URLSearchParams();
  const headers = {};
  for (const [name, value] of Object.entries(values)) {
    const [place, ...rest] = name.split(':');
    if (value === '') continue;
    if (place === 'query') query.append(rest.join(':'), value);
    if (place === 'header') headers[rest.join(':')] = value;
  }
  if (session !== 'default') headers['x-mock-session'] = session;
  const text = form.querySelector('textarea')?.value;
  if (described.body && text) headers['content-type'] = described.body.contentType;
  const url = `${location.origin}${base.replace(/__admin\/$/, '').replace(/\/$/, '')}${path}${query.size > 0 ? `?${query}` : ''}`;
  const started = performance.now();
  const response = await fetch(url, { method: described.method, headers, body: ['GET', 'HEAD'].includes(described.method) || !text ? undefined : text });
  const answer = await response.text();
  let shown = answer;
  try {
    shown = JSON.stringify(JSON.parse(answer), null, 2);
  } catch {}
  const head = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  result.replaceChildren(
    element('div', { className: 'try-request' }, element('h4', {}, 'request'), element('pre', {}, `${described.method} ${url}\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n')}${text && described.body ? `\n\n${text}` : ''}`)),
    element('div', { className: 'try-answer' }, element('h4', {}, `answer: ${response.status} in ${duration(performance.now() - started)} ms`), element('pre', { className: response.ok ? '' : 'bad' }, `${head}\n\n${shown}`)));
}

// --- Control panel: answers forced per operation (POST /__admin/scenarios) ---------------------

function forcedChip(operation, scenario) {
  const parts = [`forced ${scenario.status}`];
  if (scenario.delayMs) parts.push(`${scenario.delayMs} ms`);
  if (scenario.times) parts.push(`${scenario.used} of ${scenario.times}`);
  return element('span', { className: 'pill forced', 'data-forced': scenario.name, title: `added scenario ${scenario.name}` },
    parts.join(' · '),
    element('button', { type: 'button', className: 'quiet', title: 'clear', 'aria-label': `clear ${scenario.name}`, onclick: () => unforce(operation, [scenario.name]).catch(showError) }, '✕'));
}

/**
 * The form that forces an answer on one operation: one of its documented statuses (the stub's own
 * body for it) or named examples, with a delay or spread and a fault. What it sends is what a
 * test sends to POST /__admin/scenarios, so the refusal's words are the API's.
 */
function forceForm(covered, listed) {
  if (!covered.responses.some((response) => /^\d{3}$/.test(response.status))) return null;
  // Built when first opened: a document of thousands of operations draws a summary line for each.
  const details = element('details', { className: 'force' }, element('summary', {}, 'force an answer'));
  const build = () => {
    if (details.querySelector('form')) return;
    details.append(forceFields(covered, listed));
  };
  if (openForms.has(covered.operation)) {
    build();
    details.open = true;
  }
  details.addEventListener('toggle', () => {
    if (details.open) build();
    if (details.open) openForms.add(covered.operation);
    else openForms.delete(covered.operation);
  });
  return details;
}

function forceFields(covered, listed) {
  const choices = [
    ...covered.responses.filter((response) => /^\d{3}$/.test(response.status)).map((response) => element('option', { value: `status:${response.status}` }, `${response.status} (the stub's own body)`)),
    ...(listed?.examples ?? []).map((example) => element('option', { value: `example:${example.status}:${example.name}` }, `${example.status} example "${example.name}"`)),
  ];
  const answer = element('select', { name: 'answer', 'aria-label': 'answer to force' }, ...choices);
  const delay = element('input', { name: 'delay', placeholder: 'delay: 250, 100-800', 'aria-label': 'delay', size: '14', autocomplete: 'off' });
  const fault = element('select', { name: 'fault', 'aria-label': 'fault' }, element('option', { value: '' }, 'no fault'), ...['reset', 'close', 'timeout', 'malformed'].map((name) => element('option', { value: name }, name)));
  const problem = element('p', { className: 'problem', role: 'status' });
  const form = element('form', { className: 'force-form' }, answer, delay, fault, element('button', { type: 'submit' }, 'Force'), problem);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    force(covered.operation, listed, answer.value, delay.value, fault.value, problem).catch(showError);
  });
  return form;
}

/** `250` -> 250, `100-800` -> {min, max}, `median=200,p99=2000` -> {median, p99}; undefined when empty. */
function delayValue(text) {
  const typed = text.trim();
  if (typed === '') return undefined;
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(typed);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  const tail = /^median=(\d+),\s*p99=(\d+)$/.exec(typed);
  if (tail) return { median: Number(tail[1]), p99: Number(tail[2]) };
  return /^\d+$/.test(typed) ? Number(typed) : typed;
}

async function force(operation, listed, choice, delayText, fault, problem) {
  problem.textContent = '';
  const [kind, status, ...name] = choice.split(':');
  const definition = { operation, status: Number(status) };
  if (kind === 'example') definition.example = name.join(':');
  const delay = delayValue(delayText);
  if (delay !== undefined) definition.delay = delay;
  if (fault) definition.fault = fault;
  const response = await send('POST', scoped('scenarios'), definition);
  if (!response.ok) {
    const refusal = await response.json().catch(() => ({}));
    problem.textContent = [refusal.detail ?? `refused (${response.status})`, ...(refusal.violations ?? [])].join(': ');
    return;
  }
  // One forced answer per operation: the one just added replaces those before it.
  const { name: added } = await response.json();
  const before = (listed?.scenarios ?? []).filter((scenario) => scenario.added && scenario.name !== added).map((scenario) => scenario.name);
  await unforce(operation, before);
}

async function unforce(operation, names) {
  for (const name of names) await send('DELETE', scoped(`scenarios/${encodeURIComponent(name)}`));
  await refreshOperations();
}

// --- Sessions --------------------------------------------------------------------------------

/** The session selector, shown once a session is in use. */
function showSessions(names) {
  const select = $('session');
  const all = ['default', ...names.filter((name) => name !== 'default')];
  if (!all.includes(session)) all.push(session);
  $('session-picker').hidden = all.length === 1;
  const drawn = [...select.options].map((option) => option.value);
  if (JSON.stringify(drawn) !== JSON.stringify(all)) select.replaceChildren(...all.map((name) => element('option', { value: name }, name)));
  select.value = session;
}

/** A path as text nodes with a line-break opportunity after each slash, so a long path wraps between its segments. */
function breakableAfterSlashes(path) {
  return path.split(/(?<=\/)/).flatMap((segment, index) => (index === 0 ? [segment] : [document.createElement('wbr'), segment]));
}

/** Shows the operations whose method, path or operationId hold every word typed (any order, any case). */
function applyFilter() {
  const words = $('operation-filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  const exercisedOnly = $('exercised-only').checked;
  let shown = 0;
  for (const view of operationViews.values()) {
    const show = (!exercisedOnly || view.exercised) && words.every((word) => view.search.includes(word));
    if (view.node.hidden === show) view.node.hidden = !show; // untouched nodes cost no style work
    if (show) shown++;
  }
  placeOperations(words.join(' '));
  sessionStorage.setItem('stub-admin-filter', JSON.stringify({ words: $('operation-filter').value, exercisedOnly }));
  const total = operationViews.size;
  $('operations-count').textContent = shown === total ? `${total}` : `${shown} of ${total}`;
  $('operations-empty').hidden = shown > 0 || total === 0;
}

async function changeSticky(name) {
  if (name === null) await send('DELETE', scoped('scenario'));
  else await send('PUT', scoped('scenario'), { name });
  await refreshOperations();
}

/** Coverage changes with every request; redrawn at most twice a second. */
function scheduleRefresh() {
  if (refreshTimer !== null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    // Warnings grow too: a response schema no generated data satisfies is found when first served.
    Promise.all([refreshOperations(), loadWarnings()]).catch(showError);
  }, 500);
}

// --- Journal ---------------------------------------------------------------------------------

function addEntries(list) {
  entries.push(...list);
  undrawn.push(...list);
  if (entries.length > MAX_KEPT) entries = entries.slice(entries.length - MAX_KEPT);
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(drawJournal);
}

function answerText(entry) {
  if (entry.fault) return `fault: ${entry.fault}`;
  if (entry.abandoned) return 'abandoned';
  if (entry.source === 'proxy') return `proxy: ${entry.proxy}`;
  return entry.scenario ?? '—';
}

/** What produced the answer, in words (the journal's `scenario`, `fault` and `abandoned`). */
function answeredBy(entry) {
  if (entry.fault) return `the fault "${entry.fault}": the status was never sent`;
  if (entry.abandoned) return 'nothing: the client left before the delayed answer was sent';
  // --proxy: the real API (or the stub's 502/504 for it), or the mock falling back and why.
  if (entry.source === 'proxy') return `the real API at ${entry.target} (${entry.proxy})`;
  if (entry.source === 'mock') return `the mock, as a ${entry.proxy}`;
  const source = entry.scenario;
  if (source === null) return 'the stub refused the request (nothing was served)';
  if (source === 'echo') return 'echo: the request projected onto the response schema';
  if (source === 'generated') return 'data generated from the response schema';
  if (source === 'state') return 'the stored resources (stateful mode)';
  if (source.startsWith('example:')) return `the documented example "${source.slice(8)}"`;
  return `the scenario "${source}"`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** The path with its query as the client sent it (`/plants?limit=2`). */
function target(entry) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(entry.query ?? {})) for (const one of [].concat(value)) query.append(name, one);
  const text = query.toString();
  return text ? `${entry.path}?${text}` : entry.path;
}

/** Milliseconds to read at a glance, never cut: one decimal below a second, whole ones above. */
function duration(ms) {
  return ms < 1000 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US');
}

/** The status column: the status sent, or what was sent instead (a fault, nothing at all). */
function statusCell(entry) {
  if (entry.fault) return element('td', { className: 'fault', title: `the fault "${entry.fault}": status ${entry.status} was never sent` }, entry.fault);
  if (entry.abandoned) return element('td', { className: 'fault', title: `the client left: status ${entry.status} was never sent` }, 'left');
  return element('td', { className: `s${String(entry.status)[0]}` }, String(entry.status));
}

function rowView(entry) {
  const answer = answerText(entry);
  const path = target(entry);
  const row = element('tr', { className: 'request', onclick: () => toggleDetails(entry, row) },
    element('td', { title: entry.instance ? `${entry.time} on ${entry.instance}` : entry.time }, timeFormat.format(new Date(entry.time))),
    element('td', { className: 'method' }, entry.method),
    element('td', { className: 'path', title: path }, path),
    statusCell(entry),
    element('td', { className: 'answer', title: entry.instance ? `${answer} (on ${entry.instance})` : answer }, answer, entry.instance ? element('span', { className: 'instance' }, ` · ${entry.instance}`) : null),
    element('td', { className: 'num', title: `${entry.durationMs} ms` }, duration(entry.durationMs)));
  return row;
}

/**
 * Adds the rows of new entries on top and drops the oldest beyond MAX_ROWS. Existing rows stay in
 * place (no redraw), so an open details row and the reader's scroll position are kept.
 */
function drawJournal() {
  drawPending = false;
  const fresh = undrawn.slice(-MAX_ROWS).reverse();
  undrawn = [];
  const rows = $('journal-rows');
  rows.prepend(...fresh.map(rowView));
  const drawn = rows.querySelectorAll('tr.request');
  for (let index = MAX_ROWS; index < drawn.length; index++) {
    if (drawn[index].classList.contains('selected')) closeDetails();
    drawn[index].remove();
  }
  $('journal-count').textContent = entries.length > MAX_ROWS ? `newest ${MAX_ROWS} of ${entries.length}` : String(entries.length);
  $('journal-empty').hidden = entries.length > 0;
}

function closeDetails() {
  selected = null;
  for (const row of document.querySelectorAll('#journal-rows tr.selected')) row.classList.remove('selected');
  document.querySelector('#journal-rows tr.details-row')?.remove();
}

/** Opens the entry's details in a row right under the clicked one, where the reader is looking; a second click closes them. */
function toggleDetails(entry, row) {
  const wasOpen = selected === entry;
  closeDetails();
  if (wasOpen) return;
  selected = entry;
  row.classList.add('selected');
  const details = detailsView(entry);
  row.after(element('tr', { className: 'details-row' }, element('td', { colspan: String(COLUMNS) }, details)));
  revealInJournal(row, details);
}

/**
 * Scrolls the requests panel (never the page) so the details are in view, the clicked row kept at
 * the top when both do not fit.
 */
function revealInJournal(row, details) {
  const box = $('journal-scroll');
  const view = box.getBoundingClientRect();
  const header = box.querySelector('thead').getBoundingClientRect().height;
  const overflow = details.getBoundingClientRect().bottom - view.bottom;
  const roomAbove = row.getBoundingClientRect().top - view.top - header;
  if (overflow > 0) box.scrollTop += Math.min(overflow + 8, roomAbove);
}

function detailsView(entry) {
  const query = new URLSearchParams(entry.query).toString();
  const problems = [...entry.violations.map((v) => `violation ${v}`), ...(entry.responseViolations ?? []).map((v) => `answer violation ${v}`),
    ...(entry.undeclared ?? []).map((v) => `undeclared answer field ${v}`), ...(entry.selfCheck ?? []).map((v) => `self-check ${v}`)];
  const field = (name, ...value) => [element('dt', {}, name), element('dd', {}, ...value)];
  const statusClass = entry.fault || entry.abandoned ? 'fault' : `s${String(entry.status)[0]}`;
  const body = bodyText(entry.body, entry.bodyTruncated);
  // An older stub journals no answer body.
  const answered = 'responseBody' in entry ? bodyText(entry.responseBody, entry.responseBodyTruncated) : '(not journaled)';
  return element('div', { id: 'details', className: 'details' },
    element('div', { className: 'details-head' },
      element('h3', { id: 'details-title' }, `${entry.method} ${entry.path}${query ? `?${query}` : ''} → ${entry.status} (${answerText(entry)})`),
      element('button', { type: 'button', className: 'quiet', title: 'close', onclick: (event) => { event.stopPropagation(); closeDetails(); } }, 'close')),
    element('h4', {}, 'Response'),
    element('dl', { id: 'details-response' },
      ...field('status', element('span', { className: statusClass }, String(entry.status))),
      ...field('answered by', answeredBy(entry)),
      ...field('duration', `${entry.durationMs.toFixed(1)} ms`),
      ...field('received', new Date(entry.time).toLocaleString()),
      ...(entry.stateChange ? field('state', `${entry.stateChange.action} ${entry.stateChange.resource} ${entry.stateChange.id}`) : [])),
    problems.length > 0 ? element('div', { id: 'details-violations' }, ...problems.map((problem) => element('div', { className: 'violation' }, problem))) : null,
    element('h4', {}, 'Request headers ', element('span', { className: 'hint' }, 'credentials redacted')),
    element('pre', { id: 'details-headers' }, JSON.stringify(entry.headers, null, 2)),
    element('div', { className: 'bodies' },
      element('div', {}, element('h4', {}, 'Request body'), element('pre', { id: 'details-body' }, body)),
      element('div', {}, element('h4', {}, 'Response body ', element('span', { className: 'hint' }, 'first 16 KiB')), element('pre', { id: 'details-response-body' }, answered))));
}

/** A journaled body as the page shows it: JSON indented, text as it is, the cut marked. */
function bodyText(value, truncated) {
  if (value === null || value === undefined) return '(no body)';
  if (typeof value === 'string') return value + (truncated ? '\n… (truncated)' : '');
  return JSON.stringify(value, null, 2);
}

async function clearJournal() {
  await send('DELETE', 'requests');
  entries = [];
  undrawn = [];
  closeDetails();
  $('journal-rows').replaceChildren();
  drawJournal();
  await refreshOperations();
}

// --- Live stream -----------------------------------------------------------------------------

function setConnection(state, text) {
  const pill = $('connection');
  pill.dataset.state = state;
  pill.textContent = text;
}

/** Follows /events with fetch (unlike EventSource, it can send the admin token). */
async function follow() {
  try {
    const response = await api('events', { headers: { accept: 'text/event-stream' } });
    if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
    setConnection('live', 'live');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        handleEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  } catch (error) {
    if (error instanceof TokenNeeded) return setConnection('down', 'admin token needed');
  }
  setConnection('down', 'disconnected, retrying…');
  setTimeout(follow, 2000);
}

function handleEvent(block) {
  const lines = block.split('\n');
  const name = lines.find((line) => line.startsWith('event: '))?.slice(7);
  const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
  if (name !== 'request' || data === '') return;
  addEntries([JSON.parse(data)]);
  scheduleRefresh();
}

// --- Warnings, grouped by kind ---------------------------------------------------------------

let warningsShown = -1;

async function loadWarnings() {
  const response = await api('warnings');
  if (!response.ok) return; // an older stub, or none to show
  const body = await response.json();
  const warnings = (Array.isArray(body) ? body : body.warnings ?? []).map((warning) =>
    typeof warning === 'string' ? { kind: 'warning', reason: warning } : warning);
  // The list only grows between reloads; redrawn when its length changes, open groups kept open.
  if (warnings.length === warningsShown) return;
  warningsShown = warnings.length;
  $('warnings').hidden = warnings.length === 0;
  $('warning-count').textContent = String(warnings.length);
  const open = new Set([...document.querySelectorAll('#warning-groups details[open]')].map((group) => group.dataset.kind));
  const groups = new Map();
  for (const warning of warnings) {
    const kind = warning.kind ?? 'warning';
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(warning);
  }
  $('warning-groups').replaceChildren(...[...groups].sort((a, b) => b[1].length - a[1].length)
    .map(([kind, list]) => warningGroup(kind, list, open.has(kind))));
}

/**
 * One kind of warning: its count and, when they share it, the reason (else what they all say last,
 * after their last `; `: what the stub does about them, as the start's log line says it) and file;
 * the places drawn when first opened.
 */
function warningGroup(kind, list, open) {
  const reasons = new Set(list.map((warning) => warning.reason ?? warning.message ?? ''));
  const files = new Set(list.map((warning) => warning.file ?? ''));
  const sharedReason = reasons.size === 1 ? [...reasons][0] : null;
  const outcomes = new Set([...reasons].map((reason) => (reason.includes('; ') ? reason.slice(reason.lastIndexOf('; ') + 2) : reason)));
  const sharedOutcome = sharedReason ?? (outcomes.size === 1 ? [...outcomes][0] : null);
  const sharedFile = files.size === 1 ? [...files][0] : null;
  const items = element('ul', { className: 'warning-list' });
  const group = element('details', { className: 'warning-group', 'data-kind': kind },
    element('summary', {},
      element('span', { className: 'kind' }, kind),
      element('span', { className: 'count' }, `×${list.length}`),
      sharedOutcome ? element('span', { className: 'reason', title: sharedOutcome }, sharedOutcome) : null,
      sharedFile ? element('span', { className: 'hint file', title: sharedFile }, `in ${sharedFile}`) : null),
    items);
  const fill = () => {
    if (items.childElementCount > 0 || !group.open) return;
    items.append(...list.map((warning) => element('li', {},
      element('code', {}, `${sharedFile === null ? `${warning.file ?? ''} ` : ''}${warning.pointer ?? ''}`.trim()),
      sharedReason === null ? ` ${warning.reason ?? warning.message ?? ''}` : null)));
  };
  group.addEventListener('toggle', fill);
  group.open = open;
  fill();
  return group;
}

// --- Stored items (stateful mode) ----------------------------------------------------------

/** Items shown at once; older ones behind "Older". */
const ITEMS_PAGE = 20;
/** The resource shown, and where its page starts. */
const stored = { resources: [], shown: null, offset: 0 };

/** Shows the panel when stateful mode is on (GET resources answers 200), with a tab per resource. */
async function loadStoredItems() {
  const response = await api('resources');
  if (!response.ok) return;
  stored.resources = (await response.json()).resources;
  if (stored.resources.length === 0) return;
  $('stored-items').hidden = false;
  stored.shown ??= stored.resources[0].name;
  $('resource-tabs').replaceChildren(...stored.resources.map((resource) => element('button', {
    type: 'button', className: resource.name === stored.shown ? 'tab current' : 'tab', title: resource.collection,
    onclick: () => { stored.shown = resource.name; stored.offset = 0; loadStoredItems().catch(showError); },
  }, resource.name)));
  await drawItems();
}

function byteSize(bytes) {
  if (bytes === null) return 'no cap';
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

async function drawItems() {
  const resource = stored.resources.find((r) => r.name === stored.shown);
  const page = await json(`resources/${encodeURIComponent(resource.name)}/items?offset=${stored.offset}&limit=${ITEMS_PAGE}`);
  $('items-summary').textContent = `${count(page.total)} ${page.total === 1 ? 'item' : 'items'} in ${resource.collection}, newest first; the store holds ${byteSize(page.bytes)} of ${byteSize(page.maxBytes)}`;
  $('items-newer').disabled = stored.offset === 0;
  $('items-older').disabled = stored.offset + ITEMS_PAGE >= page.total;
  $('items-empty').hidden = page.items.length > 0;
  $('items').replaceChildren(...page.items.map((item) => itemView(resource, item)));
}

/** An item's row: its id and JSON, with Edit (checked by the stub before it is stored) and Delete. */
function itemView(resource, item) {
  const id = String(item[resource.idProperty]);
  const text = JSON.stringify(item, null, 2);
  const problem = element('p', { className: 'item-problem' });
  problem.hidden = true;
  const editor = element('textarea', { className: 'item-editor', spellcheck: 'false', 'aria-label': `item ${id} as JSON` });
  editor.value = text;
  editor.hidden = true;
  const preview = element('code', { className: 'item-json' }, JSON.stringify(item));
  const save = element('button', { type: 'button', onclick: () => saveItem(resource, id, editor.value, problem).catch(showError) }, 'Save');
  const cancel = element('button', { type: 'button', onclick: () => drawItems().catch(showError) }, 'Cancel');
  save.hidden = cancel.hidden = true;
  const edit = element('button', { type: 'button', onclick: () => {
    editor.hidden = save.hidden = cancel.hidden = false;
    preview.hidden = edit.hidden = true;
    editor.focus();
  } }, 'Edit');
  const remove = element('button', { type: 'button', className: 'danger', onclick: () => deleteItem(resource, id).catch(showError) }, 'Delete');
  return element('li', { className: 'item', 'data-id': id },
    element('div', { className: 'item-head' }, element('span', { className: 'item-id' }, id), preview, edit, save, cancel, remove),
    editor, problem);
}

async function saveItem(resource, id, text, problem) {
  const response = await api(`resources/${encodeURIComponent(resource.name)}/items/${encodeURIComponent(id)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text });
  if (response.ok) return drawItems();
  const refusal = await response.json();
  problem.textContent = [refusal.detail, ...(refusal.violations ?? [])].join('\n');
  problem.hidden = false;
}

async function deleteItem(resource, id) {
  await api(`resources/${encodeURIComponent(resource.name)}/items/${encodeURIComponent(id)}`, { method: 'DELETE' });
  await drawItems();
}

async function resetItems() {
  const resource = stored.resources.find((r) => r.name === stored.shown);
  await api(`resources/${encodeURIComponent(resource.name)}/reset`, { method: 'POST' });
  stored.offset = 0;
  await drawItems();
}

// --- Start -----------------------------------------------------------------------------------

function showError(error) {
  if (!(error instanceof TokenNeeded)) setConnection('down', String(error.message ?? error));
}

async function start() {
  const health = await (await fetch(`${base}health`)).json();
  $('title').textContent = health.spec;
  document.title = `${health.spec}: stub admin`;
  try {
    // Only the rows the page keeps are read (with --state-store, one read of that page in Redis).
    const { requests } = await json(`requests?limit=${MAX_KEPT}`);
    addEntries(requests);
    await Promise.all([refreshOperations(), loadWarnings(), loadStoredItems()]);
  } catch (error) {
    showError(error);
    if (error instanceof TokenNeeded) return setConnection('down', 'admin token needed');
  }
  follow();
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token').value.trim();
  sessionStorage.setItem('stub-admin-token', token);
  $('token-form').hidden = true;
  start().catch(showError);
});
$('clear-journal').addEventListener('click', () => clearJournal().catch(showError));
$('items-reset').addEventListener('click', () => resetItems().catch(showError));
$('items-refresh').addEventListener('click', () => drawItems().catch(showError));
$('items-newer').addEventListener('click', () => { stored.offset = Math.max(0, stored.offset - ITEMS_PAGE); drawItems().catch(showError); });
$('items-older').addEventListener('click', () => { stored.offset += ITEMS_PAGE; drawItems().catch(showError); });
$('operation-filter').addEventListener('input', applyFilter);
$('session').addEventListener('change', () => {
  session = $('session').value;
  sessionStorage.setItem('stub-admin-session', session);
  for (const view of operationViews.values()) view.drawn = null; // redrawn for the session chosen
  refreshOperations().catch(showError);
});
$('exercised-only').addEventListener('change', applyFilter);
// The filter outlives a reload of the page (per tab, like the token).
const savedFilter = JSON.parse(sessionStorage.getItem('stub-admin-filter') ?? '{}');
$('operation-filter').value = savedFilter.words ?? '';
$('exercised-only').checked = savedFilter.exercisedOnly === true;
// `/` jumps to the filter, as on GitHub and MDN.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  event.preventDefault();
  $('operation-filter').focus();
  $('operation-filter').select();
});
start().catch(showError);
