// The stub's admin page: it reads the admin API, follows the journal's event stream and steers
// the sticky scenario. Plain browser JavaScript, no framework and no build step.

// The page lives at <mount>/__admin/; every API path is relative to that.
const base = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
/** Rows drawn at once: enough to read, few enough that thousands of requests keep the page quick. */
const MAX_ROWS = 200;
/** Entries kept in memory for the table and details. */
const MAX_KEPT = 1000;

const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem('stub-admin-token') ?? '';
let entries = [];
let selected = null;
let sticky = null;
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

// --- Operations: coverage and scenarios -----------------------------------------------------

async function refreshOperations() {
  const [scenarios, coverage] = await Promise.all([json('scenarios'), json('coverage')]);
  sticky = scenarios.sticky;
  const banner = $('sticky-banner');
  banner.hidden = sticky === null;
  banner.textContent = sticky === null ? '' : `sticky scenario: ${sticky}`;
  const { exercised, total, ratio } = coverage.summary;
  $('coverage-summary').textContent = `${exercised} of ${total} documented responses and scenarios exercised (${Math.round(ratio * 100)}%)`;
  const byKey = new Map(scenarios.operations.map((operation) => [operation.operation, operation]));
  $('operations').replaceChildren(...coverage.operations.map((operation) => operationView(operation, byKey.get(operation.operation))));
}

function operationView(covered, listed) {
  const statuses = element('div', { className: 'statuses' }, ...covered.responses.map((response) =>
    element('span', { className: `status${response.exercised ? ' hit' : ''}`, title: `${response.hits} hit(s)` },
      response.exercised ? `✓ ${response.status} ×${response.hits}` : response.status)));
  const hits = new Map(covered.scenarios.map((scenario) => [scenario.name, scenario]));
  const scenarios = (listed?.scenarios ?? []).map((scenario) => {
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
  return element('div', { className: 'operation' },
    element('div', { className: 'operation-key' }, covered.operation),
    statuses,
    scenarios.length > 0 ? element('ul', { className: 'scenarios' }, ...scenarios) : null);
}

async function changeSticky(name) {
  if (name === null) await send('DELETE', 'scenario');
  else await send('PUT', 'scenario', { name });
  await refreshOperations();
}

/** Coverage changes with every request; redrawn at most twice a second. */
function scheduleRefresh() {
  if (refreshTimer !== null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    refreshOperations().catch(showError);
  }, 500);
}

// --- Journal ---------------------------------------------------------------------------------

function addEntries(list) {
  entries.push(...list);
  if (entries.length > MAX_KEPT) entries = entries.slice(entries.length - MAX_KEPT);
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(drawJournal);
}

function answerText(entry) {
  if (entry.fault) return `fault: ${entry.fault}`;
  if (entry.abandoned) return 'abandoned';
  return entry.scenario ?? '—';
}

function drawJournal() {
  drawPending = false;
  const newest = entries.slice(-MAX_ROWS).reverse();
  $('journal-rows').replaceChildren(...newest.map((entry) => {
    const row = element('tr', { onclick: () => showDetails(entry, row) },
      element('td', {}, new Date(entry.time).toLocaleTimeString()),
      element('td', {}, entry.method),
      element('td', { className: 'path', title: entry.path }, entry.path),
      element('td', { className: entry.fault ? 'fault' : `s${String(entry.status)[0]}` }, String(entry.status)),
      element('td', {}, answerText(entry)),
      element('td', { className: 'num' }, entry.durationMs.toFixed(1)));
    if (entry === selected) row.classList.add('selected');
    return row;
  }));
  $('journal-count').textContent = entries.length > MAX_ROWS ? `newest ${MAX_ROWS} of ${entries.length}` : String(entries.length);
  $('journal-empty').hidden = entries.length > 0;
}

function showDetails(entry, row) {
  selected = entry;
  for (const other of document.querySelectorAll('#journal-rows tr.selected')) other.classList.remove('selected');
  row.classList.add('selected');
  $('details').hidden = false;
  const query = new URLSearchParams(entry.query).toString();
  $('details-title').textContent = `${entry.method} ${entry.path}${query ? `?${query}` : ''} → ${entry.status} (${answerText(entry)})`;
  const problems = [...entry.violations.map((v) => `violation ${v}`), ...(entry.selfCheck ?? []).map((v) => `self-check ${v}`)];
  $('details-violations').replaceChildren(...problems.map((problem) => element('div', { className: 'violation' }, problem)));
  $('details-headers').textContent = JSON.stringify(entry.headers, null, 2);
  $('details-body').textContent = entry.body === null ? '(no body)'
    : typeof entry.body === 'string' ? entry.body + (entry.bodyTruncated ? '\n… (truncated)' : '')
    : JSON.stringify(entry.body, null, 2);
}

async function clearJournal() {
  await send('DELETE', 'requests');
  entries = [];
  selected = null;
  $('details').hidden = true;
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

// --- Start -----------------------------------------------------------------------------------

async function loadWarnings() {
  const response = await api('warnings');
  if (!response.ok) return; // an older stub, or none to show
  const body = await response.json();
  const warnings = Array.isArray(body) ? body : body.warnings ?? [];
  if (warnings.length === 0) return;
  $('warnings').hidden = false;
  $('warning-count').textContent = String(warnings.length);
  $('warning-list').replaceChildren(...warnings.map((warning) => element('li', {},
    typeof warning === 'string' ? warning
      : element('span', {}, element('code', {}, `${warning.file ?? ''} ${warning.pointer ?? ''}`.trim()), ` ${warning.reason ?? warning.message ?? ''}`))));
}

function showError(error) {
  if (!(error instanceof TokenNeeded)) setConnection('down', String(error.message ?? error));
}

async function start() {
  const health = await (await fetch(`${base}health`)).json();
  $('title').textContent = health.spec;
  document.title = `${health.spec}: stub admin`;
  try {
    const { requests } = await json('requests');
    addEntries(requests.slice(-MAX_KEPT));
    await Promise.all([refreshOperations(), loadWarnings()]);
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
start().catch(showError);
